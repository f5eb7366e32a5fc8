import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { didYouMean } from '../suggest.js';

/** Keywords through which other subschemas may define the property; then `required` alone proves nothing. */
const COMPOSITION = ['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas', 'unevaluatedProperties'];

/** checkRequiredProperties at one node of an embedded schema (see checkSchemaNodes). */
export function requiredNode(m: LoadedManifest, node: Record<string, unknown>, path: JsonPath, out: Diagnostic[]): void {
  if (!Array.isArray(node.required) || COMPOSITION.some((k) => k in node)) return;
  const props = isRecord(node.properties) ? node.properties : undefined;
  if (!props && node.additionalProperties !== false) return; // nothing to compare with
  const patterns = isRecord(node.patternProperties) ? Object.keys(node.patternProperties).map(safeRegex) : [];
  node.required.forEach((name, i) => {
    if (typeof name !== 'string' || (props && Object.prototype.hasOwnProperty.call(props, name))) return;
    if (patterns.some((re) => re?.test(name))) return;
    const where = props ? 'in `properties`' : '(the schema has no `properties` and allows no others)';
    out.push(
      diagAt(
        m,
        [...path, 'required', i],
        Codes.REQUIRED_NOT_DEFINED,
        `\`required\` names \`${name}\`, which is not defined ${where}${didYouMean(name, Object.keys(props ?? {}))}`,
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
