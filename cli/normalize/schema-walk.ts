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
 * Key order is kept exactly.
 */
export function mapSchema(
  schema: unknown,
  visit: (node: JsonSchema, recurse: (s: unknown) => unknown) => unknown | undefined,
): unknown {
  const recurse = (s: unknown): unknown => {
    if (!isObject(s)) return s; // boolean schemas and non-schemas pass through
    const replaced = visit(s, recurse);
    if (replaced !== undefined) return replaced;
    const out: [string, unknown][] = [];
    for (const [k, v] of Object.entries(s)) {
      if (MAP_KEYWORDS.has(k) && isObject(v)) {
        out.push([k, Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, recurse(pv)]))]);
      } else if (ARRAY_KEYWORDS.has(k) && Array.isArray(v)) {
        out.push([k, v.map(recurse)]);
      } else if (SCHEMA_KEYWORDS.has(k)) {
        out.push([k, Array.isArray(v) ? v.map(recurse) : recurse(v)]);
      } else {
        out.push([k, v]);
      }
    }
    // fromEntries defines own properties: a property named `__proto__` stays a property.
    return Object.fromEntries(out);
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
