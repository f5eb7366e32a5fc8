// Generator benchmarks: whole-process times of mcpgen (cold, no-op, one tool changed, validate)
// on synthetic manifests, side by side with openapi-mcp-generator on an OpenAPI spec with the
// same operations, interleaved (A B A B) so machine noise hits both alike.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fmt, median, table, timeProcess } from './lib.mjs';
import { syntheticManifest, syntheticOpenApi } from './synthetic.mjs';

export async function generatorBench({ repo, sizes, runs, tools }) {
  const mcpgen = path.join(repo, 'bin/mcpgen.js');
  const tsc = path.join(repo, 'node_modules/.bin/tsc');
  const work = path.join(repo, '.tmp/bench/generator');
  const rows = [];
  const results = {};
  // Every cold run writes into a folder never used before, and old trees are deleted only after
  // the last timed run: creating 2000 files right after deleting 2000 costs this ext4 ≈ 0.5 s
  // more (measured, writes alone: ≈ 0.65 s vs ≈ 0.1 s into a fresh folder), a cost of the
  // benchmark's own clean-up, not of generating.
  rmSync(work, { recursive: true, force: true });
  let lastDir = null;
  for (const n of sizes) {
    const base = path.join(work, `mcpgen-${n}`);
    // Inside the tool's folder, so its output resolves the packages it imports when type-checked.
    const oaBase = path.join(tools.openapiHome ?? work, `out-${n}`);
    const spec = path.join(work, `openapi-${n}.json`);
    mkdirSync(work, { recursive: true });
    writeFileSync(spec, syntheticOpenApi(n));
    const writeManifest = (dir, variant) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'mcpgen.yaml'), syntheticManifest(n, { variant }));
    };
    // validate also on the lint-clean manifest (flow collections, no warnings): what CI mostly sees.
    const cleanDir = path.join(work, `mcpgen-clean-${n}`);
    mkdirSync(cleanDir, { recursive: true });
    writeFileSync(path.join(cleanDir, 'mcpgen.yaml'), syntheticManifest(n, { clean: true }));
    const r = { cold: [], noop: [], changed: [], validate: [], validateClean: [], openapi: [] };
    for (let i = 0; i < runs; i++) {
      const gen = (dir) => timeProcess(process.execPath, [mcpgen, 'generate', '-q'], { cwd: dir });
      // A: mcpgen cold into an empty folder.
      const cold = path.join(base, `cold-${i}`);
      writeManifest(cold, 0);
      r.cold.push((await gen(cold)).ms);
      // B: openapi-mcp-generator cold, same operations.
      if (tools.openapi) {
        const oaDir = `${oaBase}-${i}`;
        rmSync(oaDir, { recursive: true, force: true });
        r.openapi.push(
          (
            await timeProcess(process.execPath, [tools.openapi, '-i', spec, '-o', oaDir, '--force'], {
              cwd: work,
              allowFail: true,
            })
          ).ms,
        );
      }
      // A': a project generated once, then regenerated unchanged and with one tool changed.
      const warm = path.join(base, `warm-${i}`);
      writeManifest(warm, 0);
      await gen(warm);
      r.noop.push((await gen(warm)).ms);
      writeManifest(warm, i + 1);
      r.changed.push((await gen(warm)).ms);
      r.validate.push((await timeProcess(process.execPath, [mcpgen, 'validate'], { cwd: warm, allowFail: true })).ms);
      r.validateClean.push((await timeProcess(process.execPath, [mcpgen, 'validate'], { cwd: cleanDir })).ms);
      lastDir = warm;
    }
    results[n] = r;
    const ratio = (xs) =>
      tools.openapi && r.openapi.length ? `${(median(xs) / median(r.openapi)).toFixed(2)}×` : 'n/a';
    rows.push([
      String(n),
      fmt(r.cold),
      tools.openapi ? fmt(r.openapi) : 'not installed',
      ratio(r.cold),
      fmt(r.noop),
      fmt(r.changed),
      fmt(r.validate),
      fmt(r.validateClean),
    ]);
  }

  // tsc --noEmit on the largest generated project, and on openapi-mcp-generator's output.
  const largest = Math.max(...sizes);
  const tscRows = [];
  const tscMs = [];
  // One run: tsc on a 1000-tool project is the slow part of the whole suite.
  for (let i = 0; i < 1; i++) {
    const t = await timeProcess(tsc, ['-p', 'tsconfig.json', '--noEmit'], {
      cwd: lastDir,
      allowFail: true,
      timeoutMs: 120_000,
    });
    tscMs.push(t.ms);
  }
  tscRows.push([`mcpgen, ${largest} tools`, fmt(tscMs)]);
  let oaTsc = 'not installed';
  if (tools.openapi) {
    const oaDir = path.join(tools.openapiHome ?? work, `out-${largest}-0`);
    const t = await timeProcess(tsc, ['-p', 'tsconfig.json', '--noEmit'], {
      cwd: oaDir,
      allowFail: true,
      timeoutMs: 60_000,
    });
    oaTsc = t.timedOut ? 'did not finish in 60 s' : `${t.ms.toFixed(0)} ms (exit ${t.code})`;
  }
  tscRows.push([`openapi-mcp-generator, ${largest} operations`, oaTsc]);

  // Reference points on the largest manifest: what its parts cost done the plainest way.
  const refs = await referencePoints({
    work,
    manifest: path.join(work, `mcpgen-${largest}`, 'cold-0', 'mcpgen.yaml'),
    tree: path.join(work, `mcpgen-${largest}`, 'cold-0'),
    runs: Math.max(3, runs),
  });
  rmSync(work, { recursive: true, force: true });

  const md = [
    `### Generator (whole process, median (min–max) of ${runs} interleaved runs)`,
    '',
    table(
      [
        'tools',
        'mcpgen cold',
        'openapi-mcp-generator cold',
        'ratio (mcpgen / openapi)',
        'mcpgen no-op generate',
        'one tool changed',
        'validate (noisy: lint warnings)',
        'validate (lint-clean)',
      ],
      rows,
    ),
    '',
    '### `tsc --noEmit` (TypeScript 7) on the generated project',
    '',
    table(['project', 'time'], tscRows),
    '',
    `### Reference points: parts of a cold generate of ${largest} tools done the plainest way (median (min–max) of ${Math.max(3, runs)} runs)`,
    '',
    table(['task', 'time'], refs.rows),
  ].join('\n');
  return { md, results, tscMs, references: refs.results };
}

