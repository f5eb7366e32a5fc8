// Scale-out: replicas of examples/conformance sharing one redis-server, behind haproxy round robin
// (test/helpers/services.mjs, the launchers of the scale-out tests). A closed-loop load generator
// in this process — `clients` connections, each sending its next request when the last one is
// answered, for a fixed time — measures calls/s, p50/p99 and the CPU the servers spent per call:
// (a) through haproxy, 1 vs 3 replicas in Redis mode; (b) one replica directly, Redis mode vs
// memory mode; for 2026-07-28 stateless calls and for 2025 sessions (initialize once per client,
// then tools/call with Mcp-Session-Id). Run alone (`node bench/scale.mjs [--quick]`) it replaces
// the Scale-out section of bench/RESULTS.md and keeps the rest.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, procStats, quantile, table } from './lib.mjs';
import {
  buildExampleCopy,
  ensurePackages,
  startBalancer,
  startRedis,
  startReplica,
  stopAll,
  TEST_REQUEST_STATE_KEY,
} from '../test/helpers/services.mjs';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const EXPECTED = 'This is a simple text response for testing.';
const CALL = { name: 'test_simple_text', arguments: {} };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'mcpgen-bench-scale', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One POST over a keep-alive agent; resolves with status, headers and the whole body. */
function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A client of one era: `open()` once (a 2025 session: initialize + initialized), then `call(i)`. */
function client(url, era) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let session;
  return {
    async open() {
      if (era !== LEGACY) return;
      const init = await post(
        agent,
        url,
        {},
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: LEGACY,
            capabilities: {},
            clientInfo: { name: 'mcpgen-bench-scale', version: '1.0.0' },
          },
        },
      );
      session = init.headers['mcp-session-id'];
      if (init.status !== 200 || !session)
        throw new Error(`initialize at ${url}: ${init.status} ${init.text.slice(0, 200)}`);
      const ack = await post(
        agent,
        url,
        { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      );
      if (ack.status !== 202)
        throw new Error(`notifications/initialized at ${url}: ${ack.status} ${ack.text.slice(0, 200)}`);
    },
    async call(id) {
      const res =
        era === LEGACY
          ? await post(
              agent,
              url,
              { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
              { jsonrpc: '2.0', id, method: 'tools/call', params: CALL },
            )
          : await post(
              agent,
              url,
              { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': CALL.name },
              { jsonrpc: '2.0', id, method: 'tools/call', params: { ...CALL, _meta: ENVELOPE } },
            );
      if (res.status !== 200 || !res.text.includes(EXPECTED))
        throw new Error(`tools/call at ${url}: ${res.status} ${res.text.slice(0, 200)}`);
    },
    close: () => agent.destroy(),
  };
}

/**
 * `clients` closed loops for `ms` (after `warmMs` of the same, not counted); the CPU of `pids`
 * (replicas, haproxy, redis) over the measured part, per call.
 */
async function load({ url, era, clients, ms, warmMs, pids }) {
  const loops = Array.from({ length: clients }, () => client(url, era));
  let firstError;
  const errors = { n: 0 };
  try {
    await Promise.all(loops.map((c) => c.open()));
  } catch (error) {
    loops.forEach((c) => c.close());
    return { failed: error.message };
  }
  let id = 1;
  const run = async (untilMs, lat) => {
    await Promise.all(
      loops.map(async (c) => {
        while (performance.now() < untilMs) {
          const t0 = performance.now();
          try {
            await c.call(id++);
            lat?.push(performance.now() - t0);
          } catch (error) {
            errors.n++;
            firstError ??= error.message;
          }
        }
      }),
    );
  };
  await run(performance.now() + warmMs);
  errors.n = 0;
  const cpu0 = pids.map((p) => procStats(p).cpuMs);
  const lat = [];
  const t0 = performance.now();
  await run(t0 + ms, lat);
  const sec = (performance.now() - t0) / 1000;
  const cpu = pids.reduce((sum, p, i) => sum + (procStats(p).cpuMs - cpu0[i]), 0);
  loops.forEach((c) => c.close());
  return {
    callsPerSec: lat.length / sec,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
    cpuPerCall: cpu / Math.max(1, lat.length),
    errors: errors.n,
    firstError,
  };
}

