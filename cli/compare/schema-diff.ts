/**
 * What changed between two JSON Schemas, as a set of valid values: each change either narrows it
 * (fewer values valid), widens it, does both, or changes nothing a validator checks. Whether that
 * breaks clients depends on who writes the values (classify in ./compare.ts): clients write inputs
 * and read outputs.
 *
 * Both schemas are the advertised ones (shared `$ref`s inlined by normalize); the `$ref`s left
 * (local pointers, recursive shared schemas under `$defs`) are followed here, each pair once.
 */
import type { JsonSchema } from '../normalize/ir.js';

/** How a change moves the set of valid values; `unclassified` when it cannot be told. */
export type Effect = 'narrow' | 'widen' | 'both' | 'none' | 'unclassified';

export interface SchemaFinding {
  /** JSON Pointer inside the schema (`/properties/city/maxLength`), `` for the root. */
  pointer: string;
  /** A stable code: `type-changed`, `required-property-added`, `enum-values-removed`… */
  change: string;
  effect: Effect;
  /** What changed, without the verdict (`maxLength 100 → 50`). */
  message: string;
  /** For a property or argument removed: clients reading it lose it whatever the effect. */
  removedField?: true;
}

export interface DiffContext {
  /** `property` (tools, templates) or `argument` (prompts): what messages call an object's keys. */
  noun: string;
}

/** Keywords that describe values without constraining them: a change to them breaks no client. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'examples',
  'example',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
  'contentMediaType',
  'contentEncoding',
]);

/** Lower bounds: raised narrows, lowered widens. */
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
/** Upper bounds: lowered narrows, raised widens. */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** Handled one by one below; everything else not an annotation is compared whole. */
const HANDLED = new Set([
  ...LOWER,
  ...UPPER,
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  'anyOf',
  'allOf',
  'oneOf',
  'default',
]);

const MAX_DEPTH = 64;

/** Every change between `before` and `after` (each with its root, where their `$ref`s resolve). */
export function diffSchemas(before: unknown, after: unknown, ctx: DiffContext): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  const walker = new Walker(before, after, ctx, out);
  walker.diff(before, after, '', 0);
  return out;
}

class Walker {
  /** The `$ref` pairs being compared on the way here. */
  private readonly active = new Set<string>();

  constructor(
    private readonly rootA: unknown,
    private readonly rootB: unknown,
    private readonly ctx: DiffContext,
    private readonly out: SchemaFinding[],
  ) {}

