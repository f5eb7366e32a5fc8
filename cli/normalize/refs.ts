/**
 * `$ref` policy.
 * - On the wire, references to the manifest's `schemas:` are inlined (many MCP clients drop or
 *   reject `$ref`). A recursive shared schema cannot be inlined: it is kept under the advertised
 *   schema's own `$defs` (`definitions` in a draft-07 schema) and the reference points there
 *   (normalize warns, MCPG207). `options.refs: defs` keeps every shared schema that way.
 * - Any other local `$ref` is a JSON Pointer from the root of the schema it is written in (RFC
 *   6901; JSON Schema 2020-12 §8.2). The entry's own pointers are advertised as written; a shared
 *   schema copied (inlined or kept) somewhere else has the copy's place put in front of its own, so
 *   each still designates the same subschema of that copy.
 * - For types, every entry schema becomes one `$defs` member of a single document, so shared
 *   schemas turn into one named type each and entry-local `$defs` do not clash.
 */
import type { JsonSchema } from './ir.js';
import { collectRefs, isObject, mapSchema, sharedRefName, SHARED_PREFIX } from './schema-walk.js';
import { typeName } from './names.js';
import { fragmentSegments, hasKeys } from '../manifest/json-path.js';
import { pointerRef, pointerTarget } from '../validate/ref-pointer.js';

export type SharedSchemas = Record<string, unknown>;

/** Names of shared schemas that can reach themselves through `$ref`s (they cannot be inlined). */
export function recursiveSharedNames(shared: SharedSchemas): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(shared)) {
    edges.set(
      name,
      collectRefs(schema)
        .map(sharedRefName)
        .filter((n): n is string => n !== null && n in shared),
    );
  }
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(edges.get(n) ?? []));
    }
  }
  return recursive;
}

/**
 * False when no key anywhere in the value is `$ref`, so there is nothing to rewrite: most schemas
 * of a large manifest. A walk that stops at the first one, not a JSON.stringify of the schema to
 * search (which costs about a fifth of rendering types.ts).
 */
