import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import type { JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import type { EmbeddedSchema } from '../json-schema-walk.js';
import { resolveRef } from '../refs.js';

/** checkRefs at one node of the embedded schema `root` (see checkSchemaNodes). */
export function refNode(
  m: LoadedManifest,
  root: EmbeddedSchema,
  node: Record<string, unknown>,
  path: JsonPath,
  out: Diagnostic[],
): void {
  if (typeof node.$ref !== 'string') return;
  const r = resolveRef(node.$ref, root, m.data);
  if (!r.ok) out.push(diagAt(m, [...path, '$ref'], r.code, r.message, r.hint ? { hint: r.hint } : {}));
}
