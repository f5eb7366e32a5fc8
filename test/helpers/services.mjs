/**
 * Real components for scale-out tests: Debian's redis-server and haproxy (installed with apt-get
 * when missing), replicas of a generated HTTP server, and a round-robin balancer in front of them.
 * Everything listens on 127.0.0.1 on free ports; every wait is bounded; only processes started
 * here are stopped, by their own PID. Call `stopAll()` in afterAll.
 * Plain JavaScript (types in services.ts), so the benchmarks run it with Node alone.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const SEARCH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The absolute path of `name` on PATH or in the usual system folders, or undefined. */
export function which(name) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Debian package that provides each command the harness runs. */
const PACKAGE_OF = { 'redis-server': 'redis-server', haproxy: 'haproxy' };

/**
 * Makes sure each command exists, installing the missing ones with one `apt-get update` and one
 * `apt-get install -y` (through sudo when not root). Throws a message naming what is missing.
 */
export function ensurePackages(commands) {
  const missing = commands.filter((c) => !which(c));
  if (missing.length > 0) {
    const packages = missing.map((c) => PACKAGE_OF[c] ?? c);
    const root = process.getuid?.() === 0;
    const sudo = !root && which('sudo') ? ['sudo', '-n'] : [];
    if (!root && sudo.length === 0) {
      throw new Error(
        `${missing.join(', ')} not found, and installing them needs root (run: apt-get install -y ${packages.join(' ')})`,
      );
    }
    if (!which('apt-get'))
      throw new Error(`${missing.join(', ')} not found and apt-get is not available: install ${packages.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', '--no-install-recommends', ...packages],
    ]) {
      const cmd = [...sudo, ...args];
      const r = spawnSync(cmd[0], cmd.slice(1), { env, encoding: 'utf8', timeout: 600_000 });
      if (r.status !== 0) {
        throw new Error(
          `could not install ${packages.join(' ')}: \`${cmd.join(' ')}\` ${r.error ? `failed (${r.error.message})` : `exited ${r.status}`}\n${(r.stderr ?? '').slice(-1500)}`,
        );
      }
    }
  }
  const found = {};
  for (const c of commands) {
    const file = which(c);
    if (!file) throw new Error(`${c} is still not found after installing ${PACKAGE_OF[c] ?? c}`);
    found[c] = file;
  }
  return found;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it returns true, or throws `what` after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 10_000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      if (await probe()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${last.message})` : ''}`);
    await sleep(everyMs);
  }
}

// ---- processes ---------------------------------------------------------------------------------

const started = new Set();
const cleanups = new Set();

function track(child) {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/** Sends `signal` to one child this module started and waits (bounded) for it to exit. */
function ended(child, signal, timeoutMs = 10_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Kills every process started here that is still running (SIGKILL), and removes temp folders. */
export async function stopAll() {
  await Promise.all([...started].map((child) => ended(child, 'SIGKILL', 5_000)));
  for (const cleanup of cleanups) cleanup();
  cleanups.clear();
}

function tail(text) {
  return text.length > 2000 ? `…${text.slice(-2000)}` : text;
}

// ---- Redis -------------------------------------------------------------------------------------

/** Sends one inline command to Redis on `port`; resolves with the first reply line. */
export function redisCommand(port, command, timeoutMs = 1_000) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on ${port}: no reply to ${command} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (d) => {
      reply += d;
      const nl = reply.indexOf('\r\n');
      if (nl >= 0) {
        clearTimeout(timer);
        socket.destroy();
        resolve(reply.slice(0, nl));
      }
    });
  });
}

/**
 * Starts redis-server on a free 127.0.0.1 port; resolves once it answers PING. Without persistence
 * unless `options.appendonly`: then an append-only file (fsync always) in a temp folder, so a
 * restart keeps the data.
 */
export async function startRedis(options = {}) {
  const bin = ensurePackages(['redis-server'])['redis-server'];
  const port = await freePort();
  let persistence = ['--save', '', '--appendonly', 'no'];
  if (options.appendonly) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-redis-'));
    cleanups.add(() => rmSync(dir, { recursive: true, force: true }));
    persistence = ['--save', '', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always'];
  }
  let child;
  let output = '';
  const ping = () =>
    redisCommand(port, 'PING', 500).then(
      (r) => r === '+PONG',
      () => false,
    );
  const launch = async () => {
    output = '';
    child = track(
      spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', ...persistence, '--daemonize', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const current = child;
    await waitFor(`redis-server on 127.0.0.1:${port} answering PING`, () => {
      if (current.exitCode !== null) throw new Error(`redis-server exited ${current.exitCode}:\n${tail(output)}`);
      return ping();
    });
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid;
    },
    stop: () => ended(child, 'SIGTERM'),
    kill: () => ended(child, 'SIGKILL'),
    async restart() {
      await ended(child, 'SIGTERM');
      await launch();
    },
    ping,
  };
}

// ---- replicas of a generated server ------------------------------------------------------------

/** A 32-byte request-state key for tests (every replica must sign with the same one). */
export const TEST_REQUEST_STATE_KEY = 'scale-out-test-key-0123456789abcdef012345';

