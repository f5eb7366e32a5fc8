// The generated server against the floor (bench/baselines/raw-server.mjs: the same interface as
// bare JSON-RPC, no SDK) and the hand-written SDK server, all in the same rounds, targets rotated
// each round, ratios paired per round (issue 38's targets). Raw clients (JSON-RPC lines on the
// pipe, node:http keep-alive POSTs), so what is timed is the server's share.
//   node bench/floor.mjs [--rounds 5] [--calls 1500] [--only stdio|http|cold] [--build] [--node path/to/node] [--target name=path/to/main.js ...]
// (`npm run bench` runs it after the server benchmarks; --build generates the one-tool server first;
// --node runs every target on another Node, e.g. .tools/node24/…/bin/node.) Beside the raw floor,
// `sdk` is the same floor with the SDK loaded (bench/baselines/sdk-loaded-server.mjs, bundled here).
// Each round, per target: stdio cold start (spawn → initialize → tools/list answered), HTTP cold
// start (spawn → listening → a 2026-07-28 tools/list answered), server CPU per call over HTTP
// (2026-07-28 stateless; a 2025-11-25 session) and over stdio after a warm-up, and peak RSS.
import { spawn, spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildGenerated } from './servers.mjs';
import { median, procStats, table } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Calls before CPU is counted: V8 optimizes the hot paths, and its compiler threads count as CPU too. */
const WARM = { stdio: 3000, http: 1000 };
const NO_WARM = { stdio: 0, http: 0 };

const env = { ...process.env, BENCH_TOOLS: '1' };
delete env.NODE_EXTRA_CA_CERTS;

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'mcpgen-bench-floor', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** stdio: spawn, initialize, then `n` echo calls one at a time; resolves what it measured. */
async function stdioRun(node, script, n, warm) {
  const t0 = performance.now();
  const child = spawn(node, [script], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  let waiting;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (waiting && line.includes(`"id":${waiting.id}`)) {
        const w = waiting;
        waiting = undefined;
        w.resolve(line);
      }
    }
  });
  const call = (id, method, params) =>
    new Promise((resolve) => {
      waiting = { id, resolve };
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    await call(1, 'initialize', {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'mcpgen-bench-floor', version: '1.0.0' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const list = await call(2, 'tools/list', {});
    const cold = performance.now() - t0;
    if (!list.includes('"tools":[')) throw new Error(`${script}: no tools/list: ${list.slice(0, 200)}`);
    let id = 3;
    for (let i = 0; i < warm.stdio; i++) await call(id++, 'tools/call', { name: 'echo', arguments: { text: 'warm' } });
    const cpu0 = procStats(child.pid).cpuMs;
    for (let i = 0; i < n; i++) await call(id++, 'tools/call', { name: 'echo', arguments: { text: `hello ${i}` } });
    const cpu = (procStats(child.pid).cpuMs - cpu0) / n;
    return { cold, cpu, rss: procStats(child.pid).peakRssMiB };
  } finally {
    await new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  }
}

/** One POST; resolves status, headers and the whole body. */
function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(data),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const modernCall = (agent, url, id, method, params, name) =>
  post(
    agent,
    url,
    { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) },
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } },
  );

