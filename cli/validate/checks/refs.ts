import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { diagAt } from '../diagnostic.js';
import { embeddedSchemas, walkSchema } from '../json-schema-walk.js';
import { resolveRef } from '../refs.js';

/** Every `$ref` in an embedded schema must resolve: `#/schemas/<Name>` that exists, or a local `#/$defs/…`. */
export function checkRefs(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const root of embeddedSchemas(m.data)) {
    walkSchema(root.schema, root.path, (node, path) => {
      if (typeof node.$ref !== 'string') return;
      const r = resolveRef(node.$ref, root, m.data);
      if (!r.ok) out.push(diagAt(m, [...path, '$ref'], r.code, r.message, r.hint ? { hint: r.hint } : {}));
    });
  }
  return out;
}
