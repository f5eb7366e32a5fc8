/**
 * JSON Schema → a small TypeScript type tree (print.ts lays it out). The schema is one entry of the
 * combined types document (cli/render/types.ts): its `$ref`s already point at `#/$defs/<TypeName>`.
 *
 * The type is the one a TypeScript engineer would write for what the schema accepts:
 * - `type` lists, `anyOf`/`oneOf` and `enum` are unions, `allOf` an intersection, `const`/`enum`
 *   members literal types; `integer` is `number`;
 * - an object lists its properties (`?` unless required); `additionalProperties` true or a schema and
 *   `patternProperties` add an index signature; without `additionalProperties` any other key is
 *   valid, so the signature is `[k: string]: unknown`; only `additionalProperties: false` closes it;
 * - tuples (`prefixItems`, draft-07 `items: [...]`) are a union of the lengths `minItems`,
 *   `maxItems` and the rest (`items`/`additionalItems`) allow;
 * - keywords that only constrain values (`minLength`, `required` alone, `if`, `not`, `format`, …)
 *   add nothing, so a schema made only of them is `unknown` (never `any`).
 */
import type { JsonSchema } from '../../normalize/ir.js';
import { isObject } from '../../normalize/schema-walk.js';

export interface Member {
  /** Property name as on the wire; null for the index signature. */
  name: string | null;
  optional: boolean;
  /** JSDoc lines (description, `@deprecated`), empty when there is nothing to say. */
  doc: string[];
  type: TypeNode;
}

export type TypeNode =
  | { kind: 'name'; text: string }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'object'; members: Member[] }
  | { kind: 'array'; element: TypeNode }
  | { kind: 'tuple'; elements: TypeNode[]; rest: TypeNode | null }
  | { kind: 'union'; members: TypeNode[] }
  | { kind: 'intersection'; members: TypeNode[] };

const UNKNOWN: TypeNode = { kind: 'name', text: 'unknown' };
const NEVER: TypeNode = { kind: 'name', text: 'never' };
const name = (text: string): TypeNode => ({ kind: 'name', text });
// Shared: type trees are only read (print.ts), never changed.
const STRING = name('string');
const BOOLEAN = name('boolean');
const NULL = name('null');
const NUMBER = name('number');

const isUnknown = (t: TypeNode) => t.kind === 'name' && t.text === 'unknown';

function literal(value: string | number | boolean | null): TypeNode {
  return value === null ? name('null') : { kind: 'literal', value };
}

const isPrimitive = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** JSDoc lines of a schema: its description, then `@deprecated`. */
export function schemaDoc(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  const text = schema.description;
  if (typeof text === 'string' && text.trim() !== '')
    lines.push(...(/[\r\n\u2028\u2029]/.test(text) ? text.split(/\r\n|[\r\n\u2028\u2029]/) : [text]));
  if (schema.deprecated === true) lines.push('@deprecated');
  return lines;
}

/**
 * A union with nested unions flattened and repeated names and literals dropped (`enum: [1, 1]`,
 * `type: [integer, number]`); `unknown` absorbs all.
 */
export function union(members: TypeNode[]): TypeNode {
  const out: TypeNode[] = [];
  const seen = new Set<string>();
  if (members.length === 1 && members[0]!.kind !== 'union') return members[0]!;
  const all = members.some((m) => m.kind === 'union')
    ? members.flatMap((m) => (m.kind === 'union' ? m.members : [m]))
    : members;
  for (const m of all) {
    if (isUnknown(m)) return UNKNOWN;
    const key = m.kind === 'name' ? m.text : m.kind === 'literal' ? `${typeof m.value}:${m.value}` : null;
    if (key !== null) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(m);
  }
  if (out.length === 0) return NEVER;
  return out.length === 1 ? out[0]! : { kind: 'union', members: out };
}

function intersection(members: TypeNode[]): TypeNode {
  const flat = members.flatMap((m) => (m.kind === 'intersection' ? m.members : [m])).filter((m) => !isUnknown(m));
  if (flat.length === 0) return UNKNOWN;
  return flat.length === 1 ? flat[0]! : { kind: 'intersection', members: flat };
}

