import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, toPointer, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import {
  embeddedSchemas,
  IN_PLACE_LISTS,
  IN_PLACE_ONE,
  inPlaceRefs,
  recordEntries,
  walkSchema,
  type EmbeddedSchema,
} from '../json-schema-walk.js';
import { resolveRef } from '../refs.js';

interface Node {
  path: JsonPath;
  schema: unknown;
  /** The embedded schema its local JSON Pointers resolve against. */
  root: EmbeddedSchema;
}

interface Edge {
  to: Node;
  /** Where the `$ref` that makes this edge is written. */
  refPath: JsonPath;
}

/**
 * `$ref` cycles that never reach a schema (`A: {$ref: B}`, `B: {$ref: A}`): validating A means
 * validating B at the same place in the data, forever. Only refs applied in place (directly, or via
 * allOf/anyOf/oneOf/not/if/then/else) count; a ref under `properties`/`items` moves into the data,
 * so a tree whose children refer to the tree is fine.
 */
export function checkRefCycles(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const state = new Map<string, 'active' | 'done'>();
  const reported = new Set<string>();
  const stack: { node: Node; via?: JsonPath }[] = [];

  const edges = (n: Node): Edge[] =>
    inPlaceRefs(n.schema, n.path).flatMap(({ ref, path }) => {
      const r = resolveRef(ref, n.root, m.data);
      if (!r.ok) return [];
      const root =
        r.path[0] === 'schemas' && r.path.length === 2 && isRecord(r.schema)
          ? { path: r.path, schema: r.schema }
          : n.root;
      return [{ to: { path: r.path, schema: r.schema, root }, refPath: path }];
    });

  const visit = (n: Node): void => {
    const id = toPointer(n.path);
    state.set(id, 'active');
    for (const e of edges(n)) {
      const to = toPointer(e.to.path);
      if (state.get(to) === 'active') {
        // The cycle is the part of the stack from `to` on (n is on top), closed by this edge.
        const start = stack.findIndex((s) => toPointer(s.node.path) === to);
        const members = stack.slice(start).map((s) => s.node);
        const key = members
          .map((x) => toPointer(x.path))
          .sort()
          .join(' ');
        if (!reported.has(key)) {
          reported.add(key);
          const first = stack[start + 1]?.via ?? e.refPath; // the ref leaving the cycle's first member
          const names = [...members, members[0]!].map((x) => label(x.path)).join(' → ');
          out.push(
            diagAt(m, first, Codes.REF_CYCLE, `\`$ref\` cycle never reaches a schema: ${names}`, {
              hint: 'each schema in the cycle only refers to the next; recursion must go through properties or items (like a tree whose children are trees)',
            }),
          );
        }
      } else if (state.get(to) === undefined) {
        stack.push({ node: e.to, via: e.refPath });
        visit(e.to);
        stack.pop();
      }
    }
    state.set(id, 'done');
  };

  for (const root of embeddedSchemas(m.data)) {
    const starts: Node[] = [{ path: root.path, schema: root.schema, root }];
    for (const defs of ['$defs', 'definitions']) {
      for (const [name, s] of recordEntries(root.schema[defs]))
        starts.push({ path: [...root.path, defs, name], schema: s, root });
    }
    // A cycle among subschemas that JSON Pointers name (`#/properties/a` ↔ `#/properties/b`) is
    // reachable from none of the above: every member is the target of a pointer, so start there too.
    walkSchema(root.schema, root.path, (node) => {
      if (typeof node.$ref !== 'string' || !isPointerBeyondStarts(node.$ref)) return;
      const r = resolveRef(node.$ref, root, m.data);
      if (r.ok) starts.push({ path: r.path, schema: r.schema, root });
    });
    for (const s of starts) {
      // A schema without in-place refs has no edges: visiting it would only mark it done (a later
      // ref to it visits it then, with the same result). Most schemas are such, and a pointer each costs.
      if (!hasInPlaceRef(s.schema) || state.has(toPointer(s.path))) continue;
      stack.push({ node: s });
      visit(s);
      stack.pop();
    }
  }
  return out;
}

/** A local pointer to something other than a whole definition (those are starts already), `#/schemas/…` aside. */
function isPointerBeyondStarts(ref: string): boolean {
  return ref.startsWith('#') && !ref.startsWith('#/schemas/') && !/^#\/(?:\$defs|definitions)\/[^/]*$/.test(ref);
}

/** Whether inPlaceRefs(schema) would find any, without making the list. */
function hasInPlaceRef(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === 'string') return true;
  for (const k of IN_PLACE_ONE) if (hasInPlaceRef(schema[k])) return true;
  for (const k of IN_PLACE_LISTS) {
    const list = schema[k];
    if (Array.isArray(list) && list.some(hasInPlaceRef)) return true;
  }
  for (const [, sub] of recordEntries(schema.dependentSchemas)) if (hasInPlaceRef(sub)) return true;
  return false;
}

/** `#/schemas/A` for shared schemas; `tools.x.input#/$defs/a` for subschemas of an embedded schema. */
function label(path: JsonPath): string {
  if (path[0] === 'schemas' && path.length === 2) return `#/schemas/${String(path[1])}`;
  // The embedded root: a shared schema, a tool's `input`/`output`, a template variable.
  const rootLength =
    path[0] === 'schemas' ? 2 : path[0] === 'tools' ? 3 : path[0] === 'resourceTemplates' ? 4 : path.length;
  if (path.length > rootLength) return `${path.slice(0, rootLength).join('.')}#${toPointer(path.slice(rootLength))}`;
  return path.join('.');
}
