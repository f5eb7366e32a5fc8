/**
 * printLiteral must print exactly what prettier prints, so generated data can skip prettier.
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { PRETTIER_OPTIONS } from '../cli/format/style.js';
import { Code, printJson, printLiteral, printString } from '../cli/format/literal.js';
// @ts-expect-error: a plain .mjs module without types
import { syntheticManifest } from '../bench/synthetic.mjs';
import { parse } from 'yaml';

const fmt = (src: string) => prettier.format(src, { ...PRETTIER_OPTIONS, parser: 'typescript' });

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const STRINGS = ['', 'a', "it's", 'say "hi"', `both ' and "`, 'back\\slash', 'new\nline', 'tab\t', '\u2028', '${x}', '`tick`', '*/', 'x'.repeat(120), 'émoji 🎉', '</script>', '日本語の説明です。'.repeat(3), 'A text value', 'x'.repeat(40), 'combining e\u0301 marks', '한국어 설명 ＡＢＣ！', 'Кириллица и العربية', '❤️ ©2026 ™ 🇯🇵 👩‍💻', '𠮷野家'];
const KEYS = ['a', 'type', 'long_property_name_here', 'with-dash', '1st', '$ref', 'has space', 'default', 'x.y', '', 'k'.repeat(88), 'k'.repeat(93), 'k'.repeat(97), 'k'.repeat(120)];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 5 : 8));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return [0, 1, -1, 3.5, 1e21, 9007199254740991, 0.0001, 123456789][Math.floor(r() * 8)];
    case 3:
    case 4: return STRINGS[Math.floor(r() * STRINGS.length)];
    case 5: return Array.from({ length: Math.floor(r() * 12) }, () => randomValue(r, depth + 1));
    case 6: return Array.from({ length: Math.floor(r() * 40) }, () => Math.floor(r() * 100000) - 500);
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]!] = randomValue(r, depth + 1);
      return o;
    }
  }
}

async function expectStable(value: unknown) {
  for (const key of ['k', 'someKey']) {
    const nested = printLiteral({ [key]: value, deeper: { aLongerPropertyName: value } }, 0, 'export const a = '.length, ';');
    const src = `export const a = ${nested};\n`;
    expect(await fmt(src)).toBe(src);
  }
}

describe('printLiteral is prettier-stable', () => {
  it('matrices, also nested', async () => {
    for (const v of [[[1, 2], [3, 4]], [[[1, 2], [3, 4]]], [[1], [2]], [[1, 2], 'x'], { m: [['a', 'b'], ['c', 'd']] }]) await expectStable(v);
  });

  it('strings', async () => {
    for (const s of STRINGS) await expectStable(s);
    expect(printString(`it's`)).toBe(`"it's"`);
    expect(printString('say "hi"')).toBe(`'say "hi"'`);
  });

  it('objects on one line when they fit, lists of records broken, wide characters measured as prettier does', async () => {
    const leaf = { type: 'string', minLength: 1, maxLength: 200, description: 'A text value' };
    for (let w = 1; w <= 90; w += 4) {
      const text = 'x'.repeat(w);
      const wide = ['日本', 'ＡＢ', '한국', 'é', '👍'][w % 5]!.repeat(Math.ceil(w / 4));
      await expectStable({ a: { type: 'string', description: text }, b: { type: 'string', description: wide } });
      await expectStable([{ a: text }, { b: 1 }]);
      await expectStable([{ a: text, b: 1 }, { c: 2, d: 3 }]);
      await expectStable([{ a: text, b: 1 }, [1, 2]]);
      await expectStable({ properties: { [text]: leaf, nested: { inner: { deeper: { text } } } }, required: [text, wide] });
    }
  });

  it('random JSON values', async () => {
    const r = rng(Number(process.env.SEED ?? 7));
    for (let i = 0; i < Number(process.env.N ?? 400); i++) await expectStable(randomValue(r, 0));
  });

  it('code references, at every width around the line end and under keys of every width', async () => {
    for (let n = 1; n <= 100; n += 3) {
      const ref = new Code(`jsonSchemas.${'x'.repeat(n)}`);
      for (const key of ['a', 'abcd', 'abcde', 'inputSchema', 'k'.repeat(40)]) await expectStable({ [key]: ref, list: [ref, ref], tool: { name: 't', [key]: ref } });
    }
  });

  it('real schemas (synthetic 60-tool manifest)', async () => {
    const m = parse(syntheticManifest(60)) as { tools: Record<string, { input: unknown; output?: unknown }> };
    for (const t of Object.values(m.tools)) {
      await expectStable(t.input);
      if (t.output) await expectStable(t.output);
    }
  });
});

describe('printJson is what prettier prints for JSON', () => {
  it('random JSON documents', async () => {
    const r = rng(Number(process.env.SEED ?? 11));
    for (let i = 0; i < Number(process.env.N ?? 300); i++) {
      const doc = { '//': 'header', value: randomValue(r, 0), list: [randomValue(r, 1), randomValue(r, 2)] };
      const text = printJson(doc);
      expect(await prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'json' })).toBe(text);
      expect(JSON.parse(text)).toEqual(doc);
    }
  });
  it('random documents of objects only (printed by JSON.stringify), and the same with one array', async () => {
    // Arrays become objects keyed by index; non-integers become strings: what the direct path takes.
    const objectsOnly = (v: unknown): unknown =>
      Array.isArray(v)
        ? Object.fromEntries(v.map((e, i) => [`k${i}`, objectsOnly(e)]))
        : typeof v === 'number' && !Number.isSafeInteger(v)
          ? String(v)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, e]) => [k, objectsOnly(e)]))
            : v;
    const r = rng(Number(process.env.SEED ?? 12));
    for (let i = 0; i < Number(process.env.N ?? 300); i++) {
      const doc = objectsOnly({ '//': 'header', value: randomValue(r, 0), empty: {}, n: 12, none: null }) as Record<string, unknown>;
      const text = printJson(doc);
      expect(await prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'json' })).toBe(text);
      expect(JSON.parse(text)).toEqual(doc);
      // An array anywhere takes the printer; the rest of the document prints the same.
      const withArray = printJson({ ...doc, list: [1, 2] });
      expect(withArray).toBe(`${text.slice(0, -3)},\n  "list": [1, 2]\n}\n`);
    }
  });
});
