import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { recursiveSharedNames } from '../../normalize/refs.js';
import { diagAt } from '../diagnostic.js';

/**
 * MCPG207: a recursive shared schema cannot be inlined, so the schemas that use it carry a `$ref`
 * to a copy under their own `$defs` (some clients drop `$ref`). Not with `options.refs: defs`,
 * which keeps every shared schema that way on purpose.
 */
export function checkRecursiveSchemas(m: LoadedManifest): Diagnostic[] {
  if (!isRecord(m.data) || !isRecord(m.data.schemas)) return [];
  if (isRecord(m.data.options) && m.data.options.refs === 'defs') return [];
  return [...recursiveSharedNames(m.data.schemas)].sort().map((name) =>
    diagAt(
      m,
      ['schemas', name],
      Codes.RECURSIVE_SCHEMA,
      `schema \`${name}\` refers to itself, so it cannot be inlined: schemas that use it advertise it under \`$defs\` with a \`$ref\``,
      {
        severity: 'warning',
        key: true,
        hint: 'some MCP clients drop or reject `$ref`; if yours do, bound the depth instead (e.g. children: { type: array, items: { type: object } })',
      },
    ),
  );
}
