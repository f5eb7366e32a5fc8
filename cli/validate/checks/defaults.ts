import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import type { JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { ANNOTATIONS, typeOk } from '../../manifest/sample-check.js';
import { checkValue } from '../schema/instance-check.js';

/**
 * A `default` (or an entry of `examples`, an `enum` member, a `const`) its own schema rejects: clients see it in tools/list and may send it, and the server
 * then rejects their call. A warning, not an error: JSON Schema makes `default` an annotation and
 * only recommends that it be valid (2020-12 Validation §9.2), and nothing generated depends on it
 * (sample values ignore such a default), so a manifest that relies on an odd default still builds.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation#section-9.2
 */
export function defaultNode(
  m: LoadedManifest,
  draft07: boolean,
  node: Record<string, unknown>,
  path: JsonPath,
  out: Diagnostic[],
): void {
  const draft = draft07 ? 'draft-07' : '2020-12';
  if (node.default !== undefined) {
    const r = checkValue(node, node.default, draft);
    if (r.valid === false)
      out.push(
        diagAt(
          m,
          [...path, 'default'],
          Codes.INVALID_DEFAULT,
          `\`default\` ${preview(node.default)} is not valid against its own schema: ${r.problem}`,
          {
            severity: 'warning',
            hint: 'clients may send the default as it is: make it a value the schema accepts, or remove it',
          },
        ),
      );
  }
  // An `enum` member or a `const` the rest of the schema refuses (`type: object, enum: [a]`) can
  // never be sent: the schema accepts nothing there, or less than it says.
  if (Array.isArray(node.enum)) {
    // Most enums sit beside a `type` alone (`{ type: string, enum: [a, b] }`): a member of that type
    // is valid without checking the whole node once per member (which compares it with every member).
    const typeOnly = Object.keys(node).every(
      (k) => k === 'type' || k === 'enum' || k === 'const' || ANNOTATIONS.has(k) || k.startsWith('x-'),
    );
    node.enum.forEach((member, i) => {
      if (typeOnly && fitsType(node.type, member)) return;
      const r = checkValue(node, member, draft);
      if (r.valid === false)
        out.push(
          diagAt(
            m,
            [...path, 'enum', i],
            Codes.INVALID_DEFAULT,
            `\`enum\` member ${preview(member)} is not valid against the rest of its schema: ${r.problem}`,
            {
              severity: 'warning',
              hint: 'no value can match it: make the members fit the schema (often `type`), or remove the member',
            },
          ),
        );
    });
  }
  if (node.const !== undefined) {
    const r = checkValue(node, node.const, draft);
    if (r.valid === false)
      out.push(
        diagAt(
          m,
          [...path, 'const'],
          Codes.INVALID_DEFAULT,
          `\`const\` ${preview(node.const)} is not valid against the rest of its schema: ${r.problem}`,
          {
            severity: 'warning',
            hint: 'no value can match the schema: make the constant fit it (often `type`), or remove one of the two',
          },
        ),
      );
  }
  // `examples` likewise (Validation §9.5: they SHOULD validate): models copy them into calls.
  if (Array.isArray(node.examples)) {
    node.examples.forEach((example, i) => {
      const r = checkValue(node, example, draft);
      if (r.valid === false)
        out.push(
          diagAt(
            m,
            [...path, 'examples', i],
            Codes.INVALID_DEFAULT,
            `example ${preview(example)} is not valid against its own schema: ${r.problem}`,
            {
              severity: 'warning',
              hint: 'models copy examples into their calls: make it a value the schema accepts, or remove it',
            },
          ),
        );
    });
  }
}

function preview(v: unknown): string {
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** True when `value` is of the schema's `type` (or the schema names none), as ajv decides it. */
function fitsType(type: unknown, value: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => typeof t === 'string' && typeOk(t, value) === true);
}
