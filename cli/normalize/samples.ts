/**
 * Sample values for schemas, used by the generated contract tests and test stubs to reach each
 * handler. A sample is only used when it really is valid for its schema (checked with ajv here, at
 * generation time), so a generated project never fails its own tests because of a poor guess.
 */
import type { Json, JsonSchema, PromptArgIR, TemplateVarIR } from './ir.js';
import { isObject } from '../normalize/schema-walk.js';
import { quickCheck } from '../manifest/sample-check.js';
import { namedRecord } from '../manifest/named-record.js';
import { serverAjv, type ServerAjv } from '../manifest/server-ajv.js';
import { fragmentSegments } from '../manifest/json-path.js';
import { pointerTarget } from '../validate/ref-pointer.js';

/** The dialect the SDK's validator picks: draft-07 when declared, else 2020-12. */
function validator(schema: JsonSchema): ServerAjv {
  const declared =
    typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '').replace(/^https:/, 'http:') : '';
  return serverAjv(declared === 'http://json-schema.org/draft-07/schema' ? 'draft-07' : '2020-12', true);
}

/** True when `value` satisfies `schema` (false when the schema cannot be compiled). */
export function satisfies(schema: JsonSchema, value: unknown): boolean {
  const quick = quickCheck(schema, value);
  if (quick !== undefined) return quick;
  try {
    const { $schema: _s, $id: _i, ...rest } = schema;
    return validator(schema).validate(rest, value) === true;
  } catch {
    return false;
  }
}

/**
 * True when `value` surely fits `schema` (read on its own). Used for a schema's own `default`,
 * `examples`, `const` and `enum` members, which nothing forces to be valid: an invalid one would
 * make a sample whose type the generated test's cast refuses. Undecidable here counts as unfit.
 */
function usable(schema: JsonSchema, value: unknown): boolean {
  const quick = quickCheck(schema, value);
  if (quick !== undefined) return quick;
  // A `$ref` points outside this subschema, so the value cannot be checked here.
  if (JSON.stringify(schema).includes('"$ref"')) return false;
  try {
    const { $schema: _s, $id: _i, ...rest } = schema;
    return validator(schema).validate(rest, value) === true;
  } catch {
    return false;
  }
}

/** Arguments valid for a tool's input schema (none for a tool without input), or null. */
export function validInput(schema: JsonSchema | null): Json | null {
  if (schema === null) return {};
  return (validSample(schema) as Json | undefined) ?? null;
}

