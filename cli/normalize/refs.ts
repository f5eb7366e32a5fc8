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
 */
import type { JsonSchema } from './ir.js';
import { collectRefs, isObject, mapSchema, sharedRefName, SHARED_PREFIX } from './schema-walk.js';
import { hasKeys } from '../manifest/json-path.js';
import { pointerRef } from '../validate/ref-pointer.js';

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
export function mayHaveRef(schema: unknown, depth = 0): boolean {
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
