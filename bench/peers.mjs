// The generated server against its TypeScript peers: the same interface (one `echo` tool, one
// resource) hand-written on the SDK v2 (bench/baselines/handwritten-server.mjs), on the SDK v1
// (sdk-v1-server.mjs: what most TypeScript MCP servers run today) and with FastMCP
// (fastmcp-server.mjs), measured as bench/floor.mjs measures, on what they all speak: the 2025
// revisions. Targets rotated each round, ratios paired per round.
//   node bench/peers.mjs [--rounds 5] [--calls 1500] [--build] [--node path/to/node]
// Each round, per target: stdio cold start (spawn → initialize → tools/list answered) and CPU per
// call after a warm-up; HTTP cold start (spawn → listening → initialize answered) and CPU per call
// in a 2025-11-25 session; peak RSS.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuPerCall, legacySession, spawnHttp, stdioRun } from './floor.mjs';
import { median, procStats, table } from './lib.mjs';
import { buildGenerated } from './servers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARM = { stdio: 3000, http: 1000 };

/** HTTP: spawn, initialize (cold start), then CPU per call in the session. */
async function httpSessionRun(node, script, n) {
  const t0 = performance.now();
  const { child, agent, url, stop } = await spawnHttp(node, script);
  try {
    const session = await legacySession(agent, url, script);
    const cold = session.answeredAt - t0;
    const cpu = await cpuPerCall(child, session.echo, WARM.http, n, `${script}: call`);
    return { cold, cpu, rss: procStats(child.pid).peakRssMiB };
  } finally {
    await stop();
  }
}

const MEASURES = [
  ['stdioCold', 'stdio cold start', 'ms'],
  ['stdioCpu', 'stdio CPU/call', 'µs'],
  ['httpCold', 'HTTP cold start (to initialize)', 'ms'],
  ['httpCpu', 'HTTP 2025 session CPU/call', 'µs'],
  ['stdioRss', 'stdio peak RSS', 'MiB'],
  ['httpRss', 'HTTP peak RSS', 'MiB'],
];

export function peerTargets(generated) {
  const base = (name) => path.join(repo, 'bench/baselines', name);
  return {
    mcpgen: generated,
    'SDK v2 hand-written': base('handwritten-server.mjs'),
    'SDK v1 hand-written': base('sdk-v1-server.mjs'),
    FastMCP: base('fastmcp-server.mjs'),
  };
}

/** Every target in every round, rotated; a Markdown table of medians and of mcpgen ÷ each peer. */
export async function peersBench({ targets, rounds, calls, node = process.execPath, log = () => {} }) {
  const results = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const entries = Object.entries(targets);
  const t0 = Date.now();
  for (let r = 0; r < rounds; r++) {
    const k = r % entries.length;
    for (const [name, script] of [...entries.slice(k), ...entries.slice(0, k)]) {
      const s = await stdioRun(node, script, calls * 2, WARM);
      const h = await httpSessionRun(node, script, calls);
      results[name].push({
        stdioCold: s.cold,
        stdioCpu: s.cpu * 1000,
        stdioRss: s.rss,
        httpCold: h.cold,
        httpCpu: h.cpu * 1000,
        httpRss: h.rss,
      });
    }
    log(`peers: round ${r + 1}/${rounds} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const [self, ...peers] = Object.keys(targets);
  const paired = (b, key) => {
    const rs = results[self].map((x, i) => x[key] / results[b][i][key]);
    return `${median(rs).toFixed(2)}× (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`;
  };
  const rows = MEASURES.map(([key, label, unit]) => [
    label,
    ...Object.keys(targets).map(
      (n) => `${median(results[n].map((x) => x[key])).toFixed(unit === 'MiB' ? 1 : 0)} ${unit}`,
    ),
    ...peers.map((p) => paired(p, key)),
  ]);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const md = [
    table(['measure', ...Object.keys(targets), ...peers.map((p) => `${self} ÷ ${p}`)], rows),
    '',
    `${rounds} rounds, ${calls} calls over HTTP and ${calls * 2} over stdio after ${WARM.http} / ${WARM.stdio} warm-up calls; Node ${version}; medians, and ratios paired per round (median (min–max)); below 1.00× mcpgen is faster or smaller; one-minute load average at the end ${loadavg()[0].toFixed(1)} on ${cpus().length} cores.`,
  ].join('\n');
  return { results, md };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      calls: { type: 'string', default: '1500' },
      build: { type: 'boolean', default: false },
      node: { type: 'string' },
    },
  });
  const generated = values.build
    ? (await buildGenerated(repo, 1)).a
    : path.join(repo, '.tmp/bench/servers/gen-1/dist/src/main.js');
  const { md } = await peersBench({
    targets: peerTargets(generated),
    rounds: Number(values.rounds),
    calls: Number(values.calls),
    node: values.node ? path.resolve(values.node) : process.execPath,
    log: (s) => console.error(s),
  });
  console.log(md);
}
