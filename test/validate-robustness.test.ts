/**
 * Never crash: huge and odd inputs, and a bounded mutation fuzz over every valid manifest
 * in the repo (examples, test/fixtures/valid). Each mutant is validated in-process; the assertions:
 * no exception, no stack trace in the output, exit 0 or 1, every diagnostic inside the file.
 * Seeded, so a failure names a reproducible case (MCPGEN_FUZZ_SEED, MCPGEN_FUZZ_CASES to explore).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateCommand, type ValidateOptions } from '../cli/commands/validate.js';
import type { CliIO } from '../cli/io.js';
import type { JsonDiagnostic } from '../cli/report/json.js';

const root = path.resolve(import.meta.dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-robust-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function run(cwd: string, opts: ValidateOptions) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    env: {},
  };
  const code = await validateCommand(opts, io);
  return { code, stdout, stderr };
}

const STACK = /\n\s+at .+[:(]\d+:\d+\)?/;

/** Positions of the JSON report that fall outside `source` (the file as the validator read it). */
function outside(diags: JsonDiagnostic[], source: string, file = 'mcpgen.yaml'): string[] {
  const lines = source.replace(/^\uFEFF/, '').split('\n');
  const len = (n: number) => (lines[n - 1] ?? '').length;
  const bad: string[] = [];
  for (const d of diags) {
    if (d.file !== file) continue;
    const ok =
      d.line >= 1 &&
      d.line <= lines.length &&
      d.column >= 1 &&
      d.column <= len(d.line) + 1 &&
      d.endLine >= d.line &&
      d.endLine <= lines.length &&
      d.endColumn >= 1 &&
      d.endColumn <= len(d.endLine) + 1 &&
      (d.endLine > d.line || d.endColumn >= d.column);
    if (!ok) bad.push(`${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code} ${d.message}`);
  }
  return bad;
}

describe('large and odd inputs', () => {
  test('a 5 MB manifest (generated here, not committed): validated, its mistakes found, in reasonable time', async () => {
    const dir = path.join(tmp, 'big');
    fs.mkdirSync(dir);
    const parts = ['version: 1', 'server: { name: big, version: 1.0.0 }', 'tools:'];
    let size = 0;
    for (let i = 0; size < 5 * 1024 * 1024; i++) {
      const line = `  tool_${i}: { description: "${`Does thing number ${i}${'. '.repeat(1)}`}${'x'.repeat(200)}", input: { type: object, properties: { q: { type: string, description: The query text, default: "" } } } }`;
      parts.push(line);
      size += line.length + 1;
    }
    parts.push('  broken_tool: { descripton: typo }');
    const source = `${parts.join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), source);
    expect(Buffer.byteLength(source)).toBeGreaterThan(5 * 1024 * 1024);
    const t0 = performance.now();
    const { code, stdout, stderr } = await run(dir, { format: 'json' });
    const ms = performance.now() - t0;
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const diags = JSON.parse(stdout) as JsonDiagnostic[];
    expect(diags.map((d) => d.code)).toContain('MCPG110');
    expect(diags.map((d) => d.code)).toContain('MCPG307'); // thousands of tools
    expect(outside(diags, source)).toEqual([]);
    expect(ms).toBeLessThan(45_000);
  });

  test('over the 10 MiB limit: one MCPG903, not parsed', async () => {
    const dir = path.join(tmp, 'huge');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), `version: 1\n# ${'x'.repeat(10 * 1024 * 1024)}\n`);
    const { code, stdout } = await run(dir, { format: 'json' });
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as JsonDiagnostic[]).map((d) => d.code)).toEqual(['MCPG903']);
  });

  test('a directory, a device and a missing file: usage errors (exit 2), never a crash', async () => {
    const dir = path.join(tmp, 'odd');
    fs.mkdirSync(path.join(dir, 'mcpgen.yaml'), { recursive: true });
    expect(await run(dir, { file: 'mcpgen.yaml', format: 'json' })).toMatchObject({ code: 2, stdout: '' });
    expect((await run(dir, { file: '/dev/null', format: 'json' })).code).toBe(2);
    expect((await run(dir, { file: 'nope.yaml' })).code).toBe(2);
  });
});

// ---- mutation fuzz ----