/** The TypeScript type of a schema. */
export function schemaType(schema: unknown): TypeNode {
  if (schema === false) return NEVER;
  if (!isObject(schema)) return UNKNOWN;
  // Most schemas combine nothing: their own type is the type.
  if (
    typeof schema.$ref !== 'string' &&
    !Array.isArray(schema.anyOf) &&
    !Array.isArray(schema.oneOf) &&
    !Array.isArray(schema.allOf)
  )
    return ownType(schema) ?? UNKNOWN;
  const parts: TypeNode[] = [];
  if (typeof schema.$ref === 'string') {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    if (m) parts.push(name(m[1]!));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) parts.push(union(list.map(schemaType)));
  }
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map(schemaType));
  const own = ownType(schema);
  // `{ type: object, oneOf: [...] }`: the branches say what the object holds, a free-form
  // `{ [k: string]: unknown } &` in front of them would only add noise.
  if (own && !(parts.length > 0 && isFreeForm(own))) parts.unshift(own);
  return parts.length === 1 ? parts[0]! : intersection(parts);
}

function isFreeForm(t: TypeNode): boolean {
  return t.kind === 'object' && t.members.length === 1 && t.members[0]!.name === null && isUnknown(t.members[0]!.type);
}

/** What `const`, `enum` and `type` (or keywords implying a type) say; null when they say nothing. */
function ownType(schema: JsonSchema): TypeNode | null {
  if ('const' in schema && isPrimitive(schema.const)) return literal(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isPrimitive))
    return union(schema.enum.map(literal));
  let one: unknown;
  if (typeof schema.type === 'string') one = schema.type;
  else if (Array.isArray(schema.type)) return union(schema.type.map((t) => typeOf(t, schema)));
  else if ('properties' in schema || 'additionalProperties' in schema || 'patternProperties' in schema) one = 'object';
  else if ('items' in schema || 'prefixItems' in schema) one = 'array';
  else return null;
  const t = typeOf(one, schema);
  return t.kind === 'union' ? union([t]) : t;
}

/** The type one `type` name gives the schema. */
function typeOf(t: unknown, schema: JsonSchema): TypeNode {
  switch (t) {
    case 'string':
      return STRING;
    case 'boolean':
      return BOOLEAN;
    case 'null':
      return NULL;
    case 'integer':
    case 'number':
      return NUMBER;
    case 'array':
      return arrayType(schema);
    case 'object':
      return objectType(schema);
    default:
      return UNKNOWN;
  }
}

function objectType(schema: JsonSchema): TypeNode {
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const members: Member[] = [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, sub] of Object.entries(properties)) {
    members.push({ name: key, optional: !required.has(key), doc: schemaDoc(sub), type: schemaType(sub) });
  }
  const index: TypeNode[] = [];
  if (isObject(schema.patternProperties)) index.push(...Object.values(schema.patternProperties).map(schemaType));
  const extra = schema.additionalProperties;
  if (extra === true || isObject(extra)) index.push(schemaType(extra));
  // No `additionalProperties` (nor `unevaluatedProperties: false`): the validator lets any other
  // key through with any value, so the type does too.
  if (extra === undefined && schema.unevaluatedProperties !== false) index.push(UNKNOWN);
  if (index.length > 0) {
    // A property's type must fit the index signature (TS2411), `undefined` of an optional one
    // included: the signature widens to cover them.
    const optional = members.some((m) => m.optional) ? [name('undefined')] : [];
    const type = isUnknown(union(index)) ? UNKNOWN : union([...index, ...members.map((m) => m.type), ...optional]);
    members.push({ name: null, optional: false, doc: [], type });
  }
  return { kind: 'object', members };
}

function arrayType(schema: JsonSchema): TypeNode {
  let prefix: unknown[] | null = null;
  let rest: unknown;
  if (Array.isArray(schema.prefixItems)) [prefix, rest] = [schema.prefixItems, schema.items];
  else if (Array.isArray(schema.items)) [prefix, rest] = [schema.items, schema.additionalItems];
  if (prefix === null) return { kind: 'array', element: 'items' in schema ? schemaType(schema.items) : UNKNOWN };
  const elements = prefix.map(schemaType);
  const restType = rest === false ? null : schemaType(rest);
  const min = typeof schema.minItems === 'number' ? Math.max(0, Math.ceil(schema.minItems)) : 0;
  const max = typeof schema.maxItems === 'number' ? Math.floor(schema.maxItems) : Infinity;
  // Items past the prefix that minItems requires are rest items.
  while (restType && elements.length < min) elements.push(restType);
  const tuples: TypeNode[] = [];
  const last = elements.length;
  for (let len = Math.min(min, last); len <= Math.min(max, last); len++) {
    const open = len === last && restType !== null && max > last;
    tuples.push({ kind: 'tuple', elements: elements.slice(0, len), rest: open ? restType : null });
  }
  // No length is allowed (minItems above maxItems or above a closed tuple's length): `never`.
  return union(tuples);
}
