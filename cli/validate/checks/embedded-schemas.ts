import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { diagAt } from '../diagnostic.js';
import type { EmbeddedSchema } from '../json-schema-walk.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';

const NONE: readonly string[] = [];
import {
  declaredDialect,
  knownFormats,
  META_SCHEMA_ID,
  validateAgainstDraft07MetaSchema,
  validateAgainstMetaSchema,
} from '../schema/ajv.js';
import { translateErrors } from '../schema/translate.js';
import { didYouMean } from '../suggest.js';

/** A root may declare draft-07 (the SDK validates it with draft-07 rules); everything else is 2020-12. */
export function isDraft07(root: EmbeddedSchema): boolean {
  return declaredDialect(root.schema) === 'draft-07';
}

/**
 * The meta-schema check of one embedded schema root (the part of checkEmbeddedSchemas before the
 * rules at its nodes).
 */
export function checkMetaSchema(m: LoadedManifest, root: EmbeddedSchema, draft07: boolean, out: Diagnostic[]): void {
  const metaErrors = draft07 ? validateAgainstDraft07MetaSchema(root.schema) : validateAgainstMetaSchema(root.schema);
  for (const d of translateErrors(m, metaErrors, {
    data: root.schema,
    base: root.path,
    embedded: true,
  })) {
    // Draft-07 tuple syntax is the usual cause of a list under `items`.
    if (d.path?.endsWith('/items') && d.message.endsWith('got a list'))
      d.hint = 'for a tuple, use `prefixItems` (JSON Schema 2020-12)';
    out.push(d);
  }
}

let formats: string[] | undefined;

/** checkEmbeddedSchemas at one node of the embedded schema `root` (see checkSchemaNodes). */
export function embeddedSchemaNode(
  m: LoadedManifest,
  root: EmbeddedSchema,
  draft07: boolean,
  node: Record<string, unknown>,
  path: JsonPath,
  out: Diagnostic[],
): void {
  formats ??= [...knownFormats()];
  // Everything here is checked (and the generated server validates) as 2020-12, or draft-07 when
  // the root declares it; another dialect, or one declared inside, would be read with the wrong rules.
  if (
    typeof node.$schema === 'string' &&
    node.$schema.replace(/#$/, '') !== META_SCHEMA_ID &&
    !(draft07 && node === root.schema)
  ) {
    out.push(
      diagAt(
        m,
        [...path, '$schema'],
        Codes.INVALID_JSON_SCHEMA,
        `invalid JSON Schema: \`$schema\` ${node.$schema} is not supported: embedded schemas are JSON Schema 2020-12`,
        {
          hint: 'remove `$schema` (2020-12 is the MCP default)',
        },
      ),
    );
  }
  if (typeof node.pattern === 'string') {
    const problem = regexProblem(node.pattern);
    if (problem)
      out.push(
        diagAt(
          m,
          [...path, 'pattern'],
          Codes.INVALID_JSON_SCHEMA,
          `invalid JSON Schema: \`pattern\` is not a valid regular expression: ${problem}`,
        ),
      );
  }
  // Object.keys, and only when present: this runs at every node of every embedded schema.
  const patterns = isRecord(node.patternProperties) ? Object.keys(node.patternProperties) : NONE;
  for (const re of patterns) {
    const problem = regexProblem(re);
    if (problem) {
      out.push(
        diagAt(
          m,
          [...path, 'patternProperties', re],
          Codes.INVALID_JSON_SCHEMA,
          `invalid JSON Schema: \`patternProperties\` key is not a valid regular expression: ${problem}`,
          { key: true },
        ),
      );
    }
  }
  if (typeof node.format === 'string' && !formats.includes(node.format)) {
    out.push(
      diagAt(
        m,
        [...path, 'format'],
        Codes.UNKNOWN_FORMAT,
        `unknown format \`${node.format}\`: values will not be checked against it${didYouMean(node.format, formats)}`,
        {
          severity: 'warning',
        },
      ),
    );
  }
}

/** ajv (and so the generated server) compiles patterns with the `u` flag: check them the same way. */
function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (err) {
    return (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: /, '');
  }
}
