/**
 * The quick YAML path (cli/load/quick-yaml.ts) must be invisible: whenever it accepts a text, the
 * data and every range it gives equal those of the yaml package, which also finds no problem in
 * it. Checked on every manifest in the repo, their block-style rewrites (the form it is built
 * for), their rewrites with one-line flow collections (`{ type: string }`, `[a, b]`, nested),
 * synthetic benchmark manifests, and seeded mutants of all of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { Document, isCollection, stringify, visit } from 'yaml';
import { loadManifest } from '../cli/load/load.js';
import { QuickLocator } from '../cli/load/quick-locate.js';
import { quickParseYaml } from '../cli/load/quick-yaml.js';
import { parseManifestYaml } from '../cli/load/yaml.js';
import type { JsonPath } from '../cli/manifest/json-path.js';
import { syntheticManifest } from '../bench/synthetic.mjs';
import { yamlFiles } from './helpers/files.js';

const root = path.resolve(import.meta.dirname, '..');

/** Every path of the data, with the strings among them. */
function paths(value: unknown, at: JsonPath = [], out: { path: JsonPath; text?: string }[] = []) {
  out.push({ path: at, ...(typeof value === 'string' ? { text: value } : {}) });
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

/** Same keys in the same order, same values (NaN and -0 included). */
function sameData(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.join('\0') === kb.join('\0') &&
    ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Undefined when the quick path declined; else the first difference from the yaml package, or ''. */
function difference(source: string): string | undefined {
  const quick = quickParseYaml(source);
  if (!quick) return undefined;
  const slow = parseManifestYaml(source, 'm.yaml');
  if (slow.diagnostics.length > 0)
    return `yaml reports ${slow.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}`;
  if (!sameData(quick.data, slow.data)) return `data differs: ${JSON.stringify(quick.data).slice(0, 200)}`;
  const q = new QuickLocator(quick.data, quick.positions, source, quick.lines);
  for (const { path: p, text } of paths(quick.data)) {
    for (const probe of [p, [...p, 'missing'], [...p, 0]]) {
      for (const key of [false, true]) {
        const a = q.range(probe, { key });
        const b = slow.locator.range(probe, { key });
        if (JSON.stringify(a) !== JSON.stringify(b))
          return `range of ${JSON.stringify(probe)} key=${key}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
      }
    }
    if (text !== undefined && text.length > 0) {
      for (const [s, e] of [
        [0, 1],
        [0, text.length],
        [text.length >> 1, text.length],
      ] as const) {
        const a = q.rangeInString(p, s, e);
        const b = slow.locator.rangeInString(p, s, e);
        if (JSON.stringify(a) !== JSON.stringify(b))
          return `range in ${JSON.stringify(p)} [${s},${e}): ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
      }
    }
  }
  return '';
}

const files = [...yamlFiles(path.join(root, 'examples')), ...yamlFiles(path.join(root, 'test'))];
const originals = files.map((f) => fs.readFileSync(f, 'utf8'));
/** Block-style rewrites: no comments, no flow collections — what the quick path is for. */
const blocks = originals.flatMap((text) => {
  try {
    const data = parseManifestYaml(text, 'x').data;
    return data === undefined ? [] : [stringify(data, { lineWidth: 0, aliasDuplicateObjects: false })];
  } catch {
    return [];
  }
});
/**
 * Flow-style rewrites: collections of scalars as one-line flow collections (`leaves`), or every
 * collection below `depth` nested levels (so flow collections hold flow collections).
 */
function flowRewrite(data: unknown, how: 'leaves' | number): string {
  const doc = new Document(data, { aliasDuplicateObjects: false });
  visit(doc, {
    Node(_k, node, path) {
      if (!isCollection(node) || node.items.length === 0) return;
      const level = path.filter((p) => isCollection(p)).length;
      const leaf = node.items.every((it) => !isCollection(it) && !isCollection((it as { value?: unknown }).value));
      if (how === 'leaves' ? leaf : level >= how) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
const flows = originals.flatMap((text) => {
  try {
    const data = parseManifestYaml(text, 'x').data;
    return data === undefined ? [] : [flowRewrite(data, 'leaves'), flowRewrite(data, 2), flowRewrite(data, 3)];
  } catch {
    return [];
  }
});
const synthetic = [
  syntheticManifest(10),
  syntheticManifest(60, { seed: 7 }),
  syntheticManifest(30, { clean: true, seed: 3 }),
];

describe('quick YAML path', () => {
  test('accepts the block-style manifests it is made for, with the same data and ranges as yaml', () => {
    for (const text of synthetic) expect(difference(text), text.slice(0, 300)).toBe('');
    // Rewrites with block scalars (multi-line text) are left to yaml.
    const accepted = blocks.filter((text) => difference(text) !== undefined);
    expect(accepted.length).toBeGreaterThanOrEqual(50);
    for (const text of accepted) expect(difference(text), text.slice(0, 300)).toBe('');
  });

  test('accepts one-line flow collections, with the same data and ranges as yaml', () => {
    const accepted = flows.filter((text) => difference(text) !== undefined);
    expect(accepted.length).toBeGreaterThanOrEqual(100);
    for (const text of accepted) expect(difference(text), text.slice(0, 300)).toBe('');
    // Nested flow collections, quoting, spacing and comments after them.
    const cases = [
      'a: { b: 1, c: [x, "y", \'z\'], d: {}, e: [], f: { g: { h: [1, [2, [3]]] } } }',
      'a: {b: c}  # note',
      'a: [ a b, c:d, "e: f", -1, -x, http://x.y/z?q=1#f, a#b ]',
      'a: {"k": v, \'l\': w, m n: o}',
      'a: { }',
      'a: [ ]',
      'list:\n  - { a: 1 }\n  - [a, b]  # c\n  - {}',
      'a:\n  b: { x: 1 }\n  c: [1, 2]\nd: 1',
      'a:\n  - b: { x: 1 }\n    c: [y]',
      'a: [1, 2.5, true, null, ~, .inf, 0x1F, 1e3]',
    ];
    for (const c of cases) {
      const text = `version: 1\n${c}\n`;
      expect(difference(text), text).toBe('');
    }
    // What the fast path leaves to yaml (errors, or forms whose ranges it does not model).
    const declined = [
      'a: [b, ]',
      'a: [b, , c]',
      'a: {b}',
      'a: {b: }',
      'a: {b:1}',
      'a: [b: 1]',
      'a: {b: 1, b: 2}',
      'a: [b\n  , c]',
      'a: [b #c\n  ]',
      'a: {b: c d: e}',
      'a: [b] c',
      'a: [b]: c',
      'a: {? b: c}',
      'a: [&x b, *x]',
      'a: {"b" : c}',
      'a: [- b]',
      'a: {1: b}',
      'a: {b: [c}',
    ];
    for (const c of declined) expect(quickParseYaml(`version: 1\n${c}\n`), c).toBeUndefined();
  });

  test('every manifest in the repo: declined, or the same as yaml', () => {
    for (const [i, text] of originals.entries()) {
      const d = difference(text);
      if (d !== undefined) expect(d, files[i]).toBe('');
    }
  });

  test('scalars: the core schema resolves them as yaml does', () => {
    const values = [
      '~',
      'null',
      'Null',
      'NULL',
      'nUll',
      'true',
      'True',
      'TRUE',
      'tRue',
      'false',
      'no',
      'yes',
      'on',
      '0',
      '-0',
      '+12',
      '007',
      '0o17',
      '0o8',
      '0x1F',
      '0X1F',
      '0xg',
      '1.0',
      '1.',
      '.5',
      '-.5',
      '1e3',
      '1E-3',
      '.1e+2',
      '1_000',
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      'NaN',
      'inf',
      '12345678901234567890',
      '999999999999999',
      '9007199254740993',
      '00',
      '200',
      '1.2.3',
      '-',
      '-x',
      '-1',
      'a:b',
      'a,b',
      'a]',
      'x #y',
      'x#y',
      "'s'",
      "'it''s'",
      '"d"',
      '"a\\tb\\u00e9\\\\"',
      '"\\x41"',
      '"é🌦️"',
      '2025-01-01',
      '0.1.0',
    ];
    for (const v of values) {
      const d = difference(
        `version: 1\nv: ${v}\nlist:\n  - ${v}\nnested:\n  list:\n    - a: ${v} # note\n      b: ${v}  # note\n`,
      );
      if (d !== undefined) expect(d, v).toBe('');
      const f = difference(
        `version: 1\nmap: { v: ${v}, w: [${v}, ${v} ] }\nlist:\n  - [ ${v} ]\n  - { a: ${v} } # note\n`,
      );
      if (f !== undefined) expect(f, v).toBe('');
    }
  });

  test('comment lines anywhere: declined, or the same as yaml', () => {
    let a = 7;
    const r = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let accepted = 0;
    const seeds = [...blocks, ...flows];
    for (let n = 0; n < 2500; n++) {
      const lines = seeds[n % seeds.length]!.split('\n');
      for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
        const i = Math.floor(r() * (lines.length + 1));
        lines.splice(i, 0, `${' '.repeat(Math.floor(r() * 7))}# comment ${k}`);
      }
      const text = lines.join('\n');
      const d = difference(text);
      if (d === undefined) continue;
      accepted++;
      expect(d, text).toBe('');
    }
    expect(accepted).toBeGreaterThan(500);
  });

  test('seeded mutants: declined, or the same as yaml', () => {
    let a = 20261129;
    const r = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const JUNK = [
      '#',
      ' #',
      '{}',
      '[]',
      ' {} #',
      ':',
      ': ',
      '-',
      '- ',
      '"',
      "'",
      '&a ',
      '*a',
      '!',
      '|',
      '>',
      '[',
      '{',
      '}',
      ']',
      '?',
      '%',
      '@',
      '`',
      ',',
      ', ',
      ' ,',
      ',,',
      'a: ',
      'a, ',
      '{ a: b }',
      '[a]',
      '\\',
      '\t',
      '\r',
      ' ',
      '  ',
      'é',
      '~',
      '<<: ',
      '__proto__: ',
      '---',
      '...',
    ];
    const seeds = [...blocks, ...flows, ...synthetic.slice(0, 1), synthetic[2]!];
    let accepted = 0;
    for (let n = 0; n < 5000; n++) {
      const lines = seeds[Math.floor(r() * seeds.length)]!.split('\n');
      const i = Math.floor(r() * lines.length);
      const s = lines[i]!;
      switch (Math.floor(r() * 6)) {
        case 5:
          lines[i] = s + (r() < 0.5 ? ' # note' : '  #');
          break;
        case 0:
          lines.splice(i, 1);
          break;
        case 1:
          lines.splice(i, 0, s);
          break;
        case 2:
          lines[i] =
            (r() < 0.5 ? ' '.repeat(1 + Math.floor(r() * 3)) : '') + s.replace(r() < 0.5 ? /^ {1,2}/ : /$^/, '');
          break;
        case 3:
          lines.splice(i, 0, ' '.repeat(Math.floor(r() * 6)) + (r() < 0.5 ? '# note' : ''));
          break;
        default: {
          const k = Math.floor(r() * (s.length + 1));
          lines[i] = s.slice(0, k) + JUNK[Math.floor(r() * JUNK.length)] + s.slice(k);
        }
      }
      const text = lines.join('\n');
      const d = difference(text);
      if (d === undefined) continue;
      accepted++;
      expect(d, text).toBe('');
    }
    expect(accepted).toBeGreaterThan(800); // the mutants exercise the quick path, not only the fallback
  });

  test('MCPGEN_QUICK_YAML=0 turns the quick path off: the yaml package reads the manifest, to the same data', () => {
    const file = path.join(root, 'examples/weather/mcpgen.yaml');
    const quick = loadManifest(file);
    process.env.MCPGEN_QUICK_YAML = '0';
    try {
      const full = loadManifest(file);
      expect(quick.manifest?.aliasFree).toBe(true);
      expect(full.manifest?.aliasFree).toBeUndefined();
      expect(full.manifest?.data).toEqual(quick.manifest?.data);
    } finally {
      delete process.env.MCPGEN_QUICK_YAML;
    }
  });
});
