import { isRecord, type JsonPath } from '../manifest/json-path.js';

/** An embedded JSON Schema root in the manifest. A local JSON Pointer (`$ref: '#/…'`) inside it resolves against it. */
export interface EmbeddedSchema {
  path: JsonPath;
  schema: Record<string, unknown>;
}

/**
 * Every embedded schema root: shared `schemas`, tool `input`/`output`, template `params`.
 * Non-objects are skipped: the manifest schema already reports them.
 */
export function embeddedSchemas(data: unknown): EmbeddedSchema[] {
  const out: EmbeddedSchema[] = [];
  if (!isRecord(data)) return out;
  const add = (path: JsonPath, v: unknown): void => {
    if (isRecord(v)) out.push({ path, schema: v });
  };
  for (const [name, s] of recordEntries(data.schemas)) add(['schemas', name], s);
  for (const [name, tool] of recordEntries(data.tools)) {
    if (!isRecord(tool)) continue;
    add(['tools', name, 'input'], tool.input);
    add(['tools', name, 'output'], tool.output);
  }
  for (const [name, t] of recordEntries(data.resourceTemplates)) {
    if (!isRecord(t)) continue;
    for (const [v, s] of recordEntries(t.params)) add(['resourceTemplates', name, 'params', v], s);
  }
  return out;
}

export function recordEntries(v: unknown): [string, unknown][] {
  return isRecord(v) ? Object.entries(v) : [];
}

/** Keywords whose value is a map of subschemas. */
export const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one subschema. */
export const SCHEMA_ONE = [
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'additionalItems',
  'contentSchema',
  'items',
];
/** Keywords whose value is a list of subschemas (`items` as a list is draft-07 tuple syntax). */
export const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords that apply their subschemas to the same instance, so a `$ref` cycle through them never ends. */
export const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
export const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];

/**
 * Visit a schema and every subschema reachable through schema keywords (never through data-valued
 * keywords like `const`, `enum`, `default`, `examples`, so a property named `$ref` is not a ref).
 * `path` is only valid during the call (one array, extended and shortened as the walk goes: large
 * manifests have hundreds of thousands of subschemas); copy it to keep it.
 */
export function walkSchema(
  schema: unknown,
  path: JsonPath,
  visit: (node: Record<string, unknown>, path: JsonPath, depth: number) => void,
): void {
  walk(schema, [...path], visit, 0);
}

/** A bit per schema keyword: a node's own keys are read once, and only the keywords among them looked up. */
const KEYWORD_BITS = new Map<string, number>();
for (const k of [...SCHEMA_MAPS, ...SCHEMA_ONE, ...SCHEMA_LISTS])
  if (!KEYWORD_BITS.has(k)) KEYWORD_BITS.set(k, 1 << KEYWORD_BITS.size);
const bit = (k: string): number => KEYWORD_BITS.get(k)!;

/** The keywords among a node's keys, as bits. Most subschemas are leaves (`{ type: string }`): then 0. */
function keywordsOf(schema: Record<string, unknown>): number {
  let mask = 0;
  // Reading each of twenty keywords from objects of a thousand shapes is slower than listing their few keys.
  for (const k in schema) mask |= KEYWORD_BITS.get(k) ?? 0;
  return mask;
}

/** `depth`: subschemas between `schema` and the root the walk started at. */
function walk(
  schema: unknown,
  path: (string | number)[],
  visit: (node: Record<string, unknown>, path: JsonPath, depth: number) => void,
  depth: number,
): void {
  if (!isRecord(schema)) return;
  visit(schema, path, depth);
  const mask = keywordsOf(schema);
  if (mask === 0) return;
  for (const k of SCHEMA_MAPS) {
    if ((mask & bit(k)) === 0) continue;
    const map = schema[k];
    if (!isRecord(map)) continue;
    for (const name in map) {
      if (!Object.hasOwn(map, name)) continue;
      path.push(k, name);
      walk(map[name], path, visit, depth + 1);
      path.length -= 2;
    }
  }
  for (const k of SCHEMA_ONE) {
    if ((mask & bit(k)) === 0 || !isRecord(schema[k])) continue;
    path.push(k);
    walk(schema[k], path, visit, depth + 1);
    path.length -= 1;
  }
  for (const k of SCHEMA_LISTS) {
    if ((mask & bit(k)) === 0) continue;
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      path.push(k, i);
      walk(list[i], path, visit, depth + 1);
      path.length -= 2;
    }
  }
}

/** `$ref`s applied to the same instance as `schema` itself (directly or through allOf/anyOf/…), with their paths. */
export function inPlaceRefs(schema: unknown, path: JsonPath): { ref: string; path: JsonPath }[] {
  if (!isRecord(schema)) return [];
  const out: { ref: string; path: JsonPath }[] = [];
  if (typeof schema.$ref === 'string') out.push({ ref: schema.$ref, path: [...path, '$ref'] });
  for (const k of IN_PLACE_ONE) out.push(...inPlaceRefs(schema[k], [...path, k]));
  for (const k of IN_PLACE_LISTS) {
    const list = schema[k];
    if (Array.isArray(list)) list.forEach((sub, i) => out.push(...inPlaceRefs(sub, [...path, k, i])));
  }
  for (const [name, sub] of recordEntries(schema.dependentSchemas))
    out.push(...inPlaceRefs(sub, [...path, 'dependentSchemas', name]));
  return out;
}
