/**
 * `$ref` policy.
 * - On the wire, references to the manifest's `schemas:` are inlined (many MCP clients drop or
 *   reject `$ref`). A recursive shared schema cannot be inlined: it is kept under the advertised
 *   schema's own `$defs` (`definitions` in a draft-07 schema) and the reference points there
 *   (normalize warns, MCPG207). `options.refs: defs` keeps every shared schema that way.
 * - For types, every entry schema becomes one `$defs` member of a single document, so shared
 *   schemas turn into one named type each and entry-local `$defs` do not clash.
 */
import type { JsonSchema } from './ir.js';
import { collectRefs, isObject, mapSchema, sharedRefName } from './schema-walk.js';
import { typeName } from './names.js';
import { hasKeys } from '../manifest/json-path.js';

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

/** Draft-07 knows `definitions`, not `$defs`: a schema that declares it, or already uses `definitions`, gets those. */
function defsKeyword(schema: JsonSchema): '$defs' | 'definitions' {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '').replace(/^https:/, 'http:') : '';
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
  const rewrite = (s: unknown): unknown =>
    mapSchema(s, (node, recurse) => {
      const name = typeof node.$ref === 'string' ? sharedRefName(node.$ref) : null;
      if (name === null || !(name in shared)) return undefined;
      if (!keep.has(name)) {
        return withSiblings(recurse(shared[name]), node);
      }
      const target = defName(name);
      const { $ref: _r, ...siblings } = node;
      // Siblings of the rewritten ref stay on the node: recursion needs the reference itself.
      const $ref = `#/${defsKey}/${encodeURIComponent(target)}`;
      return Object.keys(siblings).length ? { $ref, ...(recurse(siblings) as object) } : { $ref };
    });
  // Every kept schema this one reaches, in the order a recursive rewrite would first meet them,
  // found with an explicit stack: `options.refs: defs` over a chain of thousands of shared
  // schemas would otherwise recurse once per link. Each is then rewritten on its own.
  const kept = keptInOrder(schema, shared, keep);
  const targets = kept.map((name) => defName(name));
  const out = rewrite(schema) as JsonSchema;
  kept.forEach((name, i) => hoisted.set(targets[i]!, rewrite(shared[name])));
  if (hoisted.size === 0) return out;
  const defs: Record<string, unknown> = { ...(isObject(out[defsKey]) ? (out[defsKey] as Record<string, unknown>) : {}) };
  for (const [k, v] of hoisted) defs[k] = v;
  return { ...out, [defsKey]: defs };
}

/**
 * The schema rebased for the combined types document: `#/schemas/X` → `#/$defs/X`, the entry's own
 * `#/$defs/y` / `#/definitions/y` → `#/$defs/<Owner><Y>` (hoisted), `#` → the entry itself.
 * Returns the rewritten root plus the hoisted local definitions.
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
  const names = new Map<string, string>();
  for (const n of Object.keys(local)) {
    const base = `${owner}${typeName(n)}`;
    let unique = base;
    for (let i = 2; taken.has(unique); i++) unique = `${base}${i}`;
    taken.add(unique);
    names.set(n, unique);
  }
  const localName = (n: string): string => names.get(n) ?? `${owner}${typeName(n)}`;
  const rewrite = (s: unknown): unknown =>
    !mayHaveRef(s) ? s : mapSchema(s, (node, recurse) => {
      if (typeof node.$ref !== 'string') return undefined;
      const ref = node.$ref;
      const shared = sharedRefName(ref);
      let target: string | null = null;
      if (shared !== null) target = typeName(shared);
      else if (ref === '#') target = owner;
      else {
        const m = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
        if (m) target = localName(decodeURIComponent(m[1]!));
      }
      if (target === null) return undefined;
      // Siblings stay (and are rebased too): a local `description` documents the property.
      const { $ref: _r, ...siblings } = node;
      return { $ref: `#/$defs/${target}`, ...(recurse(siblings) as object) };
    });
  const { $defs: _d, definitions: _defs, $schema: _s, $id: _i, ...rest } = schema;
  const hoisted: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(local)) hoisted[localName(k)] = rewrite(v);
  return { root: rewrite(rest) as JsonSchema, hoisted };
}
