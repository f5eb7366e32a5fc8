/**
 * The quick meta-schema test (cli/validate/schema/meta-quick.ts) may only say "valid" where the
 * JSON Schema 2020-12 meta-schema (the precompiled ajv validator) finds nothing: checked on every
 * embedded schema of the repo's manifests and the benchmark manifests, and on seeded mutants of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { syntheticManifest } from '../bench/synthetic.mjs';
import { yamlFiles } from './helpers/files.js';
import { embeddedSchemas, walkSchema } from '../cli/validate/json-schema-walk.js';
import { isRecord } from '../cli/manifest/json-path.js';
import { validateAgainstMetaSchema } from '../cli/validate/schema/ajv.js';
import { surelyValidNode, surelyValidSchema } from '../cli/validate/schema/meta-quick.js';

const root = path.resolve(import.meta.dirname, '..');


function schemasOf(text: string): unknown[] {
  try {
    return embeddedSchemas(parse(text, { uniqueKeys: false, maxAliasCount: 1000, logLevel: 'error' })).map((s) => s.schema);
  } catch {
    return [];
  }
}

const texts = [
  ...[...yamlFiles(path.join(root, 'examples')), ...yamlFiles(path.join(root, 'test'))].map((f) => fs.readFileSync(f, 'utf8')),
  syntheticManifest(20),
  syntheticManifest(20, { clean: true }),
];
const seeds = texts.flatMap(schemasOf);

/** Every subschema-like object and value inside a schema, to graft elsewhere. */
function parts(v: unknown, out: unknown[] = []): unknown[] {
  out.push(v);
  if (Array.isArray(v)) v.forEach((x) => parts(x, out));
  else if (typeof v === 'object' && v !== null) Object.values(v).forEach((x) => parts(x, out));
  return out;
}

/** surelyValidSchema as checkSchemaNodes computes it: surelyValidNode at every node walkSchema visits. */
function surelyValidByWalk(s: unknown): boolean {
  let ok = isRecord(s);
  walkSchema(s, [], (node, _path, depth) => {
    if (ok) ok = surelyValidNode(node, depth);
  });
  return ok;
}

const agrees = (s: unknown): string => {
  if (isRecord(s) && surelyValidByWalk(s) !== surelyValidSchema(s)) return `walk disagrees: ${JSON.stringify(s).slice(0, 400)}`;
  return surelyValidSchema(s) && validateAgainstMetaSchema(s).length > 0 ? JSON.stringify(s).slice(0, 400) : '';
};

describe('quick meta-schema test', () => {
  test('accepts only what the meta-schema accepts, and most real schemas', () => {
    expect(seeds.length).toBeGreaterThan(100);
    let accepted = 0;
    for (const s of seeds) {
      expect(agrees(s)).toBe('');
      if (surelyValidSchema(s)) accepted++;
    }
    expect(accepted).toBeGreaterThan(seeds.length / 2);
    for (const s of schemasOf(syntheticManifest(20, { clean: true }))) expect(surelyValidSchema(s)).toBe(true);
  });

  test('keyword values of every kind, valid and not', () => {
    const values: unknown[] = [null, true, false, 0, -1, 1, 1.5, -0, 2 ** 53, Infinity, -Infinity, NaN, '', 'x', 'string', 'object', 'integer', [], ['x'], ['string', 'null'], ['string', 'string'], [1], [{}], [true], {}, { type: 'string' }, { a: 1 }, { a: { type: 'nope' } }];
    const keys = ['type', 'description', 'format', 'pattern', '$ref', 'default', 'const', 'enum', 'examples', 'minimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxItems', 'maxContains', 'uniqueItems', 'deprecated', 'required', 'properties', '$defs', 'dependentSchemas', 'patternProperties', 'additionalProperties', 'items', 'prefixItems', 'allOf', 'anyOf', 'not', 'if', 'contentSchema', 'unevaluatedProperties', '$schema', '$id', '$anchor', '$dynamicRef', 'dependentRequired', 'definitions', 'dependencies', 'x-custom'];
    for (const k of keys) {
      for (const v of values) {
        expect(agrees({ [k]: v }), `${k}: ${JSON.stringify(v)}`).toBe('');
        expect(agrees({ type: 'object', properties: { a: { [k]: v } } }), `nested ${k}: ${JSON.stringify(v)}`).toBe('');
      }
    }
  });

  test('seeded mutants: accepted only when the meta-schema agrees', () => {
    let a = 20261130;
    const r = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pool = seeds.flatMap((s) => parts(s));
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const KEYS = ['type', 'items', 'properties', 'required', 'enum', 'minimum', 'maxLength', 'allOf', 'not', 'default', 'pattern', '$ref', 'format', 'additionalProperties', 'uniqueItems', 'multipleOf', 'prefixItems', '$defs', 'x'];
    let accepted = 0;
    let invalid = 0;
    for (let n = 0; n < 4000; n++) {
      const s = structuredClone(pick(seeds));
      // Mutate one object somewhere inside: set, replace or delete a keyword.
      const objects = parts(s).filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x));
      const o = pick(objects);
      const k = r() < 0.5 ? pick(KEYS) : pick(Object.keys(o).concat(KEYS));
      if (r() < 0.2) delete o[k];
      else o[k] = structuredClone(pick(pool));
      expect(agrees(s)).toBe('');
      if (surelyValidSchema(s)) accepted++;
      if (validateAgainstMetaSchema(s).length > 0) invalid++;
    }
    expect(accepted).toBeGreaterThan(400);
    expect(invalid).toBeGreaterThan(400); // the mutants break schemas, not only rearrange them
  });
});