/** Builds the example, starts Redis, four replicas (three on Redis, one in memory) and two balancers; runs every case. */
export async function scaleBench({ repo, quick = false, log = () => {} }) {
  const bins = ensurePackages(['redis-server', 'haproxy']);
  const versions = versionsOf(bins);
  const ms = quick ? 1_000 : 6_000;
  const warmMs = quick ? 300 : 2_000;
  const rounds = quick ? 1 : 5;
  const clients = 16;
  const project = path.join(repo, '.tmp/bench/scale/server');
  log('scale-out: building examples/conformance');
  buildExampleCopy(repo, 'conformance', project);
  try {
    const redis = await startRedis();
    const withRedis = { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY };
    const inMemory = { REDIS_URL: '', MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY };
    const shared = [];
    for (let i = 0; i < 3; i++) shared.push(await startReplica(project, withRedis));
    const alone = await startReplica(project, inMemory);
    const lb1 = await startBalancer([shared[0].port]);
    const lb3 = await startBalancer(shared.map((r) => r.port));
    const mcp = (base) => `${base}/mcp`;
    const cases = [
      {
        id: 'lb1',
        era: MODERN,
        label: '2026-07-28 through haproxy, 1 replica (Redis)',
        url: mcp(lb1.url),
        pids: [lb1.pid, shared[0].pid, redis.pid],
      },
      {
        id: 'lb3',
        era: MODERN,
        label: '2026-07-28 through haproxy, 3 replicas (Redis)',
        url: mcp(lb3.url),
        pids: [lb3.pid, ...shared.map((r) => r.pid), redis.pid],
      },
      {
        id: 'mem',
        era: MODERN,
        label: '2026-07-28, 1 replica directly, memory mode',
        url: alone.url.href,
        pids: [alone.pid],
      },
      {
        id: 'red',
        era: MODERN,
        label: '2026-07-28, 1 replica directly, Redis mode',
        url: shared[0].url.href,
        pids: [shared[0].pid, redis.pid],
      },
      {
        id: 'smem',
        era: LEGACY,
        label: '2025 session, 1 replica directly, memory mode',
        url: alone.url.href,
        pids: [alone.pid],
      },
      {
        id: 'sred',
        era: LEGACY,
        label: '2025 session, 1 replica directly, Redis mode',
        url: shared[0].url.href,
        pids: [shared[0].pid, redis.pid],
      },
      {
        id: 'slb1',
        era: LEGACY,
        label: '2025 session through haproxy, 1 replica (Redis)',
        url: mcp(lb1.url),
        pids: [lb1.pid, shared[0].pid, redis.pid],
      },
      {
        id: 'slb3',
        era: LEGACY,
        label: '2025 session through haproxy, 3 replicas (Redis)',
        url: mcp(lb3.url),
        pids: [lb3.pid, ...shared.map((r) => r.pid), redis.pid],
      },
    ];
    const results = Object.fromEntries(cases.map((c) => [c.id, []]));
    for (let round = 0; round < rounds; round++) {
      // Each round starts one case further along, so no case always runs first.
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + round) % cases.length];
        log(`scale-out round ${round + 1}/${rounds}: ${c.label}`);
        results[c.id].push(await load({ url: c.url, era: c.era, clients, ms, warmMs, pids: c.pids }));
      }
    }
    const spread = await lb3.stats();
    return { md: report(cases, results, { clients, ms, rounds, spread, quick, versions }), results };
  } finally {
    await stopAll();
  }
}

/** "redis-server 7.0.15, haproxy 2.6.12" from the binaries themselves. */
function versionsOf(bins) {
  const v = (bin, args, re) => re.exec(execFileSync(bin, args, { encoding: 'utf8', timeout: 5_000 }))?.[1] ?? '?';
  return `redis-server ${v(bins['redis-server'], ['--version'], /v=(\S+)/)}, haproxy ${v(bins.haproxy, ['-v'], /version (\S+)/)}`;
}

function summarize(runs) {
  const failed = runs.find((r) => r.failed);
  if (failed) return { failed: failed.failed };
  const ok = runs.filter((r) => !r.failed);
  return {
    callsPerSec: median(ok.map((r) => r.callsPerSec)),
    p50: median(ok.map((r) => r.p50)),
    p99: median(ok.map((r) => r.p99)),
    cpuPerCall: median(ok.map((r) => r.cpuPerCall)),
    errors: ok.reduce((n, r) => n + r.errors, 0),
    firstError: ok.find((r) => r.firstError)?.firstError,
  };
}