/** The JSON Schema of a prompt's arguments (all strings, as MCP prompt arguments are). */
export function promptArgsSchema(args: readonly PromptArgIR[]): JsonSchema {
  const properties = namedRecord<unknown>();
  for (const a of args)
    properties[a.name] = a.description !== null ? { type: 'string', description: a.description } : { type: 'string' };
  const required = args.filter((a) => a.required).map((a) => a.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * The text a URI carries for one template variable, from a valid sample, or undefined. A list
 * (`{v*}` with `type: array`) gets a list of one item: RFC 6570 expands it as that item alone with
 * every operator, and the SDK hands it over as one value, which the runtime makes a list again.
 */
export function variableSample(v: Pick<TemplateVarIR, 'schema' | 'completion' | 'list'>): string | undefined {
  const fromCompletion = v.completion?.kind === 'static' ? v.completion.values[0] : undefined;
  let sample: unknown;
  if (v.list && v.schema.type === 'array') {
    const whole = validSample(v.schema);
    // Items taken from a URI are strings: an `items` schema without a type says no more than that.
    const item =
      fromCompletion ??
      (Array.isArray(whole) && whole.length ? whole[0] : (sampleOf(v.schema.items, 1, v.schema) ?? 'example'));
    sample = typeof item === 'string' && satisfies(v.schema, [item]) ? item : undefined;
  } else sample = fromCompletion ?? validSample(v.schema);
  // A lone surrogate has no UTF-8 form, so no URI can carry it.
  return typeof sample === 'string' && !/\p{Surrogate}/u.test(sample) ? sample : undefined;
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;
const names = (list: string) => list.split(',').map((n) => n.replace(/\*$|:\d+$/, ''));

/**
 * A concrete URI of a template from valid samples of its variables, or null. A variable only in
 * the query (`{?q}`, `{&page}`) may be left out, so one without a sample is, as RFC 6570 leaves
 * out an undefined one; the URI still reaches the handler.
 */
export function sampleUri(uriTemplate: string, vars: readonly TemplateVarIR[]): string | null {
  const required = new Set<string>();
  for (const [, op, list] of uriTemplate.matchAll(EXPRESSION))
    if (op !== '?' && op !== '&') for (const n of names(list!)) required.add(n);
  const params = namedRecord<string>();
  for (const v of vars) {
    const sample = variableSample(v);
    if (sample !== undefined) params[v.name] = sample;
    else if (required.has(v.name)) return null;
  }
  // Simple expansion is enough for the test: every operator gets the RFC 6570 prefix.
  return uriTemplate.replace(EXPRESSION, (_m, op: string, list: string) => {
    const defined = names(list).filter((n) => Object.hasOwn(params, n));
    const vals = defined.map((n) => encodeURIComponent(params[n]!));
    switch (op) {
      case '?':
      case '&':
        return defined.length ? op + defined.map((n, i) => `${n}=${vals[i]}`).join('&') : '';
      case ';':
        return defined.map((n, i) => `;${n}=${vals[i]}`).join('');
      case '#':
      case '.':
      case '/':
        return op + vals.join(op === '#' ? ',' : op);
      default:
        return vals.join(',');
    }
  });
}

/** A valid sample for the schema, or undefined when no simple guess is valid. */
export function validSample(schema: JsonSchema): unknown {
  const v = sampleOf(schema, 0, schema);
  return v !== undefined && satisfies(schema, v) ? v : undefined;
}

/**
 * A plausible value: default, example, const or first enum member (each only if the schema accepts
 * it), else one by type. With a `root` (the schema the walk started at), a local `$ref` is followed
 * to what it designates there, a JSON Pointer from that root (RFC 6901): validSample checks the
 * result as a whole, where a handler-test stub (no root) keeps to what each subschema says itself.
 */
export function sampleOf(s: unknown, depth: number, root?: unknown): unknown {
  if (!isObject(s) || depth > 6) return undefined;
  const schema = s as JsonSchema;
  if (schema.default !== undefined && usable(schema, schema.default)) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length && usable(schema, schema.examples[0]))
    return schema.examples[0];
  // A `const` or `enum` member the rest of the schema refuses (`type: object, enum: ["a"]`) is no
  // sample: the generated test's cast would not compile against the handler's type.
  // Without one, nothing typed after the schema fits: better left out than guessed from `type`.
  if (schema.const !== undefined) return usable(schema, schema.const) ? schema.const : undefined;
  if (Array.isArray(schema.enum)) return schema.enum.find((e) => usable(schema, e));
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[k]) && (schema[k] as unknown[]).length)
      return sampleOf((schema[k] as unknown[])[0], depth + 1, root);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  // Its siblings are checked with the whole sample (validSample): the target says what it is.
  if (type === undefined && typeof schema.$ref === 'string' && root !== undefined)
    return sampleOf(pointed(root, schema.$ref), depth + 1, root);
  switch (type) {
    case 'string': {
      if (typeof schema.format === 'string') return formatSample(schema.format);
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return 'example'.padEnd(min, 'x');
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.exclusiveMinimum === 'number'
          ? Math.floor(schema.exclusiveMinimum) + 1
          : 1;
    case 'boolean':
      return false;
    case 'array': {
      const tuple = Array.isArray(schema.prefixItems)
        ? schema.prefixItems
        : Array.isArray(schema.items)
          ? schema.items
          : null;
      if (tuple) {
        const out = tuple.map((t) => sampleOf(t, depth + 1, root));
        return out.includes(undefined) ? undefined : out;
      }
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (min === 0) return [];
      const item = sampleOf(schema.items, depth + 1, root);
      return item === undefined
        ? undefined
        : Array.from({ length: min }, (_, i) => (typeof item === 'number' ? item + i : item));
    }
    case 'null':
      return null;
    case 'object':
    case undefined: {
      if (type === undefined && !isObject(schema.properties)) return undefined;
      const out = namedRecord<unknown>();
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const key of required) {
        const v = sampleOf(Object.hasOwn(props, key as string) ? props[key as string] : undefined, depth + 1, root);
        if (v === undefined) return undefined;
        out[key as string] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** What a local `$ref` designates in `root`, or undefined (a shared `#/schemas/` ref is inlined before samples are made). */
function pointed(root: unknown, ref: string): unknown {
  const segs = ref.startsWith('#') ? fragmentSegments(ref.slice(1)) : undefined;
  const t = segs && pointerTarget(root, segs);
  return t?.ok ? t.schema : undefined;
}

function formatSample(format: string): string {
  const samples: Record<string, string> = {
    date: '2026-01-01',
    'date-time': '2026-01-01T00:00:00Z',
    time: '12:00:00Z',
    email: 'someone@example.com',
    uri: 'https://example.com',
    'uri-reference': 'https://example.com',
    url: 'https://example.com',
    uuid: '00000000-0000-4000-8000-000000000000',
    hostname: 'example.com',
    ipv4: '127.0.0.1',
    ipv6: '::1',
  };
  return Object.hasOwn(samples, format) ? samples[format]! : 'example';
}