  /**
   * `x` and `y` written alike, and so are the definitions their `$ref`s lead to in each root: the
   * same `$ref` text names a definition the change may have edited.
   */
  private same(x: unknown, y: unknown): boolean {
    if (!deepEqual(x, y)) return false;
    const seen = new Set<string>();
    const todo = refsIn(x);
    for (let ref = todo.pop(); ref !== undefined; ref = todo.pop()) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      const target = pointerGet(this.rootA, ref);
      if (!deepEqual(target, pointerGet(this.rootB, ref))) return false;
      todo.push(...refsIn(target));
    }
    return true;
  }

  private add(pointer: string, change: string, effect: Effect, message: string, extra: Partial<SchemaFinding> = {}) {
    this.out.push({ pointer, change, effect, message, ...extra });
  }

  diff(a0: unknown, b0: unknown, at: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      if (!this.same(a0, b0)) this.add(at, 'schema-changed', 'unclassified', 'schema changed below the depth compared');
      return;
    }
    const refs = `${refOf(a0) ?? ''}\u0000${refOf(b0) ?? ''}`;
    if (refs === '\u0000') {
      this.compare(a0, b0, at, depth);
      return;
    }
    // A pair of $refs already being compared further up: a recursive schema, compared once.
    if (this.active.has(refs)) return;
    this.active.add(refs);
    try {
      this.compare(a0, b0, at, depth);
    } finally {
      this.active.delete(refs);
    }
  }

  private compare(a0: unknown, b0: unknown, at: string, depth: number): void {
    const a = resolve(this.rootA, a0);
    const b = resolve(this.rootB, b0);
    if (a === undefined || b === undefined) {
      if (!deepEqual(a0, b0))
        this.add(at, 'schema-changed', 'unclassified', 'a $ref that does not resolve changed: cannot tell how');
      return;
    }
    if (typeof a === 'boolean' || typeof b === 'boolean') {
      if (a === b) return;
      const effect: Effect = a === true || b === false ? 'narrow' : 'widen';
      this.add(at, 'schema-changed', effect, `schema ${show(a)} → ${show(b)}`);
      return;
    }
    if (!isObject(a) || !isObject(b)) {
      if (!deepEqual(a, b)) this.add(at, 'schema-changed', 'unclassified', 'schema changed');
      return;
    }
    this.keywords(...(this.oneOfPair(a, b) ?? asAnyOfPair(a, b)), at, depth);
  }

  /**
   * A schema made nullable as `oneOf: [<it>, {type: 'null'}]` (or the reverse): with branches whose
   * types are apart no value matches two, so it reads as anyOf does (asAnyOfPair), a branch added.
   */
  private oneOfPair(a: JsonSchema, b: JsonSchema): [JsonSchema, JsonSchema] | undefined {
    if (only(b, 'oneOf') && a.oneOf === undefined && this.typesApart(b.oneOf, this.rootB))
      return [asOneBranch(a, 'oneOf') ?? a, b];
    if (only(a, 'oneOf') && b.oneOf === undefined && this.typesApart(a.oneOf, this.rootA))
      return [a, asOneBranch(b, 'oneOf') ?? b];
    return undefined;
  }

  /** Two schema objects compared keyword by keyword. */
  private keywords(a: JsonSchema, b: JsonSchema, at: string, depth: number): void {
    this.types(a, b, at);
    this.enums(a, b, at);
    for (const k of LOWER) this.bound(a, b, at, k, 'lower');
    for (const k of UPPER) this.bound(a, b, at, k, 'upper');
    this.presence(a, b, at, 'pattern', 'pattern');
    this.presence(a, b, at, 'format', 'format');
    this.multipleOf(a, b, at);
    if ((a.uniqueItems === true) !== (b.uniqueItems === true))
      this.add(
        `${at}/uniqueItems`,
        'unique-items-changed',
        b.uniqueItems === true ? 'narrow' : 'widen',
        `uniqueItems ${a.uniqueItems === true} → ${b.uniqueItems === true}`,
      );
    if (!deepEqual(a.default, b.default))
      this.add(`${at}/default`, 'default-changed', 'none', `default ${show(a.default)} → ${show(b.default)}`);
    this.objects(a, b, at, depth);
    this.items(a, b, at, depth);
    this.combinator(a, b, at, depth, 'allOf');
    this.combinator(a, b, at, depth, 'anyOf');
    this.combinator(a, b, at, depth, 'oneOf');
    this.others(a, b, at, depth);
  }

  private types(a: JsonSchema, b: JsonSchema, at: string): void {
    const ta = typeSet(a.type);
    const tb = typeSet(b.type);
    if (ta === null && tb === null) return;
    if (ta !== null && tb !== null && ta.size === tb.size && [...ta].every((t) => tb.has(t))) return;
    const narrower = covers(ta, tb);
    const wider = covers(tb, ta);
    const effect: Effect = narrower && wider ? 'none' : narrower ? 'narrow' : wider ? 'widen' : 'both';
    if (effect === 'none') return;
    const change = effect === 'narrow' ? 'type-narrowed' : effect === 'widen' ? 'type-widened' : 'type-changed';
    this.add(`${at}/type`, change, effect, `type ${showType(ta)} → ${showType(tb)}`);
  }

  private enums(a: JsonSchema, b: JsonSchema, at: string): void {
    const ea = allowed(a);
    const eb = allowed(b);
    if (ea === null && eb === null) return;
    const key = 'enum' in b || 'enum' in a ? 'enum' : 'const';
    if (ea === null) {
      this.add(`${at}/${key}`, 'enum-added', 'narrow', `now only ${list(eb!)}`);
      return;
    }
    if (eb === null) {
      this.add(`${at}/${key}`, 'enum-removed', 'widen', `no longer limited to ${list(ea)}`);
      return;
    }
    const sa = new Set(ea.map(canonical));
    const sb = new Set(eb.map(canonical));
    const removed = ea.filter((v) => !sb.has(canonical(v)));
    const added = eb.filter((v) => !sa.has(canonical(v)));
    if (removed.length) this.add(`${at}/${key}`, 'enum-values-removed', 'narrow', `${list(removed)} no longer allowed`);
    if (added.length) this.add(`${at}/${key}`, 'enum-values-added', 'widen', `${list(added)} now allowed`);
  }

  private bound(a: JsonSchema, b: JsonSchema, at: string, k: string, side: 'lower' | 'upper'): void {
    const va = a[k];
    const vb = b[k];
    if (deepEqual(va, vb)) return;
    let effect: Effect;
    if (va === undefined) effect = 'narrow';
    else if (vb === undefined) effect = 'widen';
    else if (typeof va === 'number' && typeof vb === 'number')
      effect = (side === 'lower' ? vb > va : vb < va) ? 'narrow' : 'widen';
    else effect = 'unclassified';
    const what =
      va === undefined
        ? `${k} ${show(vb)} added`
        : vb === undefined
          ? `${k} ${show(va)} removed`
          : `${k} ${show(va)} → ${show(vb)}`;
    this.add(
      `${at}/${k}`,
      effect === 'narrow' ? 'constraint-tightened' : effect === 'widen' ? 'constraint-loosened' : 'constraint-changed',
      effect,
      what,
    );
  }

  private presence(a: JsonSchema, b: JsonSchema, at: string, k: string, label: string): void {
    if (deepEqual(a[k], b[k])) return;
    if (a[k] === undefined) this.add(`${at}/${k}`, 'constraint-tightened', 'narrow', `${label} ${show(b[k])} added`);
    else if (b[k] === undefined)
      this.add(`${at}/${k}`, 'constraint-loosened', 'widen', `${label} ${show(a[k])} removed`);
    else this.add(`${at}/${k}`, 'constraint-changed', 'both', `${label} ${show(a[k])} → ${show(b[k])}`);
  }

  private multipleOf(a: JsonSchema, b: JsonSchema, at: string): void {
    const va = a.multipleOf;
    const vb = b.multipleOf;
    if (deepEqual(va, vb)) return;
    let effect: Effect = 'unclassified';
    if (va === undefined) effect = 'narrow';
    else if (vb === undefined) effect = 'widen';
    else if (typeof va === 'number' && typeof vb === 'number')
      effect = isMultiple(vb, va) ? 'narrow' : isMultiple(va, vb) ? 'widen' : 'both';
    this.add(
      `${at}/multipleOf`,
      effect === 'narrow' ? 'constraint-tightened' : effect === 'widen' ? 'constraint-loosened' : 'constraint-changed',
      effect,
      `multipleOf ${show(va)} → ${show(vb)}`,
    );
  }

  private objects(a: JsonSchema, b: JsonSchema, at: string, depth: number): void {
    const pa = isObject(a.properties) ? a.properties : {};
    const pb = isObject(b.properties) ? b.properties : {};
    const ra = new Set(Array.isArray(a.required) ? (a.required as unknown[]).map(String) : []);
    const rb = new Set(Array.isArray(b.required) ? (b.required as unknown[]).map(String) : []);
    const noun = this.ctx.noun;
    for (const name of Object.keys(pa)) {
      const p = `${at}/properties/${pointerToken(name)}`;
      if (Object.hasOwn(pb, name)) {
        this.diff(pa[name], pb[name], p, depth + 1);
        continue;
      }
      const effect = this.removedPropertyEffect(name, pa[name], b, p, depth);
      this.add(p, `${noun}-removed`, effect, `${noun} ${name} removed`, { removedField: true });
    }
    for (const name of Object.keys(pb)) {
      if (Object.hasOwn(pa, name)) continue;
      const p = `${at}/properties/${pointerToken(name)}`;
      if (rb.has(name) && !ra.has(name))
        this.add(p, `required-${noun}-added`, 'narrow', `new required ${noun} ${name}`);
      else {
        const effect = this.addedPropertyEffect(name, a, pb[name], p, depth);
        this.add(p, `${noun}-added`, effect, `new optional ${noun} ${name}`);
      }
    }
    for (const name of rb) {
      if (ra.has(name)) continue;
      if (!Object.hasOwn(pb, name)) {
        this.add(`${at}/required`, `required-${noun}-added`, 'narrow', `${name} required (not declared)`);
        continue;
      }
      // A property new and required at once is named above.
      if (!Object.hasOwn(pa, name)) continue;
      this.add(
        `${at}/properties/${pointerToken(name)}`,
        `${noun}-became-required`,
        'narrow',
        `${noun} ${name} optional → required`,
      );
    }
    for (const name of ra) {
      if (rb.has(name)) continue;
      if (!Object.hasOwn(pa, name) && !Object.hasOwn(pb, name)) {
        // Required without being declared: values had the key, and may not have it now.
        this.add(`${at}/required`, `${noun}-became-optional`, 'widen', `${name} no longer required (not declared)`);
        continue;
      }
      // A property gone is named above.
      if (!Object.hasOwn(pb, name)) continue;
      this.add(
        `${at}/properties/${pointerToken(name)}`,
        `${noun}-became-optional`,
        'widen',
        `${noun} ${name} required → optional`,
      );
    }
    this.additional(a, b, at, depth, 'additionalProperties');
  }

  /**
   * A property removed is undeclared from then on: clients still sending it are refused when what
   * an undeclared key of its name must now match accepts less than the property did (`false`, or a
   * schema narrower than the property's).
   */
  private removedPropertyEffect(name: string, property: unknown, b: JsonSchema, at: string, depth: number): Effect {
    let effect: Effect = 'none';
    for (const rest of undeclaredSchemas(b, name)) {
      if (rest === true) continue;
      const moved = this.effectOf(property, rest, at, depth);
      if (moved === 'narrow' || moved === 'both') return 'narrow';
      if (moved === 'unclassified') effect = moved;
    }
    return effect;
  }

  /**
   * A new optional property is no change to clients that never sent it, nor to clients that read
   * values, except where an undeclared key of its name had to match a schema before: a value valid
   * for that schema and not for the property's is refused now.
   */
  private addedPropertyEffect(name: string, a: JsonSchema, property: unknown, at: string, depth: number): Effect {
    let effect: Effect = 'none';
    for (const rest of undeclaredSchemas(a, name)) {
      if (!isObject(rest)) continue;
      const moved = this.effectOf(rest, property, at, depth);
      if (moved === 'narrow' || moved === 'both') return 'narrow';
      if (moved === 'unclassified') effect = moved;
    }
    return effect;
  }

  /** How the set of valid values moves from `a` to `b`, on the whole, their findings not kept. */
  private effectOf(a: unknown, b: unknown, at: string, depth: number): Effect {
    const before = this.out.length;
    this.diff(a, b, at, depth + 1);
    const found = this.out.splice(before);
    if (found.some((f) => f.effect === 'narrow' || f.effect === 'both')) return 'narrow';
    if (found.some((f) => f.effect === 'unclassified')) return 'unclassified';
    return found.some((f) => f.effect === 'widen') ? 'widen' : 'none';
  }

  private additional(a: JsonSchema, b: JsonSchema, at: string, depth: number, k: string): void {
    const va = a[k] ?? true;
    const vb = b[k] ?? true;
    if (this.same(va, vb)) return;
    if (isObject(va) && isObject(vb)) {
      this.diff(va, vb, `${at}/${k}`, depth + 1);
      return;
    }
    // true accepts any undeclared key, false none, a schema those valid for it.
    const rank = (v: unknown) => (v === true ? 2 : v === false ? 0 : 1);
    const effect: Effect = rank(vb) < rank(va) ? 'narrow' : 'widen';
    this.add(
      `${at}/${k}`,
      effect === 'narrow' ? 'additional-properties-restricted' : 'additional-properties-allowed',
      effect,
      `${k} ${showAdditional(va)} → ${showAdditional(vb)}`,
    );
  }

  private items(a: JsonSchema, b: JsonSchema, at: string, depth: number): void {
    const ia = a.items;
    const ib = b.items;
    if (this.same(ia, ib)) return;
    if (ia === undefined) this.add(`${at}/items`, 'constraint-tightened', 'narrow', 'items schema added');
    else if (ib === undefined) this.add(`${at}/items`, 'constraint-loosened', 'widen', 'items schema removed');
    else if (Array.isArray(ia) || Array.isArray(ib))
      this.add(`${at}/items`, 'schema-changed', 'unclassified', 'tuple items changed');
    else this.diff(ia, ib, `${at}/items`, depth + 1);
  }

  /**
   * allOf and anyOf are monotone in each branch (a branch narrowed narrows the whole or leaves it
   * as it was), so same-length lists are compared branch by branch, and a branch only added or only
   * removed is classified; oneOf (exactly one) is not, so a change to it is unclassified, unless
   * its branches take values of types apart (`oneOf: [{type: string}, {type: 'null'}]`): no value
   * matches two, so it is an anyOf.
   */
  private combinator(a: JsonSchema, b: JsonSchema, at: string, depth: number, k: 'allOf' | 'anyOf' | 'oneOf'): void {
    const va = a[k];
    const vb = b[k];
    if (this.same(va, vb)) return;
    const p = `${at}/${k}`;
    if (va === undefined) {
      this.add(p, 'constraint-tightened', 'narrow', `${k} added`);
      return;
    }
    if (vb === undefined) {
      this.add(p, 'constraint-loosened', 'widen', `${k} removed`);
      return;
    }
    const asAnyOf = k === 'oneOf' && this.typesApart(va, this.rootA) && this.typesApart(vb, this.rootB);
    if (!Array.isArray(va) || !Array.isArray(vb) || (k === 'oneOf' && !asAnyOf)) {
      this.add(p, 'schema-changed', 'unclassified', `${k} changed`);
      return;
    }
    const gone = va.filter((x) => !vb.some((y) => this.same(x, y)));
    const added = vb.filter((y) => !va.some((x) => this.same(x, y)));
    // The same branches in another order (or repeated) accept the same values.
    if (gone.length === 0 && added.length === 0) return;
    if (gone.length === 0 || added.length === 0) {
      // Another branch in allOf is another constraint; in anyOf, another way to be valid.
      const more = added.length > 0;
      const effect: Effect = (k === 'allOf') === more ? 'narrow' : 'widen';
      this.add(
        p,
        effect === 'narrow' ? 'constraint-tightened' : 'constraint-loosened',
        effect,
        `${k}: ${more ? `${added.length} branch(es) added` : `${gone.length} branch(es) removed`}`,
      );
      return;
    }
    if (gone.length !== added.length) {
      this.add(p, 'schema-changed', 'unclassified', `${k} branches changed`);
      return;
    }
    // Branches kept as they were change nothing: each changed one is compared with the changed one
    // at its rank among them, wherever the list moved it.
    const before = this.out.length;
    gone.forEach((x, i) => this.diff(x, added[i], `${p}/${vb.indexOf(added[i])}`, depth + 1));
    // A change a branch holds that is not one of the above (a property added to an anyOf branch
    // may pick another branch for a value) is still named, conservatively.
    for (let i = before; i < this.out.length; i++) {
      const f = this.out[i]!;
      if (f.effect === 'none' && !f.change.startsWith('default')) f.effect = 'unclassified';
    }
  }

  /** Branches that each say their types, no type in two (integer counted within number). */
  private typesApart(branches: unknown, root: unknown): boolean {
    if (!Array.isArray(branches)) return false;
    const seen = new Set<string>();
    for (const branch of branches) {
      const s = resolve(root, branch);
      const types = isObject(s) ? typeSet(s.type) : null;
      if (types === null) return false;
      for (const t of types) {
        const overlapping = t === 'integer' || t === 'number' ? ['integer', 'number'] : [t];
        if (overlapping.some((o) => seen.has(o))) return false;
      }
      for (const t of types) seen.add(t);
    }
    return true;
  }

  /** Any other keyword (not, if/then/else, patternProperties, prefixItems…): added narrows, removed widens, changed is unclassified. */
  private others(a: JsonSchema, b: JsonSchema, at: string, depth: number): void {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      if (HANDLED.has(k) || ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
      if (this.same(a[k], b[k])) continue;
      const p = `${at}/${pointerToken(k)}`;
      if (k === 'unevaluatedProperties') this.additional(a, b, at, depth, k);
      else if (decidesFallback(k, a) || decidesFallback(k, b))
        this.add(p, 'schema-changed', 'unclassified', `${k} changed beside a restricting ${FALLBACK[k]}`);
      else if (a[k] === undefined) this.add(p, 'constraint-tightened', 'narrow', `${k} added`);
      else if (b[k] === undefined) this.add(p, 'constraint-loosened', 'widen', `${k} removed`);
      else this.add(p, 'schema-changed', 'unclassified', `${k} changed`);
    }
  }
}

