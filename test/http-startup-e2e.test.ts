/**
 * Starting a generated server over HTTP the way an operator does (`node dist/src/main.js --http`),
 * with settings that cannot work: each stops the start at once (or within a bounded wait) with one
 * line naming the setting and what to do, never a stack trace, a hang or a start that serves
 * nothing; `/health` says a replica's Redis is away, even when it hangs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject } from './helpers/project.js';
import {
  freePort,
  type RedisProcess,
  startRedis,
  stopAll,
  TEST_REQUEST_STATE_KEY,
  waitFor,
} from './helpers/services.js';

const MANIFEST = `version: 1
server: { name: startup, version: 0.1.0 }
transports:
  stdio: {}
  http: { auth: { bearer: { tokensEnv: STARTUP_TOKENS } } }
tools:
  ping:
    description: Answers pong
`;
const HANDLERS = {
  'src/handlers/tools/ping.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['ping'] = async () => 'pong';
`,
};
const TOKENS = { STARTUP_TOKENS: 'ci:tok-start-4711' };

let dir: string;
let redis: RedisProcess;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  dir = await builtProject('http-startup', MANIFEST, HANDLERS);
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await stopAll();
});

type Launch =
  | { exited: number | string; stdout: string; stderr: string; ms: number }
  | { url: URL; child: ChildProcess; stderr: () => string };

/** Starts the server; resolves when it prints its URL, when it exits, or after `boundMs` (then killed: a hang). */
function launch(env: NodeJS.ProcessEnv, args: string[] = [], boundMs = 15_000): Promise<Launch> {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js'), '--http', '--port', '0', ...args], {
    cwd: dir,
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: '', REDIS_URL: '', MCP_REQUEST_STATE_KEY: '', ...env },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ exited: `still running after ${boundMs} ms`, stdout, stderr, ms: Date.now() - started });
    }, boundMs);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ url: new URL(m[1]!), child, stderr: () => stderr });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ exited: code ?? String(signal), stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Starts the server expecting it to refuse: its exit code and its one line of stderr. */
