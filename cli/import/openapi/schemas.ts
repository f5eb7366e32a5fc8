/**
 * OpenAPI schemas as manifest schemas (JSON Schema 2020-12, docs/json-schema.md). OpenAPI 3.1's
 * schemas already are 2020-12; 3.0's differ: `nullable`, boolean `exclusiveMinimum`/`Maximum`,
 * one `example`. Keywords only OpenAPI defines (`xml`, `discriminator`, `externalDocs`) and vendor
 * keys are dropped: they mean nothing to a client and would reach it on the wire.
 *
 * `#/components/schemas/X` becomes the manifest's shared `#/schemas/X` (named as a TypeScript type
 * can be), so a large API lists each shape once. A component holding `readOnly` or `writeOnly`
 * properties has two forms, since inputs leave out what the server sets and outputs what it never
 * returns: `X` (outputs) and `XInput` (inputs).
 */

export type Schema = Record<string, unknown>;
export type Mode = 'input' | 'output';

const COMPONENT = '#/components/schemas/';
const DROPPED = new Set(['xml', 'discriminator', 'externalDocs', 'example', 'nullable', '$schema', '$id']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_ONE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
];

export class SchemaConverter {
  /** Shared schemas written so far, by manifest name, and the names each refers to. */
  readonly shared = new Map<string, Schema>();
  private readonly uses = new Map<string, Set<string>>();
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>();
  private readonly modal = new Map<string, boolean>();
  private readonly components: Record<string, unknown>;

  constructor(
    private readonly doc: Record<string, unknown>,
    private readonly version: '3.0' | '3.1',
  ) {
    const c = (doc.components as Record<string, unknown> | undefined)?.schemas;
    this.components = c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
  }

  /** `schema` as a manifest schema for `mode`; component refs become shared refs (written on the way). */
  convert(schema: unknown, mode: Mode): Schema {
    return this.node(schema, mode, new Set()) as Schema;
  }

  /** A schema with its top-level `$ref` followed (local refs only): what a body or response is. */
  resolve(schema: unknown): Schema | undefined {
    let s = schema;
    for (let i = 0; i < 32 && isObject(s) && typeof s.$ref === 'string'; i++) s = this.pointer(s.$ref);
    return isObject(s) ? s : undefined;
  }

  /** The names `names` refer to, directly or through others, themselves included. */
  closure(names: Iterable<string>): Set<string> {
    const out = new Set<string>();
    const stack = [...names];
    while (stack.length) {
      const n = stack.pop()!;
      if (out.has(n)) continue;
      out.add(n);
      for (const m of this.uses.get(n) ?? []) stack.push(m);
    }
    return out;
  }