/** Spawns `script --http --port 0` on `node`: the child, the URL it prints, a keep-alive agent, stop(). */
async function spawnHttp(node, script) {
  const child = spawn(node, [script, '--http', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const stop = async () => {
    agent.destroy();
    await new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  };
  try {
    const url = await new Promise((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no URL from ${script}: ${err}`)), 20_000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    return { child, agent, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Opens a 2025-11-25 session (initialize, then initialized): `echo(text)` calls the tool in it; `answeredAt`, when initialize was answered. */
async function legacySession(agent, url, script) {
  let id = 1_000_000;
  const init = await post(
    agent,
    url,
    {},
    {
      jsonrpc: '2.0',
      id: id++,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'mcpgen-bench-floor', version: '1' } },
    },
  );
  const answeredAt = performance.now();
  if (!init.text.includes('"protocolVersion"'))
    throw new Error(`${script}: initialize: ${init.status} ${init.text.slice(0, 300)}`);
  const session = init.headers['mcp-session-id'];
  const headers = { 'MCP-Protocol-Version': LEGACY, ...(session ? { 'Mcp-Session-Id': session } : {}) };
  await post(agent, url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  const echo = (text) =>
    post(agent, url, headers, {
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text } },
    });
  return { echo, answeredAt };
}

/** Server CPU per call (ms) of `n` calls of `echo`, after `warm` calls and a check of the answer. */
async function cpuPerCall(child, echo, warm, n, what) {
  for (let i = 0; i < warm; i++) await echo('warm');
  const check = await echo('check');
  if (!check.text.includes('check')) throw new Error(`${what}: ${check.status} ${check.text.slice(0, 300)}`);
  const cpu0 = procStats(child.pid).cpuMs;
  for (let i = 0; i < n; i++) await echo(`hello ${i}`);
  return (procStats(child.pid).cpuMs - cpu0) / n;
}

/** HTTP: spawn, a first 2026 tools/list (cold start), then CPU per call for each era. */
async function httpRun(node, script, n, warm, cold) {
  const t0 = performance.now();
  const { child, agent, url, stop } = await spawnHttp(node, script);
  try {
    const list = await modernCall(agent, url, 1, 'tools/list', {});
    const coldMs = performance.now() - t0;
    if (!list.text.includes('"tools":[')) throw new Error(`${script}: no tools/list: ${list.text.slice(0, 300)}`);
    if (cold) return { cold: coldMs, rss: procStats(child.pid).peakRssMiB };
    let id = 2;
    const echo = (text) => modernCall(agent, url, id++, 'tools/call', { name: 'echo', arguments: { text } }, 'echo');
    const modern = await cpuPerCall(child, echo, warm.http, n, `${script}: 2026 call`);
    const session = await legacySession(agent, url, script);
    const legacy = await cpuPerCall(child, session.echo, warm.http, n, `${script}: 2025 call`);
    return { cold: coldMs, modern, legacy, rss: procStats(child.pid).peakRssMiB };
  } finally {
    await stop();
  }
}

const SDK_LOADED = path.join(repo, '.tmp/bench/servers/sdk-loaded/main.js');

/** The floor, the floor with the SDK loaded and the hand-written server, then `extra` (name → entry script). */
function targetsWith(extra) {
  return {
    raw: path.join(repo, 'bench/baselines/raw-server.mjs'),
    sdk: SDK_LOADED,
    handwritten: path.join(repo, 'bench/baselines/handwritten-server.mjs'),
    ...extra,
  };
}

/** Bundles bench/baselines/sdk-loaded-server.mjs as `mcpgen build` bundles a server's start. */
async function buildSdkLoaded() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(repo, 'bench/baselines/sdk-loaded-server.mjs')],
    outfile: SDK_LOADED,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    keepNames: true,
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    logLevel: 'silent',
  });
}

const MEASURES = [
  ['stdioCold', 'stdio cold start', 'ms'],
  ['httpCold', 'HTTP cold start', 'ms'],
  ['modernCpu', 'HTTP 2026-07-28 CPU/call', 'µs'],
  ['legacyCpu', 'HTTP 2025 session CPU/call', 'µs'],
  ['stdioCpu', 'stdio CPU/call', 'µs'],
  ['stdioRss', 'stdio peak RSS', 'MiB'],
  ['httpRss', 'HTTP peak RSS', 'MiB'],
];

/**
 * Every target in every round, rotated; `only`: 'stdio', 'http' or 'cold' (cold starts alone, no
 * calls). Returns the rows per target and a Markdown table of medians and paired ratios.
 */
export async function floorBench({ targets, rounds, calls, only, node = process.execPath, log = () => {} }) {
  if (targets.sdk === SDK_LOADED) await buildSdkLoaded();
  const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const cold = only === 'cold';
  const warm = cold ? NO_WARM : WARM;
  const results = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const entries = Object.entries(targets);
  const t0 = Date.now();
  for (let r = 0; r < rounds; r++) {
    const k = r % entries.length;
    for (const [name, script] of [...entries.slice(k), ...entries.slice(0, k)]) {
      const row = {};
      if (only !== 'http') {
        const s = await stdioRun(node, script, cold ? 0 : calls * 2, warm);
        Object.assign(row, { stdioCold: s.cold, stdioRss: s.rss, ...(cold ? {} : { stdioCpu: s.cpu * 1000 }) });
      }
      if (only !== 'stdio') {
        const h = await httpRun(node, script, calls, warm, cold);
        Object.assign(row, {
          httpCold: h.cold,
          httpRss: h.rss,
          ...(cold ? {} : { modernCpu: h.modern * 1000, legacyCpu: h.legacy * 1000 }),
        });
      }
      results[name].push(row);
    }
    log(`floor: round ${r + 1}/${rounds} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const keys = MEASURES.filter(([key]) => results.raw[0][key] !== undefined);
  const names = Object.keys(targets);
  const paired = (a, b, key) => {
    const rs = results[a].map((x, i) => x[key] / results[b][i][key]);
    return `${median(rs).toFixed(2)}× (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`;
  };
  const bases = [
    ['raw', 'raw'],
    ['sdk', 'SDK loaded'],
    ['handwritten', 'hand-written'],
  ].filter(([base]) => names.includes(base));
  const others = names.filter((n) => !bases.some(([base]) => base === n));
  const rows = keys.map(([key, label, unit]) => [
    label,
    ...names.map((n) => `${median(results[n].map((x) => x[key])).toFixed(unit === 'MiB' ? 1 : 0)} ${unit}`),
    ...others.flatMap((n) => bases.map(([base]) => paired(n, base, key))),
  ]);
  const md = [
    table(['measure', ...names, ...others.flatMap((n) => bases.map(([, label]) => `${n} ÷ ${label}`))], rows),
    '',
    `${rounds} rounds${cold ? '' : `, ${calls} calls per HTTP phase and ${calls * 2} over stdio after ${WARM.http} / ${WARM.stdio} warm-up calls`}; Node ${nodeVersion}; medians, and ratios paired per round (median (min–max)); one-minute load average at the end ${loadavg()[0].toFixed(1)} on ${cpus().length} cores.`,
  ].join('\n');
  return { results, md };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      calls: { type: 'string', default: '1500' },
      target: { type: 'string', multiple: true, default: [] },
      build: { type: 'boolean', default: false },
      only: { type: 'string' },
      node: { type: 'string' },
    },
  });
  const extra = {
    generated: values.build
      ? (await buildGenerated(repo, 1)).a
      : path.join(repo, '.tmp/bench/servers/gen-1/dist/src/main.js'),
  };
  for (const spec of values.target) {
    const eq = spec.indexOf('=');
    extra[spec.slice(0, eq)] = path.resolve(spec.slice(eq + 1));
  }
  const { results, md } = await floorBench({
    targets: targetsWith(extra),
    rounds: Number(values.rounds),
    calls: Number(values.calls),
    only: values.only,
    node: values.node ? path.resolve(values.node) : process.execPath,
    log: (s) => console.error(s),
  });
  console.log(md);
  if (process.env.FLOOR_JSON) (await import('node:fs')).writeFileSync(process.env.FLOOR_JSON, JSON.stringify(results));
}

export { cpuPerCall, legacySession, spawnHttp, stdioRun, targetsWith };
