import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { embeddedSchemas, walkSchema } from '../../validate/json-schema-walk.js';
import { didYouMean } from '../../validate/suggest.js';
import type { LintRule } from '../rule.js';

/** Keywords through which other subschemas may define the property; then `required` alone proves nothing. */
const COMPOSITION = ['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas', 'unevaluatedProperties'];

/**
 * `required` naming a property that `properties` does not define is valid JSON Schema (the value
 * must be there, of any type), and real servers ship it; it is also how a typo (`required: [citty]`)
 * looks, so it is reported as advice. The generated type leaves such a name out: nothing says what its
 * value is.
 */
export const requiredDefined: LintRule = {
  id: 'required-defined',
  code: Codes.LINT_REQUIRED_UNDEFINED,
  default: 'warn',
  description: '`required` names only properties the schema defines',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const root of embeddedSchemas(m.data))
      walkSchema(root.schema, root.path, (node, path) => requiredNode(m, node, path, out));
    return out;
  },
};

function requiredNode(m: LoadedManifest, node: Record<string, unknown>, path: JsonPath, out: Diagnostic[]): void {
  if (!Array.isArray(node.required) || COMPOSITION.some((k) => k in node)) return;
  const props = isRecord(node.properties) ? node.properties : undefined;
  if (!props && node.additionalProperties !== false) return; // nothing to compare with
  const patterns = isRecord(node.patternProperties) ? Object.keys(node.patternProperties).map(safeRegex) : [];
  node.required.forEach((name, i) => {
    if (typeof name !== 'string' || (props && Object.hasOwn(props, name))) return;
    if (patterns.some((re) => re?.test(name))) return;
    const where = props ? 'in `properties`' : '(the schema has no `properties` and allows no others)';
    out.push(
      diagAt(
        m,
        [...path, 'required', i],
        Codes.LINT_REQUIRED_UNDEFINED,
        `\`required\` names \`${name}\`, which is not defined ${where}${didYouMean(name, Object.keys(props ?? {}))}`,
        {
          severity: 'warning',
          hint: 'define it under `properties` (its handler then gets a typed value), or fix the name if it is a typo',
        },
      ),
    );
  });
}

function safeRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined; // reported by the embedded-schema check
  }
}
