/**
 * `$ref` policy.
 * - On the wire, references to the manifest's `schemas:` are inlined (many MCP clients drop or
 *   reject `$ref`). A recursive shared schema cannot be inlined: it is kept under the advertised
 *   schema's own `$defs` and the reference points there.
 * - For types, every entry schema becomes one `$defs` member of a single document, so shared
 *   schemas turn into one named type each and entry-local `$defs` do not clash.
 */
import type { JsonSchema } from './ir.js';
import { collectRefs, isObject, mapSchema, sharedRefName } from './schema-walk.js';
import { typeName } from './names.js';

export type SharedSchemas = Record<string, unknown>;

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

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

/** Merge `$ref` siblings (e.g. a local `description`) over the referenced schema. */
function withSiblings(target: unknown, node: JsonSchema): unknown {
  const { $ref: _ref, ...siblings } = node;
  if (Object.keys(siblings).length === 0) return target;
  if (!isObject(target)) return { allOf: [target], ...siblings };
  return { ...target, ...siblings };
}

/** The schema as advertised: shared refs inlined, recursive ones moved to the root's `$defs`. */
export function inlineSharedRefs(schema: JsonSchema, shared: SharedSchemas, recursive: Set<string>): JsonSchema {
  const hoisted = new Map<string, unknown>();
  const existingDefs = isObject(schema.$defs) ? schema.$defs : {};
  const defName = (name: string): string => {
    let n = name;
    for (let i = 2; n in existingDefs; i++) n = `${name}_${i}`;
    return n;
  };
  const rewrite = (s: unknown): unknown =>
    mapSchema(s, (node, recurse) => {
      const name = typeof node.$ref === 'string' ? sharedRefName(node.$ref) : null;
      if (name === null || !(name in shared)) return undefined;
      if (!recursive.has(name)) {
        return withSiblings(recurse(shared[name]), node);
      }
      const target = defName(name);
      if (!hoisted.has(target)) {
        hoisted.set(target, null); // reserve before recursing: the schema refers to itself
        hoisted.set(target, rewrite(shared[name]));
      }
      const { $ref: _r, ...siblings } = node;
      // Siblings of the rewritten ref stay on the node: recursion needs the reference itself.
      return Object.keys(siblings).length ? { $ref: `#/$defs/${target}`, ...recurse(siblings) as object } : { $ref: `#/$defs/${target}` };
    });
  const out = rewrite(schema) as JsonSchema;
  if (hoisted.size === 0) return out;
  const defs = { ...(isObject(out.$defs) ? out.$defs : {}) };
  for (const [k, v] of hoisted) defs[k] = v;
  return { ...out, $defs: defs };
}

/**
 * The schema rebased for the combined types document: `#/schemas/X` → `#/$defs/X`, the entry's own
 * `#/$defs/y` / `#/definitions/y` → `#/$defs/<Owner><Y>` (hoisted), `#` → the entry itself.
 * Returns the rewritten root plus the hoisted local definitions.
 */
export function rebaseForTypes(
  schema: JsonSchema,
  owner: string,
): { root: JsonSchema; hoisted: Record<string, unknown> } {
  const local: Record<string, unknown> = {
    ...(isObject(schema.definitions) ? schema.definitions : {}),
    ...(isObject(schema.$defs) ? schema.$defs : {}),
  };
  const localName = (n: string): string => `${owner}${typeName(n)}`;
  const rewrite = (s: unknown): unknown =>
    mapSchema(s, (node) => {
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
      // Annotation-only siblings (a local description) would make json-schema-to-typescript emit a
      // copy of the referenced type (`Point1`); the type is the same, so they are dropped here.
      const kept = Object.entries(node).filter(([k]) => k !== '$ref' && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
      return { ...Object.fromEntries(kept), $ref: `#/$defs/${target}` };
    });
  const { $defs: _d, definitions: _defs, $schema: _s, $id: _i, ...rest } = schema;
  const hoisted: Record<string, unknown> = {};
  // The definition key names the type; a `title` would override it and break references to it.
  const untitled = (v: unknown) => (isObject(v) ? (({ title: _t, ...rest }) => rest)(v) : v);
  for (const [k, v] of Object.entries(local)) hoisted[localName(k)] = stripTypeOnlyNoise(rewrite(untitled(v)));
  return { root: stripTypeOnlyNoise(rewrite(rest)) as JsonSchema, hoisted };
}

/** `$schema`/`$id` inside a subschema confuse the ref resolver of json-schema-to-typescript. */
function stripTypeOnlyNoise(s: unknown): unknown {
  return mapSchema(s, (node, recurse) => {
    if (!('$id' in node) && !('$schema' in node)) return undefined;
    const { $id: _i, $schema: _s, ...rest } = node;
    return recurse(rest);
  });
}
