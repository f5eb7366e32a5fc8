import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { parseUriTemplate } from '../../manifest/uri-template.js';
import type { JsonSchema } from '../../normalize/ir.js';
import { inlineSharedRefs, recursiveSharedNames } from '../../normalize/refs.js';
import { variableSample } from '../../normalize/samples.js';
import { collectRefs, sharedRefName } from '../../normalize/schema-walk.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

/**
 * MCPG224: the generated contract test reads each template at a URI made of a sample value of
 * every variable (cli/normalize/samples.ts). A variable none of whose simple guesses fits its
 * schema (a `pattern`, say) leaves the template out of the test without a word: say so, and how to
 * give it a value. A variable only in the query is left out of the URI instead. A list variable
 * (`{v*}`, `type: array`) needs a list of one item. The sample is made as the build makes it:
 * shared schemas inlined, a static completion list first.
 */
export function checkTemplateSamples(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const shared = isRecord(m.data.schemas) ? m.data.schemas : {};
  const asDefs = isRecord(m.data.options) && m.data.options.refs === 'defs';
  let kept: Set<string> | undefined;
  for (const [name, t] of recordEntries(m.data.resourceTemplates)) {
    if (!isRecord(t) || typeof t.uriTemplate !== 'string' || !isRecord(t.params)) continue;
    const parsed = parseUriTemplate(t.uriTemplate);
    if (parsed.errors.length) continue; // MCPG220 says what is wrong first
    const complete = isRecord(t.complete) ? t.complete : {};
    for (const v of new Set(parsed.variables.map((p) => p.name))) {
      // A variable only in the query is left out of the URI when it has no sample.
      if (parsed.variables.every((p) => p.name !== v || p.operator === '?' || p.operator === '&')) continue;
      const schema = t.params[v];
      const list = parsed.variables.some((p) => p.name === v && p.explode);
      // Without a schema a variable is any string; a schema of another type is an error already
      // (MCPG223): a string's, or a list's for `{v*}`.
      const isList = list && isRecord(schema) && schema.type === 'array';
      if (!isRecord(schema) || !(schema.type === undefined || schema.type === 'string' || isList)) continue;
      const values = complete[v];
      const completion =
        Array.isArray(values) && typeof values[0] === 'string' ? { kind: 'static' as const, values } : null;
      // A `$ref` to a missing shared schema is an error of its own (MCPG200).
      const refs = collectRefs(schema).map(sharedRefName);
      if (refs.some((r) => r !== null && !Object.hasOwn(shared, r))) continue;
      kept ??= asDefs ? new Set(Object.keys(shared)) : recursiveSharedNames(shared);
      let sample: string | undefined;
      try {
        sample = variableSample({ schema: inlineSharedRefs(schema as JsonSchema, shared, kept), completion, list });
      } catch {
        continue; // a schema the build refuses is reported by the checks that refuse it
      }
      if (sample !== undefined) continue;
      out.push(
        diagAt(
          m,
          ['resourceTemplates', name, 'params', v],
          Codes.TEMPLATE_WITHOUT_SAMPLE,
          `the contract test cannot make a URI for resource template \`${name}\`: no sample ${isList ? 'one-item list' : 'value'} of \`${v}\` matches its schema, so the test does not read the template`,
          {
            severity: 'warning',
            key: true,
            hint: isList
              ? `add \`examples: [<an item the schema accepts>]\` to params.${v}.items (or \`examples: [[<item>]]\` to params.${v}, or a \`complete:\` list of items)`
              : `add \`examples: [<a value the schema accepts>]\` to params.${v} (or a \`default\`, an \`enum\`, or a \`complete:\` list)`,
          },
        ),
      );
      break; // once per template: one variable without a sample is enough to leave it out
    }
  }
  return out;
}
