import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { derefRoot } from '../refs.js';
import { objectRootProblem } from '../../manifest/object-root.js';

/**
 * MCP requires a tool's inputSchema and outputSchema to describe objects: arguments and structured
 * results are JSON objects. A root `$ref` to a shared object schema is fine, and so is a root
 * without `type` that the SDK serves as an object (cli/manifest/object-root.ts).
 */
export function checkToolSchemaRoots(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, tool] of recordEntries(m.data.tools)) {
    if (!isRecord(tool)) continue;
    for (const which of ['input', 'output'] as const) {
      const schema = tool[which];
      if (!isRecord(schema)) continue;
      const target = derefRoot({ path: ['tools', name, which], schema }, m.data);
      if (!target) continue;
      const problem = objectRootProblem(target.schema, which);
      if (problem === null) continue;
      const what = which === 'input' ? 'arguments' : 'structured results';
      const type = target.schema.type;
      const viaRef = target.path.join('/') !== ['tools', name, which].join('/');
      const shown = type === undefined ? '' : `\`${JSON.stringify(type).replace(/"/g, '')}\``;
      const got = viaRef
        ? `, got ${label(target.path)}${type === undefined ? ' (no type)' : ` (${shown})`}`
        : type === undefined
          ? ''
          : `, got ${shown}`;
      const message =
        type === undefined && !viaRef
          ? `tool \`${name}\` ${which} schema does not describe an object (no \`type\`, no \`properties\`): MCP ${what} are JSON objects`
          : `tool \`${name}\` ${which} schema must be \`type: object\` at its root${got}: MCP ${what} are JSON objects`;
      // Point at the tool, not at a shared schema that may be fine where else it is used.
      const at = viaRef
        ? ['tools', name, which, '$ref']
        : type === undefined
          ? ['tools', name, which]
          : ['tools', name, which, 'type'];
      out.push(
        diagAt(m, at, Codes.ROOT_NOT_OBJECT, message, {
          key: type === undefined && !viaRef,
          hint:
            type === undefined || type === 'object'
              ? 'add `type: object` with `properties`'
              : 'wrap it: { type: object, properties: { value: <this schema> }, required: [value] }',
        }),
      );
    }
  }
  return out;
}

function label(path: readonly (string | number)[]): string {
  return path[0] === 'schemas' && path.length === 2 ? `#/schemas/${String(path[1])}` : path.join('.');
}
