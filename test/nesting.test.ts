/**
 * MCPG109: nesting deeper than MAX_NESTING is a diagnostic at the place the limit is crossed, on
 * both YAML paths (the quick parse and the yaml package), for every way YAML nests, fast even a
 * million levels deep, and never a crash; the text scan that guards the yaml package estimates the
 * depth of every manifest in the repository exactly.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDocument, visit } from 'yaml';
import { loadManifest } from '../cli/load/index.js';
import { MAX_NESTING } from '../cli/load/nesting.js';
import { scanNesting } from '../cli/load/nesting-scan.js';
import { quickParseYaml } from '../cli/load/quick-yaml.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-nesting-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const HEAD = 'version: 1\nserver:\n  name: x\n  version: 1.0.0\ntransports:\n  stdio: {}\n';

/** Collections around the deepest value (the root mapping is 1). */
function depthOf(v: unknown): number {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + children.reduce<number>((m, c) => Math.max(m, depthOf(c)), 0);
}

/** The scan's estimate, found by asking it at each limit. */
function estimate(source: string): number {
  let d = 0;
  while (scanNesting(source, d, d)) d++;
  return d;
}

let n = 0;
function load(text: string) {
  const file = path.join(tmp, `m${n++}.yaml`);
  fs.writeFileSync(file, text);
  return loadManifest(file, 'mcpgen.yaml');
}

/**
 * Shapes nesting `levels` collections under the key `x` of the root (so the deepest collection is
 * at level levels + 1), each with the 1-based line and column of the collection at `at` levels
 * under `x` (at ≥ 1), and how deep it can go within the manifest size limit (indentation grows
 * with the square of the depth).
 */
const shapes: Record<
  string,
  { text: (levels: number) => string; where: (at: number) => [number, number]; most?: number }
> = {
  'flow mappings': { text: (k) => `x: ${'{a: '.repeat(k)}1${'}'.repeat(k)}\n`, where: (at) => [7, 4 + 4 * (at - 1)] },
  'flow lists': { text: (k) => `x: ${'['.repeat(k)}1${']'.repeat(k)}\n`, where: (at) => [7, 4 + (at - 1)] },
  'block mappings': {
    text: (k) => `x:\n${Array.from({ length: k }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')} 1\n`,
    where: (at) => [7 + at, at + 1],
    most: 4001,
  },
  'block lists': {
    text: (k) => `x:\n${Array.from({ length: k }, (_, i) => `${' '.repeat(i + 1)}-`).join('\n')} 1\n`,
    where: (at) => [7 + at, at + 1],
    most: 4001,
  },
  'compact lists': { text: (k) => `x:\n  ${'- '.repeat(k)}1\n`, where: (at) => [8, 3 + 2 * (at - 1)] },
  'lists of flow mappings of lists': {
    text: (k) => `x:\n  - ${'[{a: '.repeat((k - 1) / 2)}1${'}]'.repeat((k - 1) / 2)}\n`,
    where: (at) => [8, at === 1 ? 3 : 5 + Math.floor((at - 2) / 2) * 5 + ((at - 2) % 2)],
  },
};

describe('MCPG109 nesting deeper than the limit', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    // The deepest collection at the limit (the root is level 1). Odd counts: the mixed shape is a list, then pairs of levels.
    const atLimit = MAX_NESTING - 1;
    test(`${name}: ${atLimit + 1} levels load, ${MAX_NESTING + 1} are reported where the limit is crossed`, () => {
      const ok = load(HEAD + shape.text(atLimit));
      expect(ok.diagnostics).toEqual([]);
      expect(depthOf(ok.manifest!.data)).toBe(atLimit + 1);
      // One more level than the limit allows, just past it and far past it (the text scan's territory).
      for (const levels of [atLimit + 2, atLimit + 4, Math.min(10_001, shape.most ?? Infinity)]) {
        const bad = load(HEAD + shape.text(levels));
        expect(bad.manifest).toBeUndefined();
        const [line, column] = shape.where(MAX_NESTING);
        expect(bad.diagnostics.map((d) => [d.code, d.severity, d.message, d.line, d.column])).toEqual([
          ['MCPG109', 'error', `nesting deeper than ${MAX_NESTING} levels`, line, column],
        ]);
        expect(bad.diagnostics[0]!.hint).toMatch(/brackets never closed/);
      }
    });
  }

  test('the quick parse declines past the limit (the yaml path reports), without recursing further', () => {
    expect(quickParseYaml(HEAD + shapes['flow mappings']!.text(MAX_NESTING - 1))).toBeDefined();
    expect(quickParseYaml(HEAD + shapes['flow mappings']!.text(MAX_NESTING))).toBeUndefined();
    expect(quickParseYaml(HEAD + shapes['block mappings']!.text(MAX_NESTING))).toBeUndefined();
    expect(quickParseYaml(HEAD + shapes['flow lists']!.text(1_000_000))).toBeUndefined();
  });

  test('the same limit on the yaml path (an anchor keeps the quick parse off)', () => {
    const anchored = (levels: number) => `${HEAD}y: &y 1\nx: ${'['.repeat(levels)}1${']'.repeat(levels)}\n`;
    expect(load(anchored(MAX_NESTING - 1)).diagnostics).toEqual([]);
    const bad = load(anchored(MAX_NESTING));
    expect(bad.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([`8:${4 + MAX_NESTING - 1} MCPG109`]);
  });

  test('nesting built with aliases is counted in the data, and reported inside the anchor', () => {
    const half = 40;
    const text = `${HEAD}a: &a ${'['.repeat(half)}1${']'.repeat(half)}\nb: ${'['.repeat(half)}*a${']'.repeat(half)}\n`;
    const r = load(text);
    expect(r.manifest).toBeUndefined();
    // b's lists are levels 2…41, then the anchor's: level 65 is its 24th list.
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([`7:${7 + 23} MCPG109`]);
    // The same without crossing the limit loads, the alias expanded.
    const ok = load(`${HEAD}a: &a ${'['.repeat(20)}1${']'.repeat(20)}\nb: ${'['.repeat(20)}*a${']'.repeat(20)}\n`);
    expect(ok.diagnostics).toEqual([]);
    expect(depthOf(ok.manifest!.data)).toBe(41);
  });

  test('a pair in a flow list is a mapping level of its own', () => {
    const levels = MAX_NESTING; // lists …, then `a: 1` as a mapping inside the last one
    const r = load(`${HEAD}y: &y 1\nx: ${'['.repeat(levels - 1)}a: 1${']'.repeat(levels - 1)}\n`);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['MCPG109']);
  });

  test('a million levels (as deep as the size limit allows), every shape, fast', () => {
    for (const [name, shape] of Object.entries(shapes)) {
      const text = HEAD + shape.text(Math.min(1_000_001, shape.most ?? Infinity));
      const t = performance.now();
      const r = load(text);
      expect(
        r.diagnostics.map((d) => d.code),
        name,
      ).toEqual(['MCPG109']);
      expect(performance.now() - t, name).toBeLessThan(1500);
    }
    // Unclosed brackets and an unclosed quote in between: still the scan's diagnostic.
    for (const text of [`x: ${'['.repeat(1_000_000)}\n`, `x: [${'"a", ['.repeat(300_000)} "unclosed\n`]) {
      const t = performance.now();
      expect(load(HEAD + text).diagnostics.map((d) => d.code)).toEqual(['MCPG109']);
      expect(performance.now() - t).toBeLessThan(1500);
    }
  });
});

