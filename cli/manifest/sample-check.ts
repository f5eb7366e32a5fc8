/**
 * A quick, conservative check of a sample against its schema, so the common case needs no ajv
 * compile (≈ 3–8 ms per schema: seconds for a 1000-tool manifest). It answers only where it is
 * sure: a keyword it does not implement exactly as ajv does (formats, `$ref`, `not`, conditionals,
 * dependent schemas, …) makes it answer `undefined`, and the caller asks ajv. A test compares it
 * with ajv on random schemas and values.
 */

import { isRecord as isObject } from './json-path.js';

type Schema = Record<string, unknown>;

/** Keywords that never change what is valid. */
export const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
]);

export function typeOk(type: string, v: unknown): boolean | undefined {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      return undefined;
  }
}

/** Length in code points, as JSON Schema counts it, without building an array of them. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) n--, i++;
    }
  }
  return n;
}

/** JSON equality, as `enum` and `const` compare. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal((a as Schema)[k], (b as Schema)[k]));
}

/** true / false when sure, undefined when ajv must decide. */
export function quickCheck(schema: unknown, v: unknown): boolean | undefined {
  if (schema === true) return true;
  if (schema === false) return false;
  if (!isObject(schema)) return undefined;
  let ok = true;
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    let r: boolean | undefined;
    switch (key) {
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        const results = types.map((t) => (typeof t === 'string' ? typeOk(t, v) : undefined));
        r = results.includes(true) ? true : results.includes(undefined) ? undefined : false;
        break;
      }
      case 'enum':
        r = Array.isArray(value) ? value.some((e) => equal(e, v)) : undefined;
        break;
      case 'const':
        r = equal(value, v);
        break;
      case 'minLength':
        r = typeof v !== 'string' ? true : typeof value === 'number' ? codePoints(v) >= value : undefined;
        break;
      case 'maxLength':
        r = typeof v !== 'string' ? true : typeof value === 'number' ? codePoints(v) <= value : undefined;
        break;
      case 'minimum':
        r = typeof v !== 'number' ? true : typeof value === 'number' ? v >= value : undefined;
        break;
      case 'maximum':
        r = typeof v !== 'number' ? true : typeof value === 'number' ? v <= value : undefined;
        break;
      case 'exclusiveMinimum':
        r = typeof v !== 'number' ? true : typeof value === 'number' ? v > value : undefined;
        break;
      case 'exclusiveMaximum':
        r = typeof v !== 'number' ? true : typeof value === 'number' ? v < value : undefined;
        break;
      case 'minItems':
        r = !Array.isArray(v) ? true : typeof value === 'number' ? v.length >= value : undefined;
        break;
      case 'maxItems':
        r = !Array.isArray(v) ? true : typeof value === 'number' ? v.length <= value : undefined;
        break;
      case 'minProperties':
        r = !isObject(v) ? true : typeof value === 'number' ? Object.keys(v).length >= value : undefined;
        break;
      case 'maxProperties':
        r = !isObject(v) ? true : typeof value === 'number' ? Object.keys(v).length <= value : undefined;
        break;
      case 'required':
        r = !isObject(v)
          ? true
          : Array.isArray(value)
            ? value.every((k) => typeof k === 'string' && Object.hasOwn(v, k))
            : undefined;
        break;
      case 'items':
        // A tuple form (draft-07 `items: [...]`) is left to ajv.
        r = !Array.isArray(v) ? true : Array.isArray(value) ? undefined : all(v.map((e) => quickCheck(value, e)));
        break;
      case 'properties':
        r = !isObject(v)
          ? true
          : isObject(value)
            ? all(Object.entries(value).map(([k, s]) => (Object.hasOwn(v, k) ? quickCheck(s, v[k]) : true)))
            : undefined;
        break;
      case 'additionalProperties': {
        if (!isObject(v)) {
          r = true;
          break;
        }
        // Extra keys are only judged when `properties` is the sole other source of known keys.
        if (schema.patternProperties !== undefined) {
          r = undefined;
          break;
        }
        const known = isObject(schema.properties) ? schema.properties : {};
        r = all(
          Object.keys(v)
            .filter((k) => !Object.hasOwn(known, k))
            .map((k) => quickCheck(value, v[k])),
        );
        break;
      }
      case 'anyOf':
        r = Array.isArray(value) ? any(value.map((s) => quickCheck(s, v))) : undefined;
        break;
      case 'allOf':
        r = Array.isArray(value) ? all(value.map((s) => quickCheck(s, v))) : undefined;
        break;
      case 'oneOf': {
        if (!Array.isArray(value)) {
          r = undefined;
          break;
        }
        const results = value.map((s) => quickCheck(s, v));
        r = results.includes(undefined) ? undefined : results.filter((x) => x).length === 1;
        break;
      }
      default:
        r = undefined; // format, pattern, $ref, not, if/then/else, uniqueItems, … : ajv decides
    }
    if (r === false) return false;
    if (r === undefined) ok = false;
  }
  return ok ? true : undefined;
}

function all(results: (boolean | undefined)[]): boolean | undefined {
  if (results.includes(false)) return false;
  return results.includes(undefined) ? undefined : true;
}

function any(results: (boolean | undefined)[]): boolean | undefined {
  if (results.includes(true)) return true;
  return results.includes(undefined) ? undefined : false;
}