function report(cases, results, { clients, ms, rounds, spread, quick, versions }) {
  const s = Object.fromEntries(cases.map((c) => [c.id, summarize(results[c.id])]));
  const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  const rows = cases.map((c) => {
    const r = s[c.id];
    if (r.failed) return [c.label, 'failed', '', '', '', r.failed.slice(0, 120)];
    return [
      c.label,
      f(r.callsPerSec),
      f(r.p50, 1),
      f(r.p99, 1),
      f(r.cpuPerCall, 3),
      r.errors ? `${r.errors} (${(r.firstError ?? '').slice(0, 100)})` : '0',
    ];
  });
  // Per round (both cases ran in the same round), then the median and range over the rounds.
  const ratio = (a, b, key = 'callsPerSec') => {
    if (s[a].failed || s[b].failed) return 'n/a';
    const per = results[a].map((r, i) => r[key] / results[b][i][key]).filter(Number.isFinite);
    const x = (v) => `${v.toFixed(2)}×`;
    return per.length > 1 ? `${x(median(per))} (${x(Math.min(...per))}–${x(Math.max(...per))})` : x(per[0]);
  };
  const cores = os.cpus().length;
  return [
    '### Scale-out: replicas on Redis behind haproxy',
    '',
    `examples/conformance, \`test_simple_text\` by raw JSON-RPC POSTs from ${clients} closed-loop clients (keep-alive, one connection each) in the benchmark's process, ${ms / 1000} s per case after a warm-up, median of ${rounds} round(s) with the case order rotated; ${versions} (haproxy: round robin, no stickiness, health checks on /health) on 127.0.0.1. 2026-07-28 calls carry the \`_meta\` envelope and the Mcp-Method/Mcp-Name headers; a 2025 client opens its session (initialize, notifications/initialized) before the clock starts and then calls with its Mcp-Session-Id. A case whose sessions cannot be opened shows the first error. Server CPU is the CPU time of the replicas, haproxy and redis-server of each case over the measured part, per call.`,
    `**This machine has ${cores} cores**: the replicas, haproxy, redis-server and the load generator all share them, so 3 replicas cannot show 3× the calls/s of one here; the 1 → 3 ratio shows what round robin over shared cores costs or gains, not how far replicas on their own machines would scale.${quick ? ' (--quick: 1 s per case, one round — not for comparison.)' : ''}`,
    '',
    table(['case', 'calls/s', 'p50 ms', 'p99 ms', 'server CPU ms/call', 'errors'], rows),
    '',
    table(
      ['ratio, per round (median (min–max))', 'calls/s', 'p99', 'server CPU/call'],
      [
        [
          '3 replicas / 1 replica through haproxy, 2026-07-28',
          ratio('lb3', 'lb1'),
          ratio('lb3', 'lb1', 'p99'),
          ratio('lb3', 'lb1', 'cpuPerCall'),
        ],
        [
          'Redis mode / memory mode, 1 replica, 2026-07-28',
          ratio('red', 'mem'),
          ratio('red', 'mem', 'p99'),
          ratio('red', 'mem', 'cpuPerCall'),
        ],
        [
          'Redis mode / memory mode, 1 replica, 2025 session',
          ratio('sred', 'smem'),
          ratio('sred', 'smem', 'p99'),
          ratio('sred', 'smem', 'cpuPerCall'),
        ],
        [
          '3 replicas / 1 replica through haproxy, 2025 session',
          ratio('slb3', 'slb1'),
          ratio('slb3', 'slb1', 'p99'),
          ratio('slb3', 'slb1', 'cpuPerCall'),
        ],
      ],
    ),
    '',
    `Requests per replica behind the 3-replica balancer over the whole run (haproxy's counters): ${spread.map((b) => `${b.name} ${b.requests}`).join(', ')}.`,
  ].join('\n');
}

const START = '<!-- scale-out -->';
const END = '<!-- /scale-out -->';

/** The section between its markers, for bench/RESULTS.md. */
export const scaleSection = (md) => `${START}\n${md}\n${END}`;

/** Replaces (or appends) the Scale-out section of `file`, keeping everything else. */
export function writeScaleSection(file, md) {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const a = old.indexOf(START);
  const b = old.indexOf(END);
  const next =
    a >= 0 && b > a
      ? `${old.slice(0, a)}${scaleSection(md)}${old.slice(b + END.length)}`
      : `${old.trimEnd()}\n\n${scaleSection(md)}\n`;
  writeFileSync(file, next);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const quick = process.argv.includes('--quick');
  const log = (s) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
  const { md } = await scaleBench({ repo, quick, log });
  console.log(md);
  if (!quick) {
    writeScaleSection(path.join(repo, 'bench/RESULTS.md'), md);
    log('wrote the Scale-out section of bench/RESULTS.md');
  }
}
