#!/usr/bin/env node
// `npm run bench` (about fifteen minutes) / `npm run bench -- --quick` (a smoke run of a minute or two):
// runs the generator and generated-server benchmarks and writes bench/RESULTS.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOpenApiGenerator, generatorBench } from './generator.mjs';
import { serverBench, serverReport } from './servers.mjs';
import { schemaScaleBench } from './schema-scale.mjs';
import { stdioLoadBench } from './stdio-load.mjs';
import { devReloadBench } from './dev-reload.mjs';
import { scaleBench, scaleSection } from './scale.mjs';
import { shortcutsBench } from './shortcuts.mjs';
import { BUNDLE_BUDGET_KIB, bundleBench } from './bundle.mjs';
import { floorBench, targetsWith } from './floor.mjs';
import { peerTargets, peersBench } from './peers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const log = (s) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const started = Date.now();

// The SDK 2.4 client's Streamable HTTP transport adds an abort listener to its connection-wide
// AbortSignal for every request and never removes it (fetch raises that signal's limit to 1500,
// then Node warns on every request past it): thousands of identical lines about the bench's own
// client, not the servers. They are counted and reported once.
let listenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'MaxListenersExceededWarning') listenerWarnings++;
  else console.error(w);
});

const openapi = quick ? null : await ensureOpenApiGenerator(repo);
if (!quick && !openapi) log('openapi-mcp-generator could not be installed; its column is left empty');

// Timed processes start without NODE_EXTRA_CA_CERTS (after the install above, which may need it):
// Node 20 reads that CA bundle at every start, before any code runs — 40–50 ms per process on
// the VM that set it — and no process timed here makes a TLS connection. Both sides of every
// comparison start the same way.
const caNote = process.env.NODE_EXTRA_CA_CERTS
  ? ' NODE_EXTRA_CA_CERTS was unset for the timed processes (Node reads that bundle at every start; nothing timed uses TLS).'
  : '';
delete process.env.NODE_EXTRA_CA_CERTS;

log('generator benchmarks');
const gen = await generatorBench({
  repo,
  sizes: quick ? [10] : [10, 100, 1000],
  runs: quick ? 1 : 3,
  tools: { openapi: openapi?.bin, openapiHome: openapi?.home },
});
log("weather's MCP Bundle against its size budget");
const bundle = await bundleBench({ repo });
log('speed shortcuts on and off');
const shortcuts = await shortcutsBench({ repo, runs: quick ? 1 : 21, log });
log('schema-heavy scale');
const scale = await schemaScaleBench({ repo, tools: quick ? 20 : 500, runs: 1 });
log('server benchmarks');
const servers = await serverBench({
  repo,
  toolCounts: quick ? [1] : [1, 1000],
  runs: quick ? 1 : 3,
  calls: quick ? 100 : 2000,
  log,
  ...(quick ? { warmUp: { stdio: 50, http: 25 } } : {}),
});
log('the floor: raw JSON-RPC, hand-written and generated servers');
const floorTargets = targetsWith({ generated: path.join(repo, '.tmp/bench/servers/gen-1/dist/src/main.js') });
const floor = await floorBench({ targets: floorTargets, rounds: quick ? 1 : 5, calls: quick ? 200 : 1500, log });
const floorCold = await floorBench({ targets: floorTargets, rounds: quick ? 1 : 15, only: 'cold', log });
log('TypeScript peers: the SDK v2 and v1 by hand, FastMCP');
const peers = await peersBench({
  targets: peerTargets(floorTargets.generated),
  rounds: quick ? 1 : 5,
  calls: quick ? 200 : 1500,
  log,
});
log('stdio under load');
const stdioLoad = await stdioLoadBench(path.join(repo, '.tmp/bench/servers/gen-1/dist/src/main.js'));
log('dev-reload');
const devReload = await devReloadBench({ repo, tools: 50, runs: quick ? 1 : 5 });
log('scale-out (redis-server, haproxy, replicas)');
const scaleOut = await scaleBench({ repo, quick, log });

/** The hand-written method and analysis part of bench/RESULTS.md, between its markers: kept across runs. */
function methodSection(file) {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const a = old.indexOf('<!-- method -->');
  const b = old.indexOf('<!-- /method -->');
  return a >= 0 && b > a ? old.slice(a, b + '<!-- /method -->'.length) : '';
}

const cpu = os.cpus();
const md = [
  '# Benchmark results',
  '',
  `Run ${new Date().toISOString().slice(0, 16)}Z${quick ? ' (--quick: smoke run, small sizes, one run — not for comparison)' : ''} on ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; took ${((Date.now() - started) / 1000).toFixed(0)} s.${caNote}`,
  'Reproduce with `npm run bench`; how each number is measured, and why: [Method and analysis](#method-and-analysis).',
  '',
  gen.md,
  '',
  bundle.md,
  '',
  shortcuts.md,
  '',
  scale.md,
  '',
  serverReport(servers),
  '',
  '### Against the floor (one tool; raw = the same interface as bare JSON-RPC, bench/baselines/raw-server.mjs)',
  '',
  'Server CPU per call from /proc over sequential calls by raw clients (JSON-RPC lines, node:http keep-alive POSTs); cold start: spawn → initialize → tools/list answered (stdio), spawn → listening → a 2026-07-28 tools/list answered (HTTP).',
  '',
  floor.md,
  '',
  'Cold starts alone:',
  '',
  floorCold.md,
  '',
  '### Against TypeScript peers (one tool; on the 2025 revisions, which every peer speaks; bench/peers.mjs)',
  '',
  'The same interface hand-written on the SDK v2 and on the SDK v1 (what most TypeScript MCP servers run today), and with FastMCP; measured as the floor is; HTTP cold start is spawn → listening → initialize answered.',
  '',
  peers.md,
  '',
  stdioLoad,
  '',
  devReload.md,
  '',
  scaleSection(scaleOut.md),
  '',
  methodSection(path.join(repo, 'bench/RESULTS.md')),
  '',
].join('\n');
const out = path.join(repo, quick ? '.tmp/bench/RESULTS-quick.md' : 'bench/RESULTS.md');
writeFileSync(out, md);
console.log(md);
log(`wrote ${path.relative(process.cwd(), out)}`);
if (listenerWarnings)
  log(
    `the SDK client warned ${listenerWarnings} times of abort listeners piling up on its HTTP connections (a leak in the client, see above)`,
  );
if (bundle.over) {
  log(`FAIL: weather's bundle is ${bundle.kib.toFixed(0)} KiB, over its budget of ${BUNDLE_BUDGET_KIB} KiB`);
  process.exitCode = 1;
}
