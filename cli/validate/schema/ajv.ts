import type { ErrorObject } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { manifest, meta2020 } from './compiled-2020.js';
import { meta07 } from './compiled-draft07.js';

/**
 * The schema checks of `mcpgen validate`. The validators are ajv standalone code generated at build
 * time (scripts/manifest-validators.mjs → compiled-*.ts, not committed): compiling the manifest schema and the
 * meta-schemas on every run took longer than validating a large manifest. Options: allErrors (report
 * everything at once), verbose (errors carry the schema node the translator reads), strict off
 * (embedded schemas may use any keyword), formats from ajv-formats. Nothing is ever fetched.
 */

export const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';
/** The other dialect an embedded schema may declare (at its root), as the SDK's validator does. */
export const DRAFT_07_ID = 'http://json-schema.org/draft-07/schema';

/** The dialect an embedded schema's root `$schema` declares: draft-07 (http or https, `#` optional) or 2020-12. */
export function declaredDialect(schema: Record<string, unknown>): '2020-12' | 'draft-07' {
  const s = typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '').replace(/^https:/, 'http:') : '';
  return s === DRAFT_07_ID ? 'draft-07' : '2020-12';
}

interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

function run(validate: Validator, data: unknown): ErrorObject[] {
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

/** Validate manifest data against schemas/manifest.v1.json; [] when valid. */
export function validateAgainstManifestSchema(data: unknown): ErrorObject[] {
  return run(manifest as Validator, data);
}

/** Validate an embedded schema against the JSON Schema 2020-12 meta-schema; [] when valid. */
export function validateAgainstMetaSchema(schema: unknown): ErrorObject[] {
  return run(meta2020 as Validator, schema);
}

/** Validate an embedded schema that declares draft-07 against the draft-07 meta-schema; [] when valid. */
export function validateAgainstDraft07MetaSchema(schema: unknown): ErrorObject[] {
  return run(meta07 as Validator, schema);
}

let formats: Set<string> | undefined;

/** Format names ajv-formats knows (and so the generated server checks); others are only annotations. */
export function knownFormats(): Set<string> {
  return (formats ??= new Set(Object.keys(fullFormats)));
}