  private node(s: unknown, mode: Mode, seen: Set<string>): unknown {
    if (s === true || s === false) return s;
    if (!isObject(s)) return {};
    if (typeof s.$ref === 'string') {
      const rest = this.node({ ...s, $ref: undefined }, mode, seen) as Schema;
      const target = this.ref(s.$ref, mode, seen);
      // 3.0 ignores a `$ref`'s siblings; 3.1 (2020-12) applies them beside it.
      return this.version === '3.1' && Object.keys(rest).length ? { ...target, ...rest } : target;
    }
    const out: Schema = {};
    for (const [k, v] of Object.entries(s)) {
      if (v === undefined || DROPPED.has(k) || k.startsWith('x-')) continue;
      if (SCHEMA_MAPS.includes(k) && isObject(v)) {
        const map: Schema = {};
        for (const [name, sub] of Object.entries(v)) {
          if (k === 'properties' && isObject(sub) && this.hidden(sub, mode)) continue;
          map[name] = this.node(sub, mode, seen);
        }
        out[k] = map;
      } else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) out[k] = v.map((sub) => this.node(sub, mode, seen));
      else if (SCHEMA_ONE.includes(k) && (isObject(v) || typeof v === 'boolean')) out[k] = this.node(v, mode, seen);
      else out[k] = structuredClone(v);
    }
    if (isObject(out.properties) && Array.isArray(out.required)) {
      const kept = (out.required as unknown[]).filter((r) => typeof r === 'string' && r in (out.properties as Schema));
      if (kept.length) out.required = kept;
      else delete out.required;
    }
    if (this.version === '3.0') return this.from30(s, out);
    if (s.example !== undefined && out.examples === undefined) out.examples = [structuredClone(s.example)];
    return out;
  }

  /** OpenAPI 3.0's own forms of JSON Schema keywords, as 2020-12 writes them. */
  private from30(s: Schema, out: Schema): Schema {
    if (s.example !== undefined && out.examples === undefined) out.examples = [structuredClone(s.example)];
    for (const [bound, limit] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof out[bound] !== 'boolean') continue;
      if (out[bound] === true && typeof out[limit] === 'number') {
        out[bound] = out[limit];
        delete out[limit];
      } else delete out[bound];
    }
    if (s.nullable !== true) return out;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }

  /** A property the mode leaves out: `readOnly` from inputs, `writeOnly` from outputs. */
  private hidden(s: Schema, mode: Mode): boolean {
    const key = mode === 'input' ? 'readOnly' : 'writeOnly';
    if (s[key] === true) return true;
    return typeof s.$ref === 'string' && this.resolve(s)?.[key] === true;
  }

  private ref(ref: string, mode: Mode, seen: Set<string>): Schema {
    if (ref.startsWith(COMPONENT)) {
      const component = decodePointer(ref.slice(COMPONENT.length));
      if (isObject(this.components[component])) return { $ref: `#/schemas/${this.shareOf(component, mode)}` };
    }
    // Any other pointer is copied in place: OpenAPI documents rarely share schemas elsewhere.
    if (seen.has(ref) || seen.size > 64) return {};
    return this.node(this.pointer(ref), mode, new Set([...seen, ref])) as Schema;
  }

  /** The shared schema's name for the component in this mode, converting it the first time. */
  private shareOf(component: string, mode: Mode): string {
    const variant = mode === 'input' && this.isModal(component, new Set()) ? 'input' : 'output';
    const key = `${variant}:${component}`;
    let name = this.names.get(key);
    if (name !== undefined) return name;
    name = this.freeName(typeName(component) + (variant === 'input' ? 'Input' : ''));
    this.names.set(key, name);
    this.shared.set(name, {}); // placeholder first: a recursive component refers to itself
    const converted = this.node(this.components[component], variant, new Set());
    this.shared.set(name, converted as Schema);
    this.uses.set(name, sharedRefs(converted));
    return name;
  }

  /** Whether the component, or one it refers to, has `readOnly` or `writeOnly` properties. */
  private isModal(component: string, seen: Set<string>): boolean {
    const known = this.modal.get(component);
    if (known !== undefined) return known;
    if (seen.has(component)) return false;
    seen.add(component);
    let found = false;
    const visit = (v: unknown): void => {
      if (found || v === null || typeof v !== 'object') return;
      if (Array.isArray(v)) {
        for (const x of v) visit(x);
        return;
      }
      const o = v as Schema;
      if (o.readOnly === true || o.writeOnly === true) found = true;
      else if (typeof o.$ref === 'string' && o.$ref.startsWith(COMPONENT))
        found = this.isModal(decodePointer(o.$ref.slice(COMPONENT.length)), seen);
      for (const x of Object.values(o)) visit(x);
    };
    visit(this.components[component]);
    if (found || seen.size === 1) this.modal.set(component, found);
    return found;
  }

  private freeName(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined;
    let at: unknown = this.doc;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      if (!isObject(at) && !Array.isArray(at)) return undefined;
      at = (at as Record<string, unknown>)[decodePointer(part)];
    }
    return at;
  }
}

/** A component name as a shared schema name (a TypeScript type): `simple-user` → `SimpleUser`. */
export function typeName(component: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(component)) return component;
  const words = component.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** The shared schemas a converted schema refers to (`#/schemas/Name`). */
export function sharedRefs(schema: unknown, into = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return into;
  if (Array.isArray(schema)) {
    for (const v of schema) sharedRefs(v, into);
    return into;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/schemas/')) into.add(v.slice('#/schemas/'.length));
    else sharedRefs(v, into);
  }
  return into;
}

function decodePointer(part: string): string {
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
