/**
 * A JSON-Schema-aware deep map: visits subschemas only where a keyword holds a schema, so a
 * property literally named `$ref`, or a `$ref` key inside `const`/`default`/`examples`, is data and
 * is never rewritten.
 */
import type { JsonSchema } from './ir.js';

const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
  'items', // a schema, or (draft-07) an array of schemas
]);

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Rebuild `schema`, letting `visit` replace any subschema (return undefined to keep walking into it).
 * Key order is kept exactly. Copy on write: a node none of whose subschemas changed is returned as
 * is (the result shares it with the input), so a schema without anything to rewrite costs a walk,
 * not a copy. Neither input nor result is ever mutated. `path` is where the visited node sits
 * (from `base`), valid only during the call; `recurse` walks a value as if it sat there.
 */
export function mapSchema(
  schema: unknown,
  visit: (
    node: JsonSchema,
    recurse: (s: unknown) => unknown,
    path: readonly (string | number)[],
  ) => unknown | undefined,
  base: readonly (string | number)[] = [],
): unknown {
  const path: (string | number)[] = [...base];
  const mapArray = (v: unknown[]): unknown[] => {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      const n = recurse(v[i]);
      path.pop();
      if (n !== v[i] && !out) out = v.slice(0, i);
      if (out) out.push(n);
    }
    return out ?? v;
  };
  const mapRecord = (v: Record<string, unknown>): Record<string, unknown> => {
    let out: [string, unknown][] | null = null;
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      path.push(k);
      const n = recurse(v[k]);
      path.pop();
      if (n !== v[k] && !out) out = keys.slice(0, i).map((p) => [p, v[p]]);
      if (out) out.push([k, n]);
    }
    // fromEntries defines own properties: a property named `__proto__` stays a property.
    return out ? Object.fromEntries(out) : v;
  };
  const recurse = (s: unknown): unknown => {
    if (!isObject(s)) return s; // boolean schemas and non-schemas pass through
    const replaced = visit(s, recurse, path);
    if (replaced !== undefined) return replaced;
    const keys = Object.keys(s);
    let out: [string, unknown][] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = s[k];
      let n = v;
      if (MAP_KEYWORDS.has(k)) {
        path.push(k);
        if (isObject(v)) n = mapRecord(v);
        path.pop();
      } else if (ARRAY_KEYWORDS.has(k)) {
        path.push(k);
        if (Array.isArray(v)) n = mapArray(v);
        path.pop();
      } else if (SCHEMA_KEYWORDS.has(k)) {
        path.push(k);
        n = Array.isArray(v) ? mapArray(v) : recurse(v);
        path.pop();
      }
      if (n !== v && !out) out = keys.slice(0, i).map((p) => [p, s[p]]);
      if (out) out.push([k, n]);
    }
    return out ? Object.fromEntries(out) : s;
  };
  return recurse(schema);
}

/** Every `$ref` string in schema positions. */
export function collectRefs(schema: unknown): string[] {
  const refs: string[] = [];
  mapSchema(schema, (node) => {
    if (typeof node.$ref === 'string') refs.push(node.$ref);
    return undefined;
  });
  return refs;
}

export const SHARED_PREFIX = '#/schemas/';

/** `#/schemas/City` → `City`; anything else → null. */
export function sharedRefName(ref: string): string | null {
  if (!ref.startsWith(SHARED_PREFIX)) return null;
  const name = ref.slice(SHARED_PREFIX.length);
  return name.includes('/') ? null : decodeURIComponent(name);
}
