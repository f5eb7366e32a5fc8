/**
 * A quick "certainly valid" test of embedded schemas against the JSON Schema 2020-12 meta-schema,
 * so the common schema (`{ type: object, properties: { city: { type: string, maxLength: 100 } } }`)
 * skips the full meta-schema validator, the slowest part of validating a large manifest. It knows a
 * subset of the keywords and declines (false) anything else, or anything it is not sure about:
 * then the precompiled ajv validator decides, and reports. So it never changes a result; every
 * schema it accepts the meta-schema accepts too (test/meta-quick.test.ts checks this against ajv).
 */

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

/** How each known keyword's value must look. */
const enum Kind {
  Any,
  String,
  Boolean,
  Number,
  PositiveNumber,
  Count,
  Type,
  StringSet,
  Array,
  Schema,
  SchemaMap,
  SchemaList,
}

const KEYWORDS = new Map<string, Kind>([
  ['type', Kind.Type],
  ['description', Kind.String],
  ['title', Kind.String],
  ['$comment', Kind.String],
  ['format', Kind.String],
  ['pattern', Kind.String],
  ['$ref', Kind.String],
  ['contentEncoding', Kind.String],
  ['contentMediaType', Kind.String],
  ['default', Kind.Any],
  ['const', Kind.Any],
  ['enum', Kind.Array],
  ['examples', Kind.Array],
  ['minimum', Kind.Number],
  ['maximum', Kind.Number],
  ['exclusiveMinimum', Kind.Number],
  ['exclusiveMaximum', Kind.Number],
  ['multipleOf', Kind.PositiveNumber],
  ['minLength', Kind.Count],
  ['maxLength', Kind.Count],
  ['minItems', Kind.Count],
  ['maxItems', Kind.Count],
  ['minProperties', Kind.Count],
  ['maxProperties', Kind.Count],
  ['minContains', Kind.Count],
  ['maxContains', Kind.Count],
  ['uniqueItems', Kind.Boolean],
  ['deprecated', Kind.Boolean],
  ['readOnly', Kind.Boolean],
  ['writeOnly', Kind.Boolean],
  ['required', Kind.StringSet],
  ['properties', Kind.SchemaMap],
  ['$defs', Kind.SchemaMap],
  ['dependentSchemas', Kind.SchemaMap],
  ['additionalProperties', Kind.Schema],
  ['unevaluatedProperties', Kind.Schema],
  ['unevaluatedItems', Kind.Schema],
  ['items', Kind.Schema],
  ['contains', Kind.Schema],
  ['propertyNames', Kind.Schema],
  ['not', Kind.Schema],
  ['if', Kind.Schema],
  ['then', Kind.Schema],
  ['else', Kind.Schema],
  ['contentSchema', Kind.Schema],
  ['allOf', Kind.SchemaList],
  ['anyOf', Kind.SchemaList],
  ['oneOf', Kind.SchemaList],
  ['prefixItems', Kind.SchemaList],
]);

/** Deeper schemas are left to ajv. */
const MAX_DEPTH = 64;

/** True when `schema` is certainly valid JSON Schema 2020-12; false means "ask ajv", not "invalid". */
export function surelyValidSchema(schema: unknown): boolean {
  return isSchema(schema, 0);
}

function isSchema(s: unknown, depth: number): boolean {
  if (typeof s === 'boolean') return true;
  if (typeof s !== 'object' || s === null || Array.isArray(s) || depth > MAX_DEPTH) return false;
  const o = s as Record<string, unknown>;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) return false;
    const kind = KEYWORDS.get(k);
    if (kind === undefined || !fits(kind, o[k], depth)) return false;
  }
  return true;
}

/**
 * surelyValidSchema's test of one node at `depth` (0: the root), without going into subschemas:
 * they only have to be mappings or booleans here, as each mapping is a node of its own. Over the
 * nodes walkSchema visits (it goes into every subschema this does, and into others only below a
 * keyword this refuses), these all being true is surelyValidSchema; checkSchemaNodes tests them
 * on its walk rather than walking every schema twice. test/meta-quick.test.ts checks they agree.
 */
export function surelyValidNode(o: Record<string, unknown>, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) return false;
    const kind = KEYWORDS.get(k);
    if (kind === undefined || !fitsShallow(kind, o[k])) return false;
  }
  return true;
}

function isSub(v: unknown): boolean {
  return typeof v === 'boolean' || (typeof v === 'object' && v !== null && !Array.isArray(v));
}

function fitsShallow(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case Kind.Schema:
      return isSub(v);
    case Kind.SchemaMap: {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const map = v as Record<string, unknown>;
      for (const name in map) if (!Object.prototype.hasOwnProperty.call(map, name) || !isSub(map[name])) return false;
      return true;
    }
    case Kind.SchemaList:
      return Array.isArray(v) && v.length > 0 && v.every(isSub);
    default:
      return fits(kind, v, 0);
  }
}

function fits(kind: Kind, v: unknown, depth: number): boolean {
  switch (kind) {
    case Kind.Any:
      return true;
    case Kind.String:
      return typeof v === 'string';
    case Kind.Boolean:
      return typeof v === 'boolean';
    case Kind.Number:
      return Number.isFinite(v);
    case Kind.PositiveNumber:
      return Number.isFinite(v) && (v as number) > 0;
    case Kind.Count:
      return Number.isSafeInteger(v) && (v as number) >= 0;
    case Kind.Type:
      if (typeof v === 'string') return TYPES.has(v);
      return Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === 'string' && TYPES.has(t)) && new Set(v).size === v.length;
    case Kind.StringSet:
      return Array.isArray(v) && v.every((t) => typeof t === 'string') && new Set(v).size === v.length;
    case Kind.Array:
      return Array.isArray(v);
    case Kind.Schema:
      return isSchema(v, depth + 1);
    case Kind.SchemaMap: {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const map = v as Record<string, unknown>;
      for (const name in map) if (!Object.prototype.hasOwnProperty.call(map, name) || !isSchema(map[name], depth + 1)) return false;
      return true;
    }
    case Kind.SchemaList:
      return Array.isArray(v) && v.length > 0 && v.every((x) => isSchema(x, depth + 1));
  }
}