/** Starts `node dist/src/main.js --http --port <port>` in `projectDir`; resolves once it prints its URL. */
export async function startReplica(projectDir, env = {}, port = 0) {
  const entry = path.join(projectDir, 'dist/src/main.js');
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: build the project first (mcpgen build)`);
  let child;
  let stderr = '';
  let url;
  const launch = async (onPort) => {
    stderr = '';
    child = track(
      spawn(process.execPath, [entry, '--http', '--port', String(onPort)], {
        cwd: projectDir,
        env: { ...process.env, NODE_OPTIONS: '', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    const current = child;
    url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`replica did not print its URL within 15 s:\n${tail(stderr)}`)),
        15_000,
      );
      current.stderr.on('data', (d) => {
        stderr += d;
        const m = /MCP over Streamable HTTP at (\S+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(new URL(m[1]));
        }
      });
      current.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`replica exited (${code ?? signal}) before listening:\n${tail(stderr)}`));
      });
    });
  };
  await launch(port);
  const fixedPort = Number(url.port);
  return {
    get url() {
      return url;
    },
    port: fixedPort,
    get pid() {
      return child.pid;
    },
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    stderr: () => stderr,
    stop: () => ended(child, 'SIGTERM'),
    kill: () => ended(child, 'SIGKILL'),
    async restart() {
      await ended(child, 'SIGTERM');
      await launch(fixedPort);
    },
  };
}

/** Starts `n` replicas of the built project in `projectDir`, each on its own port, with `env`. */
export async function startReplicas(projectDir, n, env = {}) {
  const replicas = [];
  // One after another: on two cores parallel starts only slow each other down.
  for (let i = 0; i < n; i++) replicas.push(await startReplica(projectDir, env));
  return replicas;
}

// ---- haproxy -----------------------------------------------------------------------------------

function haproxyConfig(port, socket, backends, o) {
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${socket} mode 600 level admin`,
    '',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    // SSE streams (2025 sessions, subscriptions/listen) stay open for long stretches.
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '  timeout http-request 30s',
    // A request that reached a replica killed before the check noticed goes to another one.
    '  retries 2',
    '  retry-on conn-failure empty-response',
    '  option redispatch 1',
    '',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    '',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /health',
    '  http-check expect status 200',
    `  default-server check inter ${o.checkIntervalMs} fastinter ${o.checkIntervalMs} downinter ${o.checkIntervalMs} fall ${o.fall} rise ${o.rise}`,
    ...backends.map((p, i) => `  server r${i} 127.0.0.1:${p}`),
    '',
  ].join('\n');
}

/** Sends one command to haproxy's stats socket; resolves with the whole answer. */
function haproxyCommand(socket, command, timeoutMs = 2_000) {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    let out = '';
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`haproxy stats socket: no answer to "${command}" within ${timeoutMs} ms`));
    }, timeoutMs);
    conn.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    conn.on('connect', () => conn.write(`${command}\n`));
    conn.on('data', (d) => (out += d));
    conn.on('end', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

/**
 * Starts haproxy in the foreground on a free 127.0.0.1 port: round robin over `backendPorts`, no
 * stickiness, health checks on GET /health, retries of a request whose server is gone.
 */
export async function startBalancer(backendPorts, options = {}) {
  const bin = ensurePackages(['haproxy']).haproxy;
  const o = { checkIntervalMs: 500, fall: 2, rise: 1, ...options };
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-haproxy-'));
  cleanups.add(() => rmSync(dir, { recursive: true, force: true }));
  const socket = path.join(dir, 'stats.sock');
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, socket, backendPorts, o));
  try {
    execFileSync(bin, ['-c', '-q', '-f', config], { stdio: 'pipe', timeout: 10_000 });
  } catch (error) {
    const e = error;
    throw new Error(`haproxy rejected the generated config ${config}: ${e.stderr?.toString() || e.message}`);
  }
  let output = '';
  const child = track(spawn(bin, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] }));
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));

  const stats = async () => {
    const csv = await haproxyCommand(socket, 'show stat');
    const [header, ...lines] = csv.replace(/^# /, '').trim().split('\n');
    const cols = header.split(',');
    const at = (row, name) => row[cols.indexOf(name)] ?? '';
    return lines
      .map((l) => l.split(','))
      .filter((row) => at(row, 'pxname') === 'replicas' && /^r\d+$/.test(at(row, 'svname')))
      .map((row) => {
        const name = at(row, 'svname');
        return {
          name,
          port: backendPorts[Number(name.slice(1))],
          status: at(row, 'status'),
          requests: Number(at(row, 'req_tot') || at(row, 'stot')),
        };
      });
  };
  await waitFor('haproxy listening with its stats socket', async () => {
    if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}:\n${tail(output)}`);
    return (await stats()).length === backendPorts.length;
  });
  const balancer = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stats,
    async waitUp(up = backendPorts.length, timeoutMs = 10_000) {
      // "UP 1/2" and "DOWN 1/2" are transitions (a check failed or passed, not yet `fall`/`rise` times).
      await waitFor(
        `haproxy seeing ${up} backend(s) UP and the rest DOWN`,
        async () => {
          const all = await stats();
          return all.every((s) => !s.status.includes('/')) && all.filter((s) => s.status === 'UP').length === up;
        },
        timeoutMs,
      );
    },
    stop: () => ended(child, 'SIGTERM'),
  };
  await balancer.waitUp();
  return balancer;
}

// ---- building a generated project --------------------------------------------------------------

/**
 * Copies an example (without dist/node_modules) to a scratch folder inside the repository, so the
 * generated code resolves its packages from the repository's node_modules, and compiles it.
 */
export function buildExampleCopy(repo, example, into) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(path.dirname(into), { recursive: true });
  const from = path.join(repo, 'examples', example);
  cpSync(from, into, {
    recursive: true,
    filter: (src) =>
      !path
        .relative(from, src)
        .split(path.sep)
        .some((seg) => ['dist', 'node_modules'].includes(seg)),
  });
  // As its `npm run build`: tsc, then the server bundled (what the replicas run).
  const r = spawnSync(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'build'], {
    cwd: into,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0)
    throw new Error(`mcpgen build in ${into} exited ${r.status ?? r.error?.message}:\n${tail(r.stdout + r.stderr)}`);
  return into;
}
