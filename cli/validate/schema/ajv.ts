import fs from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft07 } from 'ajv';
import addFormatsImport, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, whose `.default` is the plugin.
const addFormats: FormatsPlugin =
  (addFormatsImport as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsImport as unknown as FormatsPlugin);

/** The published manifest schema; read from disk (not bundled) so the validator and editors use the very same file. */
export const MANIFEST_SCHEMA_URL = new URL('../../../schemas/manifest.v1.json', import.meta.url);
export const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';
/** The other dialect an embedded schema may declare (at its root), as the SDK's validator does. */
export const DRAFT_07_ID = 'http://json-schema.org/draft-07/schema';

/** The dialect an embedded schema's root `$schema` declares: draft-07 (http or https, `#` optional) or 2020-12. */
export function declaredDialect(schema: Record<string, unknown>): '2020-12' | 'draft-07' {
  const s = typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '').replace(/^https:/, 'http:') : '';
  return s === DRAFT_07_ID ? 'draft-07' : '2020-12';
}

let ajv: InstanceType<typeof Ajv2020> | undefined;
let manifestValidator: ValidateFunction | undefined;

function instance(): InstanceType<typeof Ajv2020> {
  // allErrors: report everything at once; verbose: errors carry the failing data and schema node,
  // which the translator needs for "did you mean" and union handling; strict off: embedded schemas
  // may use any keyword. Never fetches anything: there is no loadSchema.
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, validateFormats: true });
    addFormats(ajv);
  }
  return ajv;
}

export function manifestSchema(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(MANIFEST_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
}

/** Validate manifest data against schemas/manifest.v1.json; [] when valid. */
export function validateAgainstManifestSchema(data: unknown): ErrorObject[] {
  manifestValidator ??= instance().compile(manifestSchema());
  return manifestValidator(data) ? [] : [...(manifestValidator.errors ?? [])];
}

/** Validate an embedded schema against the JSON Schema 2020-12 meta-schema; [] when valid. */
export function validateAgainstMetaSchema(schema: unknown): ErrorObject[] {
  const meta = instance().getSchema(META_SCHEMA_ID);
  if (!meta) throw new Error(`internal: ajv has no meta-schema ${META_SCHEMA_ID}`);
  return meta(schema) ? [] : [...(meta.errors ?? [])];
}

let draft07: InstanceType<typeof AjvDraft07> | undefined;

/** Validate an embedded schema that declares draft-07 against the draft-07 meta-schema; [] when valid. */
export function validateAgainstDraft07MetaSchema(schema: unknown): ErrorObject[] {
  draft07 ??= new AjvDraft07({ allErrors: true, verbose: true, strict: false });
  const meta = draft07.getSchema(DRAFT_07_ID);
  if (!meta) throw new Error(`internal: ajv has no meta-schema ${DRAFT_07_ID}`);
  return meta(schema) ? [] : [...(meta.errors ?? [])];
}

/** Format names ajv-formats knows (and so the generated server checks); others are only annotations. */
export function knownFormats(): Set<string> {
  return new Set(Object.keys(instance().formats));
}
