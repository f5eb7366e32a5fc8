/**
 * Tool schema roots without `type`. MCP tool arguments and structured results are JSON objects, and
 * the SDK advertises a typeless input root as `{ type: "object", ...schema }` (and an output root
 * the same way when it is provably object-shaped). mcpgen accepts exactly what the SDK can serve,
 * and shows clients — and its contract tests — exactly what the SDK sends.
 */
import { isRecord } from './json-path.js';

type Schema = Record<string, unknown>;

/** The SDK's rule: object keywords at the root, or combinators whose every branch is an object. */
export function isObjectShaped(schema: Schema, root: Schema = schema): boolean {
  if (
    'properties' in schema ||
    'patternProperties' in schema ||
    'additionalProperties' in schema ||
    'required' in schema
  )
    return true;
  // A local `$ref` to an object definition (the `refs: defs` layout).
  const ref = typeof schema.$ref === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(schema.$ref) : null;
  if (ref) {
    const defs = root[ref[1]!];
    if (isRecord(defs) && isRecord(defs[ref[2]!]) && (defs[ref[2]!] as Schema).type === 'object') return true;
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0)
      return members.every((m) => isRecord(m) && (m.type === 'object' || isObjectShaped(m, '$id' in m ? {} : root)));
  }
  return false;
}

/** Whether a root with this (dereferenced) schema can be served: `null` when it can, else why not. */
export function objectRootProblem(schema: Schema, io: 'input' | 'output'): 'not-object' | 'not-object-shaped' | null {
  if (schema.type === 'object') return null;
  if (schema.type !== undefined) return 'not-object';
  return io === 'input' || isObjectShaped(schema) ? null : 'not-object-shaped';
}

/** The schema as clients see it in tools/list. */
export function advertisedSchema(schema: Schema, io: 'input' | 'output'): Schema {
  if (io === 'input') return { type: 'object', ...schema };
  return schema.type === undefined && isObjectShaped(schema) ? { type: 'object', ...schema } : schema;
}
