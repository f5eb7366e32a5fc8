/**
 * Helpers for end-to-end tests: scratch projects inside the repository (so generated code resolves
 * @modelcontextprotocol/* from the repository's node_modules), real processes, real clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';
import type { CliIO } from '../../cli/io.js';
import { runCli } from '../../cli/main.js';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const TSC = path.join(REPO, 'node_modules/.bin/tsc');
export const SCRATCH = path.join(REPO, '.tmp/e2e');

/**
 * What the project's `npm run build` does (`mcpgen build`): tsc, then the server bundled by
 * esbuild over dist/src/main.js, so servers the tests start run the bundle a user ships.
 */
export async function buildServer(dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIO(dir);
  const code = await runCli(['build'], io);
  // What tsc and esbuild said: mcpgen build's own summary (what it built) left out.
  const stdout = io.out.replace(/^(✔ built | {2}view ).*\n/gm, '');
  // Nor the progress lines a step over a second prints (a loaded machine makes tsc one).
  const stderr = io.err.replace(/^… .*\n/gm, '');
  return { code, stdout, stderr };
}

/** A fresh scratch folder under .tmp/e2e, optionally seeded with a copy of `from` (no dist/node_modules). */
export function scratch(name: string, from?: string): string {
  const dir = path.join(SCRATCH, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (from) {
    cpSync(from, dir, {
      recursive: true,
      filter: (src) =>
        !path
          .relative(from, src)
          .split(path.sep)
          .some((seg) => ['dist', 'node_modules', 'expected'].includes(seg)),
    });
  }
  return dir;
}

/** An in-memory CliIO capturing output. */
export function memoryIO(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    cwd,
    out: '',
    err: '',
    isTTY: false,
    env: {},
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  };
  return io;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion with a hard timeout (kills only the process it started). */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 120_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...env, NODE_OPTIONS: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function connectStdio(projectDir: string, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'mcpgen-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(projectDir, 'dist/src/main.js')],
      stderr: 'pipe',
    }),
  );
  return client;
}

/**
 * Starts `node <script> --http --port 0` (script: dist/src/main.js, else a server script of the
 * test's own in the project) with `env` added, and waits (bounded: then killed) for the URL it prints.
 */
export async function startHttpServer(
  projectDir: string,
  env: NodeJS.ProcessEnv = {},
  opts: { script?: string } = {},
): Promise<{ url: URL; child: ChildProcess; stderr(): string; stop(): Promise<void> }> {
  const script = path.join(projectDir, opts.script ?? 'dist/src/main.js');
  // Without the test runner's NODE_OPTIONS: the server runs as a user's would.
  const child = spawn(process.execPath, [script, '--http', '--port', '0'], {
    cwd: projectDir,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not print its URL within 15 s:\n${stderr}`));
    }, 15_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code ?? signal}:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(url: URL, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'mcpgen-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/**
 * A scratch project generated from `manifest` (with `inputs`, the files it references, written
 * first), `files` (the user's handlers…) written over its stubs, compiled with tsc: its folder.
 */
export async function builtProject(
  name: string,
  manifest: string,
  files: Record<string, string> = {},
  inputs: Record<string, string> = {},
): Promise<string> {
  const dir = scratch(name);
  for (const [file, text] of Object.entries(inputs)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  const built = await buildServer(dir);
  expect(built.code, built.stdout + built.stderr).toBe(0);
  return dir;
}
