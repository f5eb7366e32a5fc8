import type { LoadedManifest } from '../load/types.js';
import { isRecord, toPointer, type JsonPath } from '../manifest/json-path.js';
import type { EmbeddedSchema } from '../validate/json-schema-walk.js';
import { recordEntries } from '../validate/json-schema-walk.js';
import { derefRoot, resolveRef } from '../validate/refs.js';

/** A property of a tool's input schema, at any depth of inline objects. */
export interface InputProperty {
  /** The first tool whose input reaches it. */
  tool: string;
  /** Every tool whose input reaches it, in manifest order: one, unless it is in a shared schema. */
  tools: string[];
  name: string;
  /** Path of the property's schema in the manifest (may be inside a shared schema the input refers to). */
  path: JsonPath;
  /** The property schema as written. */
  own: Record<string, unknown>;
  /** `own` over the schemas its `$ref` chain reaches (siblings of a `$ref` override, as mcpgen inlines them). */
  effective: Record<string, unknown>;
  /** Named in its object's `required`. */
  required: boolean;
}

/**
 * Every property of every tool input: the root's `properties` (after following a root `$ref`), and
 * those of inline nested objects and array items. A shared schema reached by several tools is
 * reported once. Never follows a `$ref` to descend (recursive schemas), never throws on odd shapes.
 */
export function inputProperties(m: LoadedManifest): InputProperty[] {
  // Several rules ask, and lint may run them twice (unlocated, then located); the data does not
  // change once loaded, so it is walked once per data, whatever LoadedManifest wraps it.
  if (!isRecord(m.data)) return [];
  let out = found.get(m.data);
  if (!out) found.set(m.data, (out = collect(m)));
  return out;
}

const found = new WeakMap<object, InputProperty[]>();

function collect(m: LoadedManifest): InputProperty[] {
  const out: InputProperty[] = [];
  const data = m.data;
  if (!isRecord(data)) return out;
  const seen = new Map<string, InputProperty>();
  for (const [tool, t] of recordEntries(data.tools)) {
    if (!isRecord(t) || !isRecord(t.input)) continue;
    const start = derefRoot({ path: ['tools', tool, 'input'], schema: t.input }, data);
    if (!start) continue;
    const base: EmbeddedSchema =
      start.path[0] === 'schemas' && start.path.length === 2
        ? start
        : { path: ['tools', tool, 'input'], schema: t.input };
    const visitObject = (node: Record<string, unknown>, path: JsonPath, depth: number): void => {
      if (depth > 32) return;
      const required = Array.isArray(node.required) ? node.required.filter((r) => typeof r === 'string') : [];
      for (const [name, prop] of recordEntries(node.properties)) {
        if (!isRecord(prop)) continue;
        const propPath = [...path, 'properties', name];
        // Only a shared schema can be reached twice (from several tools); a tool's own paths are unique.
        // Reached again, it is reported once but remembers the tool, and its nested properties too.
        const key = propPath[0] === 'schemas' ? toPointer(propPath) : undefined;
        const again = key === undefined ? undefined : seen.get(key);
        if (again) {
          if (!again.tools.includes(tool)) again.tools.push(tool);
        } else {
          const p: InputProperty = {
            tool,
            tools: [tool],
            name,
            path: propPath,
            own: prop,
            effective: effective(prop, base, data),
            required: required.includes(name),
          };
          if (key !== undefined) seen.set(key, p);
          out.push(p);
        }
        visitObject(prop, propPath, depth + 1);
        if (isRecord(prop.items)) visitObject(prop.items, [...propPath, 'items'], depth + 1);
      }
    };
    visitObject(start.schema, start.path, 0);
  }
  return out;
}

function effective(own: Record<string, unknown>, base: EmbeddedSchema, data: unknown): Record<string, unknown> {
  // Without a `$ref` the property is its own effective schema: no copy (there are thousands).
  if (typeof own.$ref !== 'string') return own;
  let eff: Record<string, unknown> = { ...own };
  let cur = own;
  let root = base;
  for (let i = 0; i < 16 && typeof cur.$ref === 'string'; i++) {
    const r = resolveRef(cur.$ref, root, data);
    if (!r.ok || !isRecord(r.schema)) break;
    if (r.path[0] === 'schemas' && r.path.length === 2) root = { path: r.path, schema: r.schema };
    eff = { ...r.schema, ...eff };
    cur = r.schema;
  }
  return eff;
}

/** The JSON types a schema allows, from `type` (string or list), `enum`/`const` values. */
export function schemaTypes(s: Record<string, unknown>): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  return [];
}