async function refused(env: NodeJS.ProcessEnv, args: string[] = []) {
  const result = await launch({ ...TOKENS, ...env }, args);
  if ('url' in result) {
    result.child.kill('SIGKILL');
    throw new Error(`started at ${result.url} though it should not:\n${result.stderr()}`);
  }
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return { code: result.exited, lines: result.stderr.trimEnd().split('\n'), ms: result.ms };
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

describe('REDIS_URL', () => {
  const key = { MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY };

  it('no Redis at the URL: exits 1 after MCP_REDIS_START_TIMEOUT with one line, its password hidden', async () => {
    const port = await freePort();
    const { code, lines, ms } = await refused({
      ...key,
      REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`,
      MCP_REDIS_START_TIMEOUT: '1',
    });
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        expect.stringMatching(
          new RegExp(
            `^startup: REDIS_URL redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/?: no connection to Redis within 1 s \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); check that Redis runs there`,
          ),
        ),
      ],
    });
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(ms).toBeLessThan(8_000);
  });

  it.each([
    ['not-a-url', /^startup: REDIS_URL is not a URL: use redis:\/\//],
    ['http://127.0.0.1:16399', /^startup: REDIS_URL http:\/\/127\.0\.0\.1:16399\/ has the scheme http: use redis:\/\//],
    ['redis://127.0.0.1:6379/two', /^startup: REDIS_URL redis:\/\/127\.0\.0\.1:6379\/two names database "two"/],
  ])('%s: exits 1 at once naming REDIS_URL and the forms it takes', async (url, line) => {
    const { code, lines, ms } = await refused({ ...key, REDIS_URL: url });
    expect({ code, lines }).toEqual({ code: 1, lines: [expect.stringMatching(line)] });
    expect(ms).toBeLessThan(5_000);
  });

  it('a database index the Redis does not have: exits 1 naming it, instead of using database 0', async () => {
    const { code, lines } = await refused({ ...key, REDIS_URL: `${redis.url}/99` });
    expect({ code, lines }).toEqual({
      code: 1,
      lines: [
        expect.stringMatching(
          /^startup: REDIS_URL redis:\/\/127\.0\.0\.1:\d+\/99: Redis refused the connection \(ERR DB index is out of range\); the database index/,
        ),
      ],
    });
  });

  it('/health says degraded with the reason while Redis hangs or is down, ok once it answers', async () => {
    const started = await launch({ ...TOKENS, ...key, REDIS_URL: redis.url });
    if (!('url' in started)) throw new Error(`did not start: ${JSON.stringify(started)}`);
    const health = async () => {
      const res = await fetch(new URL('/health', started.url), { signal: AbortSignal.timeout(5_000) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', redis: 'up' } });
      process.kill(redis.pid, 'SIGSTOP');
      try {
        const t0 = Date.now();
        // Still in rotation (200): the outage is every replica's; the body says what is down.
        expect(await health()).toMatchObject({
          status: 200,
          body: { status: 'degraded', redis: 'down', reason: expect.stringContaining('PING') },
        });
        expect(Date.now() - t0).toBeLessThan(3_000);
      } finally {
        process.kill(redis.pid, 'SIGCONT');
      }
      await waitFor('health ok after SIGCONT', async () => (await health()).body.status === 'ok', 5_000);
      await redis.stop();
      try {
        await waitFor(
          'health degraded with Redis stopped',
          async () => (await health()).body.status === 'degraded',
          5_000,
        );
        expect((await health()).body).toMatchObject({ status: 'degraded', redis: 'down', reason: expect.any(String) });
      } finally {
        await redis.restart();
      }
      await waitFor('health ok after restart', async () => (await health()).body.status === 'ok', 8_000);
    } finally {
      await stopped(started.child);
    }
  });
});

/** Runs the server (stdio unless `args` say --http) expecting it to exit: its code and output. */
function exitOf(env: NodeJS.ProcessEnv, args: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js'), ...args], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('MCP_REQUEST_STATE_KEY', () => {
  it.each([
    [{}, 'stdio', []],
    [TOKENS, 'HTTP', ['--http', '--port', '0']],
  ])('shorter than 32 bytes: one line naming it, exit 1 (%#: %s)', async (env, _label, args) => {
    expect(await exitOf({ ...env, MCP_REQUEST_STATE_KEY: 'short-key' }, args)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'startup: MCP_REQUEST_STATE_KEY is 9 bytes long and must be at least 32 (it signs requestState): generate one with `openssl rand -base64 32`\n',
    });
  });
});

describe('numbers and levels in the environment', () => {
  it.each([
    ['MCP_DRAIN_MS', '10s', 'a whole number of milliseconds (0 or more), not "10s"'],
    ['MCP_SESSION_TTL', '1h', 'a number of seconds above 0, not "1h"'],
    ['MCP_REDIS_START_TIMEOUT', '0', 'a number of seconds above 0, not "0"'],
    ['MCP_MAX_TASKS', '0', 'a whole number above 0, not "0"'],
    ['MCP_MAX_TASK_RESULT_BYTES', '4MiB', 'a whole number above 0, not "4MiB"'],
    ['MCP_LOG_LEVEL', 'constructor', 'one of off, error, warn, info, debug, not "constructor"'],
  ])('%s=%s stops the start over HTTP with one line, whether or not the server uses it', async (name, value, says) => {
    const { code, lines } = await refused({ [name]: value });
    expect({ code, lines }).toEqual({ code: 1, lines: [`startup: ${name} must be ${says}`] });
  });

  it('a bad MCP_LOG_LEVEL stops a stdio server too, before it reads a message', async () => {
    expect(await exitOf({ MCP_LOG_LEVEL: 'loud' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'startup: MCP_LOG_LEVEL must be one of off, error, warn, info, debug, not "loud"\n',
    });
  });

  it('set as documented, they are taken', async () => {
    const started = await launch({ ...TOKENS, MCP_DRAIN_MS: '0', MCP_SESSION_TTL: '0.5', MCP_LOG_LEVEL: 'WARN' });
    if (!('url' in started)) throw new Error(`did not start: ${started.stderr}`);
    await stopped(started.child);
  });
});

describe('bearer tokens (STARTUP_TOKENS)', () => {
  it.each([
    [
      'alice:',
      /^startup: STARTUP_TOKENS entry 1 \(client alice\) has no token after its ':': list them as clientId:token,/,
    ],
    [
      'ci:tok-a,:sekret-b',
      /^startup: STARTUP_TOKENS entry 2 has no client ID before its ':': list them as clientId:token,/,
    ],
    [
      'alice:sekret-c,bob:sekret-c',
      /^startup: STARTUP_TOKENS entries 1 \(client alice\) and 2 \(client bob\) have the same token: give each client its own/,
    ],
    [' , ', /^startup: STARTUP_TOKENS lists no token \(it is " , "\): list them as clientId:token,/],
  ])('%j: refuses to start, naming the entry and the format, never the token', async (value, line) => {
    const { code, lines } = await refused({ STARTUP_TOKENS: value });
    expect({ code, lines }).toEqual({ code: 1, lines: [expect.stringMatching(line)] });
    expect(lines.join('\n')).not.toContain('sekret');
  });
});

describe('--host', () => {
  it.each([
    ['256.1.1.1', /^startup: --host "256\.1\.1\.1" is not an IPv4 address: four numbers from 0 to 255/],
    ['', /^startup: --host is empty: give an address of this machine/],
    ['bad_host!', /^startup: --host "bad_host!" is neither an IP address nor a host name/],
  ])('%j: one line naming --host, before any other output, exit 1', async (host, line) => {
    const { code, lines } = await refused({}, ['--host', host]);
    expect({ code, lines }).toEqual({ code: 1, lines: [expect.stringMatching(line)] });
  });

  it('0.0.0.0: says it listens on all interfaces, and announces a loopback URL that answers', async () => {
    const started = await launch(TOKENS, ['--host', '0.0.0.0']);
    if (!('url' in started)) throw new Error(`did not start: ${JSON.stringify(started)}`);
    try {
      expect(started.url.hostname).toBe('127.0.0.1');
      expect(started.stderr()).toMatch(/^startup: listening on all interfaces \(0\.0\.0\.0\), port \d+/m);
      const res = await fetch(new URL('/health', started.url));
      expect(res.status).toBe(200);
    } finally {
      await stopped(started.child);
    }
  });
});