/** mulberry32: small, fast, seeded. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES = [
  '[]',
  '{}',
  '1',
  '-1.5',
  'true',
  '~',
  '""',
  '"text"',
  '[a, 1, {b: c}]',
  '{ a: 1 }',
  '*nope',
  '&anchor x',
  '!!binary AA==',
  '|',
  '>-',
  "'quoted'",
  '1e400',
  '0x10',
  '"{{x}}"',
  'docs://x',
  '"é🌦️"',
  ': :',
  '{ type: object }',
  '[[[[[[',
  '- x',
];
const JUNK = [
  '{',
  '}',
  '[',
  ']',
  ':',
  '"',
  "'",
  '#',
  '\t',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  ',',
  '?',
  '-',
  'é',
  '🌦️',
  '\u0000',
  '\r',
  '\\',
];

type Mutation = (lines: string[], r: () => number) => string[];
const pick = <T>(a: readonly T[], r: () => number): T => a[Math.floor(r() * a.length)]!;
const at = (lines: string[], r: () => number) => Math.floor(r() * lines.length);

const MUTATIONS: Record<string, Mutation> = {
  deleteLine: (l, r) => (l.splice(at(l, r), 1), l),
  duplicateLine: (l, r) => {
    const i = at(l, r);
    l.splice(i, 0, l[i] ?? '');
    return l;
  },
  swapLines: (l, r) => {
    const i = at(l, r);
    const j = at(l, r);
    [l[i], l[j]] = [l[j] ?? '', l[i] ?? ''];
    return l;
  },
  swapType: (l, r) => {
    const candidates = l.map((s, i) => [s, i] as const).filter(([s]) => /^\s*[^#\s][^:]*:\s*\S/.test(s));
    if (candidates.length === 0) return l;
    const [s, i] = pick(candidates, r);
    l[i] = s.replace(/^(\s*[^:]+:\s*).*$/, `$1${pick(VALUES, r)}`);
    return l;
  },
  emptyValue: (l, r) => {
    const i = at(l, r);
    l[i] = (l[i] ?? '').replace(/:\s.*$/, ':');
    return l;
  },
  indent: (l, r) => {
    const i = at(l, r);
    const s = l[i] ?? '';
    l[i] = r() < 0.5 ? ' '.repeat(1 + Math.floor(r() * 4)) + s : s.replace(/^ {1,3}/, '');
    return l;
  },
  junk: (l, r) => {
    const i = at(l, r);
    const s = l[i] ?? '';
    const k = Math.floor(r() * (s.length + 1));
    l[i] = s.slice(0, k) + pick(JUNK, r) + s.slice(k);
    return l;
  },
  truncate: (l, r) => {
    const text = l.join('\n');
    return text.slice(0, Math.floor(r() * text.length)).split('\n');
  },
  renameKey: (l, r) => {
    const i = at(l, r);
    l[i] = (l[i] ?? '').replace(
      /^(\s*)([A-Za-z_]+)(\s*:)/,
      (_m, a: string, k: string, c: string) => `${a}${r() < 0.5 ? k.slice(1) : `${k}x`}${c}`,
    );
    return l;
  },
};

const seeds = [
  ...fs.readdirSync(path.join(root, 'examples')).map((n) => path.join(root, 'examples', n, 'mcpgen.yaml')),
  ...fs
    .readdirSync(path.join(root, 'test/fixtures/valid'))
    .map((n) => path.join(root, 'test/fixtures/valid', n, 'mcpgen.yaml')),
].filter((f) => fs.existsSync(f));

const CASES = Number(process.env.MCPGEN_FUZZ_CASES ?? 3000);
const SEED = Number(process.env.MCPGEN_FUZZ_SEED ?? 20261129);
/** Stop after this long (2 cores, other test files running) once MIN_CASES have run. */
const BUDGET_MS = Number(process.env.MCPGEN_FUZZ_BUDGET_MS ?? 35_000);
const MIN_CASES = 1500;

test(`mutation fuzz: ${CASES} mutants of ${seeds.length} manifests (seed ${SEED})`, { timeout: 120_000 }, async () => {
  expect(seeds.length).toBeGreaterThanOrEqual(4);
  const r = prng(SEED);
  const names = Object.keys(MUTATIONS);
  const failures: string[] = [];
  const counts: Record<string, number> = { 0: 0, 1: 0 };
  const started = performance.now();
  let ran = 0;
  const originals = seeds.map((f) => ({ f, text: fs.readFileSync(f, 'utf8') }));
  // Mutants live in a copy of each seed's folder, so `file:` references still resolve.
  const dirs = originals.map(({ f }, i) => {
    const d = path.join(tmp, `fuzz-${i}`);
    const skip = new Set(['node_modules', 'dist', 'src', 'test', '.tmp']); // the generated project: not read by validate
    fs.cpSync(path.dirname(f), d, {
      recursive: true,
      filter: (src) => !skip.has(path.relative(path.dirname(f), src).split(path.sep)[0]!),
    });
    return d;
  });
  for (let n = 0; n < CASES; n++) {
    const s = Math.floor(r() * originals.length);
    let lines = originals[s]!.text.split('\n');
    const applied: string[] = [];
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
      const name = pick(names, r);
      applied.push(name);
      lines = MUTATIONS[name]!(lines, r);
    }
    const source = lines.join('\n');
    const dir = dirs[s]!;
    fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), source);
    const label = `case ${n} (${path.relative(root, originals[s]!.f)}: ${applied.join(', ')})`;
    try {
      const format = n % 7 === 0 ? 'stylish' : n % 11 === 0 ? 'sarif' : 'json';
      const { code, stdout, stderr } = await run(dir, { format });
      counts[code] = (counts[code] ?? 0) + 1;
      if (code !== 0 && code !== 1) failures.push(`${label}: exit ${code}: ${stderr.slice(0, 300)}`);
      if (STACK.test(stdout + stderr) || /internal error/.test(stdout + stderr))
        failures.push(`${label}: stack trace or internal error`);
      if (format === 'json') {
        const bad = outside(JSON.parse(stdout) as JsonDiagnostic[], source);
        if (bad.length) failures.push(`${label}: outside the file: ${bad.slice(0, 3).join(' | ')}`);
      } else if (format === 'sarif') JSON.parse(stdout);
    } catch (err) {
      failures.push(`${label}: threw ${(err as Error).stack ?? String(err)}`);
    }
    if (failures.length >= 10) break;
    // A time budget keeps a loaded CI machine under the test timeout; the cases run stay seeded.
    if (performance.now() - started > BUDGET_MS && n >= MIN_CASES) break;
    ran = n + 1;
  }
  expect(failures).toEqual([]);
  expect(ran).toBeGreaterThanOrEqual(Math.min(CASES, MIN_CASES));
  // The fuzz reaches both outcomes (a mutation can leave a manifest valid).
  expect(counts[1]).toBeGreaterThan(ran / 10);
});
