import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import type { JsonPath } from '../../manifest/json-path.js';
import { subject } from '../../validate/describe.js';
import { diagAt } from '../../validate/diagnostic.js';
import { embeddedSchemas, walkSchema } from '../../validate/json-schema-walk.js';
import { suggest } from '../../validate/suggest.js';
import type { LintRule } from '../rule.js';
import { isVendorKey, KNOWN_ANNOTATIONS, SCHEMA_KEYWORDS } from '../schema-keywords.js';

const KEYWORDS = new Set(SCHEMA_KEYWORDS);

/**
 * Keys of embedded JSON Schemas that no draft defines and that are either empty (null: in YAML,
 * `{ description: Text to look for, case-insensitive }` is a description `Text to look for` and a
 * key `case-insensitive` with no value) or a misspelled keyword (`desciption`). Both reach the wire
 * as written and mean nothing to a client. Other unknown keys are left alone: servers put their own
 * annotations in schemas.
 */
export const unknownSchemaKeys: LintRule = {
  id: 'unknown-schema-keys',
  code: Codes.LINT_UNKNOWN_SCHEMA_KEY,
  default: 'warn',
  description: 'embedded JSON Schemas have no empty unknown keys (a YAML comma trap) and no misspelled keywords',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const root of embeddedSchemas(m.data)) {
      walkSchema(root.schema, root.path, (node, path) => {
        const keys = Object.keys(node);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          if (KEYWORDS.has(key) || isVendorKey(key)) continue;
          const at = [...path, key];
          const close = KNOWN_ANNOTATIONS.has(key) ? undefined : suggest(key, SCHEMA_KEYWORDS);
          const where = subject(path);
          if (node[key] === null) {
            // A run of empty keys after a plain string (`description: A, B, C`) is one mistake: reported at its first key.
            if (i > 0 && node[keys[i - 1]!] === null && !KEYWORDS.has(keys[i - 1]!) && !isVendorKey(keys[i - 1]!))
              continue;
            let last = i;
            while (
              last + 1 < keys.length &&
              node[keys[last + 1]!] === null &&
              !KEYWORDS.has(keys[last + 1]!) &&
              !isVendorKey(keys[last + 1]!)
            )
              last++;
            const fix = i > 0 ? commaFix(m, path, keys[i - 1]!, keys[last]!, node[keys[i - 1]!]) : undefined;
            out.push(
              diagAt(
                m,
                at,
                Codes.LINT_UNKNOWN_SCHEMA_KEY,
                `key \`${key}\` of ${where} has no value, and is not a JSON Schema keyword`,
                {
                  key: true,
                  severity: 'warning',
                  hint: fix
                    ? `in a flow mapping a comma ends a plain value: quote it, ${fix}`
                    : close
                      ? `did you mean \`${close}\`? Give it a value, or remove it`
                      : 'give it a value, or remove it',
                },
              ),
            );
          } else if (close !== undefined && close !== key) {
            out.push(
              diagAt(
                m,
                at,
                Codes.LINT_UNKNOWN_SCHEMA_KEY,
                `key \`${key}\` of ${where} is not a JSON Schema keyword; did you mean \`${close}\`?`,
                {
                  key: true,
                  severity: 'warning',
                  hint: `clients ignore \`${key}\`: rename it to \`${close}\` (or prefix it with \`x-\` if it is your own annotation)`,
                },
              ),
            );
          }
        }
      });
    }
    return out;
  },
};

/**
 * `description: "Text to look for, case-insensitive"` when the string before the empty key and the
 * key itself are written on one line as plain text, the fix being to quote them together.
 */
function commaFix(
  m: LoadedManifest,
  path: JsonPath,
  before: string,
  lastKey: string,
  value: unknown,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const from = m.locate([...path, before]);
  const to = m.locate([...path, lastKey], { key: true });
  if (from.line !== to.line || from.endLine !== from.line || to.endLine !== to.line) return undefined;
  const line = m.source.split('\n', from.line)[from.line - 1] ?? '';
  const written = line.slice(from.column - 1, from.endColumn - 1);
  if (written !== value) return undefined; // quoted or escaped: not the trap
  const text = line.slice(from.column - 1, to.endColumn - 1);
  return `${before}: ${JSON.stringify(text)}`;
}
