import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { validateAgainstManifestSchema } from './ajv.js';
import { translateErrors } from './translate.js';

/** Problems with the manifest's shape (schemas/manifest.v1.json): unknown keys, wrong types, missing keys… */
export function checkManifestSchema(m: LoadedManifest): Diagnostic[] {
  const errors = validateAgainstManifestSchema(m.data);
  return translateErrors(m, errors, { data: m.data, base: [] });
}
