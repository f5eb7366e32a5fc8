import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';
import { semanticChecks } from './checks/index.js';
import { checkManifestSchema } from './schema/check-schema.js';

/**
 * Every problem of a loaded manifest: its shape against schemas/manifest.v1.json (MCPG1xx), then the
 * semantic rules a schema cannot express (MCPG2xx). Never stops at the first problem; the checks
 * are written to cope with data the schema rejected, so one run shows everything.
 */
export function validateManifest(m: LoadedManifest): Diagnostic[] {
  const diagnostics = checkManifestSchema(m);
  for (const check of semanticChecks) diagnostics.push(...check(m));
  return sortDiagnostics(diagnostics);
}