/**
 * A schema made nullable as `anyOf: [<it>, {type: 'null'}]` (or the reverse) is that schema with
 * a branch added, not a new constraint: a schema that is only an `anyOf` is compared with the
 * other side as the one branch `anyOf: [<other>]`, so the branches tell what was added or removed.
 */
function asAnyOfPair(a: JsonSchema, b: JsonSchema): [JsonSchema, JsonSchema] {
  if (only(b, 'anyOf') && a.anyOf === undefined) return [asOneBranch(a, 'anyOf') ?? a, b];
  if (only(a, 'anyOf') && b.anyOf === undefined) return [a, asOneBranch(b, 'anyOf') ?? b];
  return [a, b];
}

/** Keywords that say nothing of which values are valid, wherever they sit. */
function isAnnotation(k: string): boolean {
  return ANNOTATIONS.has(k) || k === 'default' || k.startsWith('x-');
}

/** `s` holds `k` (anyOf or oneOf) and annotations only. */
function only(s: JsonSchema, k: 'anyOf' | 'oneOf'): boolean {
  return Array.isArray(s[k]) && Object.keys(s).every((key) => key === k || isAnnotation(key));
}

/** `s` as `anyOf: [s]` or `oneOf: [s]` (its annotations kept outside); undefined when it constrains nothing. */
function asOneBranch(s: JsonSchema, k: 'anyOf' | 'oneOf'): JsonSchema | undefined {
  const outside = Object.entries(s).filter(([key]) => isAnnotation(key));
  const branch = Object.fromEntries(Object.entries(s).filter(([key]) => !isAnnotation(key)));
  if (Object.keys(branch).length === 0) return undefined;
  return { ...Object.fromEntries(outside), [k]: branchesByType(branch) };
}

