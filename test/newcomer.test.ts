/**
 * The whole newcomer path, outside the repository so nothing resolves from mcpgen's own
 * node_modules: `npm pack` mcpgen → install the tarball into a temporary prefix → `mcpgen init` →
 * `npm install` → `npm test` → install the server and start it by its bin name from a real MCP
 * client → `npm run dev` serves and picks up a manifest edit → `mcpgen pack` builds a bundle the
 * MCPB validator accepts and a server.json the Registry schema accepts. Packages come from the
 * registry, as a user gets them.
 */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unpackExtension, validateManifest } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, REPO, run } from './helpers/project.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
const skip = process.env.MCPGEN_SKIP_NPM_INSTALL === '1';
const NAME = 'hello-mcp';

let root = '';
let prefix = '';
let project = '';
let dev: ChildProcess | undefined;
let devOut = '';

/** What a shell of the newcomer has: the prefix's bin first on PATH, no test-runner options. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== 'NODE_OPTIONS' && !k.startsWith('VITEST')) env[k] = v;
  env.PATH = `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

const sh = (cmd: string, args: string[], cwd: string, timeout = 300_000) => run(cmd, args, cwd, timeout, userEnv());

/** Waits (bounded) until the dev loop has printed `count` "serving at" lines; returns the last URL. */
async function served(count: number, timeoutMs = 120_000): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const urls = [...devOut.matchAll(/✔ serving at (\S+)/g)].map((m) => m[1]!);
    if (urls.length >= count) return new URL(urls[count - 1]!);
    if (dev?.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm run dev did not serve (${count}) in time:\n${devOut}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function toolsOver(url: URL): Promise<string[]> {
  const client = await connectHttp(url);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

describe.skipIf(skip)('a newcomer, from the mcpgen tarball to a shared bundle', () => {
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-newcomer-'));
    prefix = path.join(root, 'prefix');
    const pack = await sh('npm', ['pack', '--json', '--silent', '--pack-destination', root], REPO);
    expect(pack.code, pack.stderr).toBe(0);
    const tarball = path.join(
      root,
      (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[])[0]!.filename,
    );
    const install = await sh('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], root);
    expect(install.code, install.stdout + install.stderr).toBe(0);
  }, 600_000);

  afterAll(async () => {
    if (dev?.pid !== undefined && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev!.once('exit', resolve));
      process.kill(-dev.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (dev.exitCode === null) process.kill(-dev.pid, 'SIGKILL');
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('mcpgen init, npm install and npm test work the first time', async () => {
    const init = await sh('mcpgen', ['init', NAME], root);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    project = path.join(root, NAME);
    // Every printed next step is run as printed.
    const steps = init.stdout
      .slice(init.stdout.indexOf('Next:'))
      .split('\n')
      .filter((l) => /^ {2}(cd|npm) /.test(l));
    expect(steps.map((l) => l.replace(/#.*/, '').trim())).toEqual([
      `cd ${NAME}`,
      'npm install',
      'npm test',
      'npm start',
      'npm run dev',
    ]);
    // The modeline resolves here: the package.json init wrote lists mcpgen, so it is in node_modules.
    const modeline = /^# yaml-language-server: \$schema=(\S+)\n/.exec(
      readFileSync(path.join(project, 'mcpgen.yaml'), 'utf8'),
    );
    expect(modeline?.[1]).toBe('./node_modules/mcpgen/schemas/manifest.v1.json');
    const install = await sh('npm', ['install', '--no-audit', '--no-fund'], project);
    expect(install.code, install.stdout + install.stderr).toBe(0);
    expect(existsSync(path.join(project, modeline![1]!))).toBe(true);
    const test = await sh('npm', ['test'], project);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^[#ℹ] fail 0$/m);
  }, 600_000);

  it('the server, with its handler written, installs as a command a client starts by name', async () => {
    const handler = path.join(project, 'src/handlers/tools/greet.ts');
    const stub = readFileSync(handler, 'utf8');
    const body =
      "export const handler: ToolHandlers['greet'] = async (input) => ({ greeting: `Hello, ${input.name}${input.excited ? '!' : '.'}` });\n";
    writeFileSync(
      handler,
      stub.replace(/import \{ NotImplementedError \}.*\n/, '').replace(/export const handler[\s\S]*$/, body),
    );
    const build = await sh('npm', ['run', 'build'], project);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const link = await sh('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '.'], project);
    expect(link.code, link.stdout + link.stderr).toBe(0);
    const client = new Client({ name: 'newcomer', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: NAME, env: userEnv(), cwd: root, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada', excited: true } });
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
  }, 300_000);

  it('npm run dev serves over HTTP and picks up a manifest edit at the same URL', async () => {
    dev = spawn('npm', ['run', 'dev', '--', '--port', '0'], { cwd: project, env: userEnv(), detached: true });
    dev.stdout!.setEncoding('utf8').on('data', (d: string) => (devOut += d));
    dev.stderr!.setEncoding('utf8').on('data', (d: string) => (devOut += d));
    const url = await served(1);
    expect(await toolsOver(url)).toEqual(['greet']);
    const manifest = readFileSync(path.join(project, 'mcpgen.yaml'), 'utf8');
    const edited = manifest.replace('\ntools:\n', '\ntools:\n  farewell:\n    description: Says goodbye\n');
    expect(edited).not.toBe(manifest);
    writeFileSync(path.join(project, 'mcpgen.yaml'), edited);
    const again = await served(2);
    expect(again.href).toBe(url.href);
    expect(await toolsOver(again)).toEqual(['farewell', 'greet']);
    expect(existsSync(path.join(project, 'src/handlers/tools/farewell.ts'))).toBe(true);
  }, 300_000);

  it('mcpgen pack builds a bundle the MCPB validator accepts and a valid server.json', async () => {
    const packed = await sh('mcpgen', ['pack', '--build', '--registry-name', `io.github.example/${NAME}`], project);
    expect(packed.code, packed.stdout + packed.stderr).toBe(0);
    const bundle = path.join(project, `${NAME}-0.1.0.mcpb`);
    const unpacked = path.join(root, 'unpacked');
    expect(await unpackExtension({ mcpbPath: bundle, outputDir: unpacked, silent: true })).toBe(true);
    expect(validateManifest(unpacked)).toBe(true);
    const m = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    expect(m).toMatchObject({ name: NAME, version: '0.1.0', description: 'A starter MCP server generated by mcpgen' });
    expect(m.tools.map((t: { name: string }) => t.name).sort()).toEqual(['farewell', 'greet']);
    const schema = JSON.parse(
      readFileSync(path.join(REPO, 'schemas/vendor/mcp-registry-server.2025-12-11.schema.json'), 'utf8'),
    );
    const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
    const serverJson = JSON.parse(readFileSync(path.join(project, 'server.json'), 'utf8'));
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
    expect(serverJson).toMatchObject({
      name: `io.github.example/${NAME}`,
      version: '0.1.0',
      packages: [
        { registryType: 'npm', identifier: NAME },
        { registryType: 'mcpb', identifier: expect.stringMatching(new RegExp(`/${NAME}-0\\.1\\.0\\.mcpb$`)) },
      ],
    });
    // The bundle's entry names its SHA-256, as the Registry checks it.
    const bundleSha = createHash('sha256')
      .update(readFileSync(path.join(project, `${NAME}-0.1.0.mcpb`)))
      .digest('hex');
    expect(serverJson.packages[1].fileSha256).toBe(bundleSha);
  }, 300_000);
});
