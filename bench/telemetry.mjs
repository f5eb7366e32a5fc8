// What OpenTelemetry costs a generated server per tools/call, in server CPU: the runtime before
// telemetry existed (`--before <rev>`, built from that revision's packages/runtime), the runtime
// now with telemetry off (no OTEL_* variables) twice — the second copy is the A/A noise control —
// and now with traces and metrics exported over OTLP http/protobuf to a receiver in this process
// that answers 200 and keeps nothing. Both runtimes are built into .tmp for the run. Each target is a stdio server driven by raw JSON-RPC lines,
// one call at a time; CPU is the server process's utime+stime from /proc across the measured calls.
// Targets are interleaved and rotated per round; the figure is the median over rounds.
//
//   node bench/telemetry.mjs [--before 93c1777] [--rounds 7] [--calls 10000]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median, procStats, table, timeProcess } from './lib.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const WORK = path.join(REPO, '.tmp/bench/telemetry');
const { values } = parseArgs({
  options: {
    before: { type: 'string', default: '93c1777' },
    rounds: { type: 'string', default: '7' },
    calls: { type: 'string', default: '10000' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const WARMUP = 1000;

const MANIFEST = `version: 1
server: { name: bench-telemetry, version: 1.0.0 }
transports: { stdio: {} }
tools:
  echo:
    description: Echo the text back
    input: { type: object, properties: { text: { type: string, description: Text } }, required: [text] }
`;

/** The project, built against the runtime of the working tree. */
async function buildProject() {
  const dir = path.join(WORK, 'now');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'src/handlers/tools'), { recursive: true });
  writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
  writeFileSync(
    path.join(dir, 'src/handlers/tools/echo.ts'),
    "import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['echo'] = ({ text }) => text;\n",
  );
  await timeProcess(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), 'generate', '-q'], { cwd: dir });
  await timeProcess(path.join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
  return dir;
}

/**
 * A copy of the project whose node_modules/@mcpgen/runtime is the runtime built from `rev` (a
 * revision, or `worktree` for the working tree's packages/runtime): the generated code and
 * handler are the same files, only the library under them differs, and each build is its own, so
 * a rebuild of packages/runtime/dist during the run changes nothing.
 */
async function projectOnRuntime(project, rev) {
  const runtime = path.join(WORK, `runtime-${rev}`);
  mkdirSync(runtime, { recursive: true });
  const pkg = path.join(runtime, 'packages/runtime');
  if (rev === 'worktree') {
    for (const part of ['src', 'package.json', 'tsconfig.json'])
      cpSync(path.join(REPO, 'packages/runtime', part), path.join(pkg, part), { recursive: true });
  } else execFileSync('sh', ['-c', `git -C "${REPO}" archive ${rev} packages/runtime | tar -x -C "${runtime}"`]);
  await timeProcess(path.join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: pkg });
  const dir = path.join(WORK, rev);
  cpSync(project, dir, { recursive: true });
  mkdirSync(path.join(dir, 'node_modules/@mcpgen'), { recursive: true });
  symlinkSync(pkg, path.join(dir, 'node_modules/@mcpgen/runtime'));
  return dir;
}

/** An OTLP/HTTP receiver that accepts everything and keeps nothing. */
async function sink() {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, requests: () => requests, close: () => server.close() };
}

/** Starts a stdio server, initializes it, and returns a function making one call at a time. */
async function start(dir, env) {
  const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buffer = '';
  const waiting = new Map();
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
      nl = buffer.indexOf('\n');
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1.0.0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const calls = async (n) => {
    for (let i = 0; i < n; i++) {
      const answer = await request('tools/call', { name: 'echo', arguments: { text: `call ${i}` } });
      if (answer.error) throw new Error(JSON.stringify(answer.error));
    }
  };
  return {
    calls,
    cpuMs: () => procStats(child.pid).cpuMs,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

const project = await buildProject();
const before = await projectOnRuntime(project, values.before);
const now = await projectOnRuntime(project, 'worktree');
const receiver = await sink();
const OTEL = {
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
};
const targets = [
  { name: `before (runtime at ${values.before})`, dir: before, env: {} },
  { name: 'now, telemetry off', dir: now, env: {} },
  { name: 'now, telemetry off (A/A copy)', dir: now, env: {} },
  { name: 'now, traces and metrics on (OTLP http/protobuf)', dir: now, env: OTEL },
];
const perCall = targets.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < targets.length; k++) {
    const i = (k + round) % targets.length;
    const server = await start(targets[i].dir, targets[i].env);
    await server.calls(WARMUP);
    const cpu = server.cpuMs();
    await server.calls(CALLS);
    perCall[i].push(((server.cpuMs() - cpu) * 1000) / CALLS);
    await server.stop();
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}
receiver.close();
const base = median(perCall[0]);
const rows = targets.map((t, i) => {
  const m = median(perCall[i]);
  const spread = `${Math.min(...perCall[i]).toFixed(1)}–${Math.max(...perCall[i]).toFixed(1)}`;
  return [t.name, `${m.toFixed(1)} (${spread})`, `${((m / base - 1) * 100).toFixed(1)} %`];
});
console.log(
  `Server CPU per tools/call over stdio, 2025-11-25, one call at a time; ${CALLS} calls per round after ${WARMUP} warm-up calls, median (min–max) of ${ROUNDS} interleaved rounds; OTLP exports received: ${receiver.requests()}\n`,
);
console.log(table(['Target', 'CPU µs per call', 'vs before'], rows));
