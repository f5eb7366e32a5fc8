import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';
import { Codes } from '../manifest/codes.js';
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
  return sortDiagnostics(withoutRecursionOfCycles(diagnostics));
}

/**
 * A shared schema in a `$ref` cycle that never reaches a schema (MCPG202, an error) is recursive
 * too, but telling the user it will be kept under `$defs` (MCPG207) would only be noise.
 */
function withoutRecursionOfCycles(diagnostics: Diagnostic[]): Diagnostic[] {
  const inCycle = new Set<string>();
  // The cycle's message lists every member (`#/schemas/A → #/schemas/B → #/schemas/A`).
  for (const d of diagnostics)
    if (d.code === Codes.REF_CYCLE)
      for (const [, name] of d.message.matchAll(/#\/schemas\/([A-Za-z0-9_]+)/g)) inCycle.add(name!);
  if (!inCycle.size) return diagnostics;
  return diagnostics.filter((d) => d.code !== Codes.RECURSIVE_SCHEMA || !inCycle.has(d.path!.split('/')[2]!));
}
