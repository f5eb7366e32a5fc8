/**
 * A local `$ref` (`#/properties/message/anyOf/0`) is a JSON Pointer (RFC 6901) from the root of
 * the schema it is written in. Only steps through schema keywords are followed: JSON Schema
 * 2020-12 §9.4.2 leaves a reference into anything else (an unknown keyword, `enum`, `default`)
 * undefined, and such a target could not be typed or sampled.
 */
import { isRecord } from '../manifest/json-path.js';
import { SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_ONE } from './json-schema-walk.js';

export type PointerTarget =
  | { ok: true; path: (string | number)[]; schema: unknown }
  /** `at`: how many segments resolved; `keys`: what the failing step could have named. */
  | { ok: false; reason: 'missing' | 'not-schema'; at: number; keys: string[] };

/** RFC 6901 §4: an array index is `0` or digits without a leading zero. */
const INDEX = /^(0|[1-9][0-9]*)$/;

const MAPS = new Set(SCHEMA_MAPS);
const ONE = new Set(SCHEMA_ONE);
const LISTS = new Set(SCHEMA_LISTS);

/** Follow decoded pointer segments through schema keywords of `root`. */
export function pointerTarget(root: unknown, segs: readonly string[]): PointerTarget {
  const path: (string | number)[] = [];
  let cur: unknown = root;
  let i = 0;
  const fail = (reason: 'missing' | 'not-schema', keys: string[]): PointerTarget => ({
    ok: false,
    reason,
    at: i,
    keys,
  });
  while (i < segs.length) {
    if (!isRecord(cur)) return fail('missing', []);
    const key = segs[i]!;
    if (!Object.hasOwn(cur, key)) return fail('missing', Object.keys(cur));
    const value = cur[key];
    if (MAPS.has(key) && isRecord(value)) {
      const name = segs[i + 1];
      if (name === undefined) return fail('not-schema', []);
      i++;
      if (!Object.hasOwn(value, name)) return fail('missing', Object.keys(value));
      path.push(key, name);
      cur = value[name];
    } else if (LISTS.has(key) && Array.isArray(value)) {
      const index = segs[i + 1];
      if (index === undefined) return fail('not-schema', []);
      i++;
      if (!INDEX.test(index) || Number(index) >= value.length)
        return fail(
          'missing',
          value.map((_, n) => String(n)),
        );
      path.push(key, Number(index));
      cur = value[Number(index)];
    } else if (ONE.has(key)) {
      path.push(key);
      cur = value;
    } else {
      return fail('not-schema', []);
    }
    i++;
  }
  return isRecord(cur) || typeof cur === 'boolean' ? { ok: true, path, schema: cur } : fail('not-schema', []);
}

/** `#` + the RFC 6901 pointer of a path, escaped for a URI fragment. */
export function pointerRef(path: readonly (string | number)[]): string {
  let out = '#';
  for (const p of path)
    out += `/${encodeURIComponent(String(p).replace(/~/g, '~0').replace(/\//g, '~1')).replace(/%24/g, '$')}`;
  return out;
}