/** Keywords that hold for a value whatever its type: a schema with one is not split by type. */
const ANY_TYPE = ['enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'if', '$ref'];

/**
 * `type: [string, 'null']` is `anyOf: [{type: string}, {type: 'null'}]`, the two ways of writing a
 * nullable value: a list of types is one branch a type, `null` taking none of the other keywords
 * (they constrain strings, numbers, arrays or objects only).
 */
function branchesByType(s: JsonSchema): JsonSchema[] {
  if (!Array.isArray(s.type) || s.type.length < 2 || ANY_TYPE.some((k) => k in s)) return [s];
  return (s.type as unknown[]).map((t) => (t === 'null' ? { type: 'null' } : { ...s, type: t }));
}

/**
 * Keywords that take keys or items away from another one (`additionalProperties: false` refuses
 * only keys no pattern matches): with that one restricting, adding them can accept more and
 * removing them accept less, so neither is a plain narrowing or widening.
 */
const FALLBACK: Record<string, string> = {
  patternProperties: 'additionalProperties',
  prefixItems: 'items',
};
const FALLBACK_KEYS: Record<string, string[]> = {
  patternProperties: ['additionalProperties', 'unevaluatedProperties'],
  prefixItems: ['items', 'unevaluatedItems'],
};

function decidesFallback(k: string, s: JsonSchema): boolean {
  return (FALLBACK_KEYS[k] ?? []).some((f) => s[f] !== undefined && s[f] !== true);
}

/** The schema a `$ref` points to in its root (its siblings over it), or the schema itself; undefined when it does not resolve. */
function resolve(root: unknown, s: unknown): unknown {
  let node = s;
  for (let hops = 0; hops < 32; hops++) {
    const ref = refOf(node);
    if (ref === undefined) return node;
    const target = pointerGet(root, ref);
    if (target === undefined) return undefined;
    const { $ref: _ref, ...siblings } = node as JsonSchema;
    node = Object.keys(siblings).length && isObject(target) ? { ...target, ...siblings } : target;
  }
  return undefined;
}

/**
 * The schemas a key `name` that `properties` does not declare must match: the `patternProperties`
 * matching it, else `additionalProperties`, else `unevaluatedProperties` (each applies only to keys
 * the ones before leave).
 */
function undeclaredSchemas(s: JsonSchema, name: string): unknown[] {
  const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  const matching = patterns.filter(([re]) => matchesPattern(re, name)).map(([, schema]) => schema);
  if (matching.length) return matching;
  if (s.additionalProperties !== undefined) return [s.additionalProperties];
  if (s.unevaluatedProperties !== undefined) return [s.unevaluatedProperties];
  return [];
}

/** A pattern validators cannot compile is taken to match: its schema may apply. */
function matchesPattern(re: string, name: string): boolean {
  try {
    return new RegExp(re, 'u').test(name);
  } catch {
    return true;
  }
}

/** Every `$ref` written anywhere in `v`. */
function refsIn(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refsIn(x, out);
  else if (isObject(v)) {
    if (typeof v.$ref === 'string') out.push(v.$ref);
    for (const x of Object.values(v)) refsIn(x, out);
  }
  return out;
}

function refOf(s: unknown): string | undefined {
  return isObject(s) && typeof s.$ref === 'string' ? s.$ref : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at a local `$ref` (`#/…`, RFC 6901 with URI escapes) of the root, or undefined. */
function pointerGet(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  const frag = ref.slice(1);
  if (frag === '') return root;
  if (!frag.startsWith('/')) return undefined;
  for (const raw of frag.slice(1).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node) && Object.hasOwn(node, seg)) node = node[seg];
    else return undefined;
  }
  return node;
}

function typeSet(t: unknown): Set<string> | null {
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.map(String));
  return null;
}

/** Every value of a type in `inner` is of a type in `outer` (integer within number; null: any type). */
function covers(outer: Set<string> | null, inner: Set<string> | null): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  for (const t of inner) if (!outer.has(t) && !(t === 'integer' && outer.has('number'))) return false;
  return true;
}

function showType(t: Set<string> | null): string {
  return t === null ? 'any' : [...t].join('|');
}

function allowed(s: JsonSchema): unknown[] | null {
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  if ('const' in s) return [s.const];
  return null;
}

function list(values: unknown[]): string {
  return values.map(show).join(', ');
}

function showAdditional(v: unknown): string {
  return v === true || v === false ? String(v) : 'a schema';
}

function isMultiple(x: number, of: number): boolean {
  if (of === 0) return false;
  const q = x / of;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

export function show(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

/** JSON Pointer token escaping (RFC 6901). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** JSON with object keys sorted: two equal values, one text. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    isObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return canonical(a) === canonical(b);
}