describe('the text scan', () => {
  const manifests = [
    ...fs.readdirSync(path.join(root, 'test/cases')).map((c) => path.join(root, 'test/cases', c, 'mcpgen.yaml')),
    ...fs.readdirSync(path.join(root, 'examples')).map((c) => path.join(root, 'examples', c, 'mcpgen.yaml')),
  ].filter((f) => fs.existsSync(f));

  const fixtures = path.join(root, 'test/fixtures/valid');
  manifests.push(
    ...fs
      .readdirSync(fixtures)
      .map((f) => path.join(fixtures, f, 'mcpgen.yaml'))
      .filter((f) => fs.existsSync(f)),
  );

  test('estimates exactly the depth of every manifest in the repository that parses', () => {
    let checked = 0;
    for (const file of manifests) {
      const text = fs.readFileSync(file, 'utf8');
      const doc = parseDocument(text, { uniqueKeys: false, merge: true, logLevel: 'silent' });
      let aliases = false;
      visit(doc, { Alias: () => void (aliases = true) });
      if (doc.errors.length > 0 || aliases) continue; // the scan does not expand aliases
      expect(estimate(text), path.relative(root, file)).toBe(depthOf(doc.toJS()));
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  test('skips what cannot nest: quotes, block scalars, plain scalars, comments', () => {
    const cases: [string, number][] = [
      ['a: "[[[{{"\n', 1],
      ["a: '[[['' ]]'\n", 1],
      ['a: "x\n  [[[ \\" [[["\n', 1],
      ['a: |\n  [[[[ {{{{\n  - - - - x\n    k: v\nb: 1\n', 1],
      ['- a: >-\n    - - - [\n  b: [1]\n', 3],
      ['a: see [the docs] {here}\n', 1],
      ['a: text\n  - continued\n  - - more\n', 1],
      ['a: [1, "]]]", \'[[\', b#c, {x: "y"}] # [[[[\n', 3],
      ['a: {"k":"v", "l":[1]}\n', 3],
      ['a: [x # [[[[\n  , [1]]\n', 3],
      ['a:\n- b\n- c:\n    d: [1]\ne: 1\n', 5],
      ['? - a\n  - [b]\n: c\n', 3],
      ['--- \na: [[1]]\n...\n', 3],
      ['a: &x !!map {b: [1]}\n', 3],
      ['"k": {x: [1]}\n\'l\': 1\n', 3],
      ['a:\r\n  b: [1]\r\n', 3],
    ];
    for (const [text, depth] of cases) expect(estimate(text), JSON.stringify(text)).toBe(depth);
  });
});

describe('built bin', () => {
  const bin = path.join(root, 'bin/mcpgen.js');
  const run = (cwd: string, args: string[]) =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, ...args],
        { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 },
        (err, _o, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }),
      );
    });

  for (const levels of [10_000, 1_000_000]) {
    test(`validate and generate: ${levels} nested flow mappings under a tool input, exit 1 with MCPG109`, async () => {
      const dir = fs.mkdtempSync(path.join(tmp, 'bin-'));
      const input = `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}`;
      fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), `${HEAD}tools:\n  t:\n    description: d\n    input: ${input}\n`);
      for (const args of [['validate'], ['generate']]) {
        const r = await run(dir, args);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`mcpgen.yaml:10:256: error MCPG109 nesting deeper than ${MAX_NESTING} levels`);
        expect(r.stderr).not.toMatch(/internal error|RangeError/);
      }
      expect(fs.readdirSync(dir)).toEqual(['mcpgen.yaml']);
    });
  }
});
