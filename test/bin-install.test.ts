/**
 * The generated server runs as a command: its `npm pack` tarball holds what the bin needs, installs
 * globally into a temporary prefix (runtime packages from the registry, as a user gets them), and a
 * real MCP client starts it by name, by absolute path and through `npx`, over stdio and `--http`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runCli } from '../cli/main.js';
import { connectHttp, memoryIO, run, scratch } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: shipped-echo, version: 1.2.3, description: Echo server installed as a command }
tools:
  ping:
    description: Answers pong
`;
const BIN = 'shipped-echo';
const skip = process.env.MCPGEN_SKIP_NPM_INSTALL === '1';

let dir = '';
let prefix = '';
let tarball = '';
const started: ChildProcess[] = [];

/** The environment a client passes to the server it starts: PATH with the prefix's bin first. */
function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_OPTIONS') env[k] = v;
  env.PATH = `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

async function listToolsVia(command: string, args: string[] = [], env: Record<string, string> = {}): Promise<string[]> {
  const client = new Client({ name: 'bin-install', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: { ...clientEnv(), ...env }, stderr: 'pipe' }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe.skipIf(skip)('the generated server as an installed command', () => {
  beforeAll(async () => {
    dir = scratch('bin-install');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    // The project's own build script (tsc from the repository's node_modules/.bin, which npm puts on PATH).
    const build = await run('npm', ['run', 'build', '--silent'], dir, 180_000);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const pack = await run('npm', ['pack', '--json', '--silent', '--pack-destination', dir], dir, 180_000);
    expect(pack.code, pack.stderr).toBe(0);
    const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = path.join(dir, packed[0]!.filename);
    prefix = mkdtempSync(path.join(tmpdir(), 'mcpgen-prefix-'));
    const install = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball],
      dir,
      300_000,
    );
    expect(install.code, install.stderr).toBe(0);
  }, 600_000);

  afterAll(() => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  it('builds an executable entry that starts with a shebang', () => {
    const main = path.join(dir, 'dist/src/main.js');
    expect(readFileSync(main, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    if (process.platform !== 'win32') expect(statSync(main).mode & 0o111).toBe(0o111);
  });

  it('packs the built server, not its sources or tests', async () => {
    const pack = await run('npm', ['pack', '--dry-run', '--json', '--silent'], dir, 180_000);
    const files = (
      JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { files: { path: string }[] }[]
    )[0]!.files.map((f) => f.path);
    expect(files).toContain('dist/src/main.js');
    expect(files).toContain('package.json');
    expect(files).toContain('README.md');
    expect(files.filter((f) => !f.startsWith('dist/src/') && f !== 'package.json' && f !== 'README.md')).toEqual([]);
  }, 200_000);

  it('a client starts the globally installed server by its name, over stdio', async () => {
    expect(await listToolsVia(BIN)).toEqual(['ping']);
  }, 60_000);

  it('a client starts it by the absolute path of the installed bin', async () => {
    const bin = process.platform === 'win32' ? path.join(prefix, `${BIN}.cmd`) : path.join(prefix, 'bin', BIN);
    expect(await listToolsVia(bin)).toEqual(['ping']);
  }, 60_000);

  it('a global install of the project folder itself (a link to it) runs as a command too', async () => {
    const linked = mkdtempSync(path.join(tmpdir(), 'mcpgen-prefix-'));
    try {
      const install = await run(
        'npm',
        ['install', '-g', '--prefix', linked, '--no-audit', '--no-fund', '--loglevel=error', dir],
        dir,
        120_000,
      );
      expect(install.code, install.stderr).toBe(0);
      const bin = process.platform === 'win32' ? path.join(linked, `${BIN}.cmd`) : path.join(linked, 'bin', BIN);
      expect(await listToolsVia(bin)).toEqual(['ping']);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  }, 180_000);

  it('the installed bin serves Streamable HTTP with --http', async () => {
    const child = spawn(BIN, ['--http', '--port', '0'], { env: clientEnv() });
    started.push(child);
    let stderr = '';
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 15 s:\n${stderr}`)), 15_000);
      child.stderr!.on('data', (d) => {
        stderr += d;
        const m = /MCP over Streamable HTTP at (\S+)/.exec(stderr);
        if (m) resolve(new URL(m[1]!)), clearTimeout(timer);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${stderr}`)));
    });
    const client = await connectHttp(url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
    } finally {
      await client.close();
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('npx runs the packed server as a client command', async () => {
    // npx keeps what it installed for a spec and reuses it: a cache of the test's own starts clean.
    const cache = path.join(prefix, 'npm-cache');
    expect(await listToolsVia('npx', ['-y', '--package', tarball, BIN], { npm_config_cache: cache })).toEqual(['ping']);
  }, 300_000);
});
