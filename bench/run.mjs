#!/usr/bin/env node
// `npm run bench` (about ten minutes) / `npm run bench -- --quick` (a smoke run under a minute):
// runs the generator and generated-server benchmarks and writes bench/RESULTS.md.
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOpenApiGenerator, generatorBench } from './generator.mjs';
import { serverBench, serverReport } from './servers.mjs';
import { schemaScaleBench } from './schema-scale.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const log = (s) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const started = Date.now();

// mcpgen's per-user format cache: the benchmark's own, empty at the start (never the user's).
process.env.MCPGEN_CACHE_DIR = path.join(repo, '.tmp/bench/cache');
rmSync(process.env.MCPGEN_CACHE_DIR, { recursive: true, force: true });

const openapi = quick ? null : await ensureOpenApiGenerator(repo);
if (!quick && !openapi) log('openapi-mcp-generator could not be installed; its column is left empty');

log('generator benchmarks');
const gen = await generatorBench({
  repo,
  sizes: quick ? [10] : [10, 100, 1000],
  runs: quick ? 1 : 3,
  tools: { openapi: openapi?.bin, openapiHome: openapi?.home },
});
log('schema-heavy scale');
const scale = await schemaScaleBench({ repo, tools: quick ? 20 : 500, runs: 1 });
log('server benchmarks');
const servers = await serverBench({ repo, toolCounts: quick ? [1] : [1, 1000], runs: quick ? 1 : 3, calls: quick ? 100 : 2000, log });

const cpu = os.cpus();
const md = [
  '# Benchmark results',
  '',
  `Run ${new Date().toISOString().slice(0, 16)}Z${quick ? ' (--quick: smoke run, small sizes, one run — not for comparison)' : ''} on ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; took ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  'Reproduce with `npm run bench` (write-up in README.md § Benchmarks).',
  '',
  gen.md,
  '',
  scale.md,
  '',
  serverReport(servers),
  '',
].join('\n');
const out = path.join(repo, quick ? '.tmp/bench/RESULTS-quick.md' : 'bench/RESULTS.md');
writeFileSync(out, md);
console.log(md);
log(`wrote ${path.relative(process.cwd(), out)}`);
