/**
 * Schemas rebased for types.ts: every entry schema becomes one `$defs` member of a single document,
 * so shared schemas turn into one named type each and entry-local `$defs` do not clash.
 */
import type { JsonSchema } from '../../normalize/ir.js';
import { isObject, mapSchema, sharedRefName } from '../../normalize/schema-walk.js';
import { typeName } from '../../normalize/names.js';
import { fragmentSegments } from '../../manifest/json-path.js';
import { pointerTarget } from '../../validate/ref-pointer.js';
import { isLocalPointer, mayHaveRef } from '../../normalize/refs.js';

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