/**
 * Floors for the cold generate: an empty Node process, the manifest parsed by the `yaml` library
 * and (as JSON text) by JSON.parse, the generated tree's files written anew by plain
 * writeFileSync calls, and mcpgen's own generate run cold and then warm in one process. Each written tree is a fresh folder; none is deleted before the end (a
 * deletion slows the next creations on ext4, see above).
 */
async function referencePoints({ work, manifest, tree, runs }) {
  const script = path.join(path.dirname(new URL(import.meta.url).pathname), 'reference-tasks.mjs');
  const r = { node: [], yaml: [], json: [], write: [], files: 0, first: [], third: [] };
  for (let i = 0; i < runs; i++) {
    r.node.push((await timeProcess(process.execPath, ['-e', ''])).ms);
    r.yaml.push(Number((await timeProcess(process.execPath, [script, 'yaml', manifest])).out.trim()));
    r.json.push(Number((await timeProcess(process.execPath, [script, 'json', manifest])).out.trim()));
    const [ms, files] = (
      await timeProcess(process.execPath, [script, 'write', tree, path.join(work, `rewrite-${i}`)])
    ).out
      .trim()
      .split(' ');
    r.write.push(Number(ms));
    r.files = Number(files);
    const [first, , third] = (await timeProcess(process.execPath, [script, 'warm', manifest])).out
      .trim()
      .split(' ')
      .map(Number);
    r.first.push(first);
    r.third.push(third);
  }
  const rows = [
    ['an empty Node process (`node -e ""`), whole process', fmt(r.node)],
    ['the `yaml` library loaded and the manifest parsed (in process)', fmt(r.yaml)],
    ['the same data as JSON text, `JSON.parse` (in process)', fmt(r.json)],
    [`the generated project's ${r.files} files written by \`writeFileSync\` (in process)`, fmt(r.write)],
    [
      "mcpgen's own generate (load → formatted files, nothing written), in process: first run (cold code)",
      fmt(r.first),
    ],
    ['the same, third run in that process (optimized code; V8 had compiled the hot paths)', fmt(r.third)],
  ];
  return { rows, results: r };
}

/** Installs openapi-mcp-generator 4.0.1 and what its output imports into .tmp/bench-tools/openapi (once). */
export async function ensureOpenApiGenerator(repo) {
  const home = path.join(repo, '.tmp/bench-tools/openapi');
  const bin = path.join(home, 'node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');
  if (!existsSync(bin)) {
    mkdirSync(home, { recursive: true });
    if (!existsSync(path.join(home, 'package.json')))
      writeFileSync(path.join(home, 'package.json'), '{ "private": true }\n');
    const pkgs = [
      'openapi-mcp-generator@4.0.1',
      '@modelcontextprotocol/sdk@1.32.2',
      'axios@1.9.0',
      'dotenv@16.4.5',
      'zod@3.25.76',
      'json-schema-to-zod@2.6.1',
      '@types/node@20.19.25',
    ];
    const r = await timeProcess('npm', ['install', '--no-audit', '--no-fund', '-E', ...pkgs], {
      cwd: home,
      allowFail: true,
      timeoutMs: 300_000,
    });
    if (r.code !== 0 || !existsSync(bin)) return null;
  }
  return { bin, home };
}