function mayHaveRef(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  // Deeper than any real schema (or a cycle through YAML aliases): walk it as before.
  if (depth > 256) return true;
  if (Array.isArray(schema)) {
    for (const v of schema) if (mayHaveRef(v, depth + 1)) return true;
    return false;
  }
  for (const k in schema) {
    if (k === '$ref') return true;
    if (mayHaveRef((schema as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

/** Merge `$ref` siblings (e.g. a local `description`) over the referenced schema. */
function withSiblings(target: unknown, node: JsonSchema): unknown {
  const { $ref: _ref, ...siblings } = node;
  if (Object.keys(siblings).length === 0) return target;
  if (!isObject(target)) return { allOf: [target], ...siblings };
  return { ...target, ...siblings };
}

/**
 * The kept (not inlined) shared schemas a schema reaches, in the order a recursive rewrite meets
 * them first: depth first, a schema's own references before its next sibling's. The references of
 * an inlined schema count where it is copied in; the siblings of an inlined `$ref` are not walked
 * (the copy replaces them wholesale, as withSiblings does).
 */
function keptInOrder(schema: unknown, shared: SharedSchemas, keep: Set<string>): string[] {
  const refsOf = (s: unknown): string[] => {
    const refs: string[] = [];
    mapSchema(s, (node) => {
      if (typeof node.$ref !== 'string') return undefined;
      refs.push(node.$ref);
      const name = sharedRefName(node.$ref);
      // An inlined schema replaces this node: nothing under it is rewritten.
      return name !== null && Object.hasOwn(shared, name) && !keep.has(name) ? node : undefined;
    });
    return refs;
  };
  const order: string[] = [];
  const seen = new Set<string>();
  const stack: Iterator<string>[] = [refsOf(schema)[Symbol.iterator]()];
  while (stack.length) {
    const next = stack[stack.length - 1]!.next();
    if (next.done) {
      stack.pop();
      continue;
    }
    const name = sharedRefName(next.value);
    if (name === null || !Object.hasOwn(shared, name)) continue;
    if (keep.has(name)) {
      if (seen.has(name)) continue;
      seen.add(name);
      order.push(name);
    }
    stack.push(refsOf(shared[name])[Symbol.iterator]());
  }
  return order;
}

/** A local `$ref` that is a JSON Pointer into its own schema (not `#/schemas/<Name>`). */
export function isLocalPointer(ref: string): boolean {
  return ref.startsWith('#') && !ref.startsWith(SHARED_PREFIX);
}

/**
 * The schema as it reads once copied to `at` in another document: a JSON Pointer resolves from the
 * document's root (RFC 6901; JSON Schema 2020-12 §8.2), so each of its own gets `at` in front
 * (`#/properties/a` → `#/properties/msg/properties/a`, `#` → `#/properties/msg`).
 */
export function movePointers(schema: unknown, at: readonly (string | number)[]): unknown {
  if (at.length === 0 || !mayHaveRef(schema)) return schema;
  const prefix = pointerRef(at);
  const moved = new WeakSet<object>();
  return mapSchema(schema, (node, recurse) => {
    if (moved.has(node) || typeof node.$ref !== 'string' || !isLocalPointer(node.$ref)) return undefined;
    // Spread keeps the key order (and own `__proto__` keys); the copy's subschemas are walked next.
    const copy = { ...node, $ref: prefix + node.$ref.slice(1) };
    moved.add(copy);
    return recurse(copy);
  });
}

/** Draft-07 knows `definitions`, not `$defs`: a schema that declares it, or already uses `definitions`, gets those. */
function defsKeyword(schema: JsonSchema): '$defs' | 'definitions' {
  const dialect =
    typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '').replace(/^https:/, 'http:') : '';
  if (dialect === 'http://json-schema.org/draft-07/schema') return 'definitions';
  return isObject(schema.definitions) && !isObject(schema.$defs) ? 'definitions' : '$defs';
}

/**
 * The schema as advertised: shared refs inlined, except the ones in `keep` (the recursive ones; every
 * one with `options.refs: defs`), which are moved to the root's `$defs` and referred to there.
 */
export function inlineSharedRefs(schema: JsonSchema, shared: SharedSchemas, keep: Set<string>): JsonSchema {
  // Nothing shared, or no reference in this schema: nothing to inline.
  if (!hasKeys(shared) || !mayHaveRef(schema)) return schema;
  const hoisted = new Map<string, unknown>();
  const defsKey = defsKeyword(schema);
  const existingDefs = isObject(schema[defsKey]) ? (schema[defsKey] as Record<string, unknown>) : {};
  const defName = (name: string): string => {
    let n = name;
    for (let i = 2; n in existingDefs; i++) n = `${name}_${i}`;
    return n;
  };
  const rewrite = (s: unknown, base: readonly (string | number)[] = []): unknown =>
    mapSchema(
      s,
      (node, recurse, path) => {
        const name = typeof node.$ref === 'string' ? sharedRefName(node.$ref) : null;
        if (name === null || !(name in shared)) return undefined;
        if (!keep.has(name)) {
          return withSiblings(recurse(movePointers(shared[name], path)), node);
        }
        const target = defName(name);
        const { $ref: _r, ...siblings } = node;
        // Siblings of the rewritten ref stay on the node: recursion needs the reference itself.
        const $ref = `#/${defsKey}/${encodeURIComponent(target)}`;
        return Object.keys(siblings).length ? { $ref, ...(recurse(siblings) as object) } : { $ref };
      },
      base,
    );
  // Every kept schema this one reaches, in the order a recursive rewrite would first meet them,
  // found with an explicit stack: `options.refs: defs` over a chain of thousands of shared
  // schemas would otherwise recurse once per link. Each is then rewritten on its own.
  const kept = keptInOrder(schema, shared, keep);
  const targets = kept.map((name) => defName(name));
  const out = rewrite(schema) as JsonSchema;
  kept.forEach((name, i) => {
    const at = [defsKey, targets[i]!];
    hoisted.set(targets[i]!, rewrite(movePointers(shared[name], at), at));
  });
  if (hoisted.size === 0) return out;
  const defs: Record<string, unknown> = {
    ...(isObject(out[defsKey]) ? (out[defsKey] as Record<string, unknown>) : {}),
  };
  for (const [k, v] of hoisted) defs[k] = v;
  return { ...out, [defsKey]: defs };
}

/**
 * The schema rebased for the combined types document: `#/schemas/X` → `#/$defs/X`, the entry's own
 * `#/$defs/y` / `#/definitions/y` → `#/$defs/<Owner><Y>` (hoisted), `#` → the entry itself, and any
 * other subschema a JSON Pointer designates → a named type of its own (`#/properties/msg` →
 * `#/$defs/<Owner>Msg`, hoisted, its place referring to it): a pointer to an ancestor is recursion,
 * which only a name can express. Returns the rewritten root plus the hoisted types.
 */
export function rebaseForTypes(
  schema: JsonSchema,
  owner: string,
  taken: Set<string> = new Set(),
): { root: JsonSchema; hoisted: Record<string, unknown> } {
  const local: Record<string, unknown> = {
    ...(isObject(schema.definitions) ? schema.definitions : {}),
    ...(isObject(schema.$defs) ? schema.$defs : {}),
  };
  // `<Owner><Def>`, made unique against every other type name (`a-b` and `a_b`; tool `foo` with a
  // definition `Output` next to a tool `foo_input`): `taken` holds the names already given out.
  const unique = (base: string): string => {
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    return name;
  };
  const names = new Map<string, string>();
  for (const n of Object.keys(local)) names.set(n, unique(`${owner}${typeName(n)}`));
  const localName = (n: string): string => names.get(n) ?? `${owner}${typeName(n)}`;
  const targets = pointedTargets(schema, owner, unique);
  /** The type name a `$ref` designates (a boolean target as itself), or null to leave it. */
  const refName = (ref: string): string | boolean | null => {
    const shared = sharedRefName(ref);
    if (shared !== null) return typeName(shared);
    if (!isLocalPointer(ref)) return null;
    const segs = fragmentSegments(ref.slice(1));
    const t = segs && pointerTarget(schema, segs);
    if (!t?.ok) return null;
    if (typeof t.schema === 'boolean') return t.schema;
    if (t.path.length === 0) return owner;
    if (t.path.length === 2 && (t.path[0] === '$defs' || t.path[0] === 'definitions'))
      return localName(String(t.path[1]));
    return targets.get(pathKey(t.path)) ?? null;
  };
  const hoisted: Record<string, unknown> = {};
  const inBody = new WeakSet<object>();
  const rewrite = (s: unknown, base: readonly (string | number)[]): unknown =>
    // A pointed-to subschema may hold no `$ref` itself (the pointer is elsewhere): walk it anyway.
    targets.size === 0 && !mayHaveRef(s)
      ? s
      : mapSchema(
          s,
          (node, recurse, path) => {
            const named = targets.size > 0 && !inBody.has(node) ? targets.get(pathKey(path)) : undefined;
            if (named !== undefined) {
              // The subschema becomes its own type; its place refers to it, keeping its documentation.
              inBody.add(node);
              hoisted[named] = null;
              hoisted[named] = recurse(node);
              inBody.delete(node);
              const doc = Object.fromEntries(
                Object.entries(node).filter(([k]) => k === 'description' || k === 'deprecated'),
              );
              return { $ref: `#/$defs/${named}`, ...doc };
            }
            if (typeof node.$ref !== 'string') return undefined;
            const target = refName(node.$ref);
            if (target === null) return undefined;
            // Siblings stay (and are rebased too): a local `description` documents the property. They
            // sit at the node's own place, which is no second target.
            const { $ref: _r, ...siblings } = node;
            inBody.add(siblings);
            const rest = recurse(siblings) as object;
            // `true` adds nothing; `false` (`never`) is kept beside the siblings.
            if (typeof target === 'boolean') return target ? rest : { ...rest, allOf: [false] };
            return { $ref: `#/$defs/${target}`, ...rest };
          },
          base,
        );
  const { $defs: _d, definitions: _defs, $schema: _s, $id: _i, ...rest } = schema;
  for (const k of Object.keys(local)) {
    const keyword = isObject(schema.$defs) && Object.hasOwn(schema.$defs, k) ? '$defs' : 'definitions';
    hoisted[localName(k)] = rewrite(local[k], [keyword, k]);
  }
  const root = rewrite(rest, []) as JsonSchema;
  return { root, hoisted };
}

const pathKey = (path: readonly (string | number)[]): string => JSON.stringify(path);

/**
 * Subschemas that local pointers designate and that need a type name of their own (not the root,
 * not a whole local definition), by path, named `<Owner>` + the steps that lead there
 * (`#/properties/message/anyOf/0/properties/content` → `<Owner>MessageAnyOf0Content`).
 */
function pointedTargets(schema: JsonSchema, owner: string, unique: (base: string) => string): Map<string, string> {
  const out = new Map<string, string>();
  if (!mayHaveRef(schema)) return out;
  mapSchema(schema, (node) => {
    if (typeof node.$ref !== 'string' || !isLocalPointer(node.$ref)) return undefined;
    const segs = fragmentSegments(node.$ref.slice(1));
    const t = segs && pointerTarget(schema, segs);
    // A boolean target needs no name: its place is `unknown` or `never` as it stands.
    if (!t?.ok || t.path.length === 0 || !isObject(t.schema)) return undefined;
    if (t.path.length === 2 && (t.path[0] === '$defs' || t.path[0] === 'definitions')) return undefined;
    const key = pathKey(t.path);
    if (!out.has(key)) out.set(key, unique(owner + stepsName(t.path)));
    return undefined;
  });
  return out;
}

/** Keywords whose next step is a name the type name keeps (`properties/content` → `Content`). */
const NAMED_STEPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

function stepsName(path: readonly (string | number)[]): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const step = String(path[i]);
    const next = path[i + 1];
    if (NAMED_STEPS.has(step) && next !== undefined) (out += typeName(String(next))), i++;
    else if (step === 'items' && typeof next !== 'number') out += 'Item';
    else if (typeof next === 'number') (out += `${typeName(step)}${next}`), i++;
    else if (step === 'patternProperties' && next !== undefined) (out += 'Pattern'), i++;
    else out += typeName(step);
  }
  return out;
}
