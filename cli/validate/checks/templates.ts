import type { Diagnostic } from '../../diagnostics.js';
import { locateInString } from '../../load/locators.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { parseUriTemplate } from '../../manifest/uri-template.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { didYouMean } from '../suggest.js';

/**
 * Resource templates: RFC 6570 syntax, an absolute URI, and `params` / `complete` keyed by the
 * template's own variables. A variable without a `params` schema still works (as an unchecked
 * string), so that is a warning.
 */
export function checkTemplates(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, t] of recordEntries(m.data.resourceTemplates)) {
    if (!isRecord(t) || typeof t.uriTemplate !== 'string') continue;
    const base: JsonPath = ['resourceTemplates', name];
    const at: JsonPath = [...base, 'uriTemplate'];
    const template = t.uriTemplate;
    const parsed = parseUriTemplate(template);
    // Each kind of mistake once, at its first place, with how often it recurs: a template of
    // 200,000 backslashes is one mistake, not 200,000 diagnostics to locate and print.
    const byMessage = new Map<string, { first: (typeof parsed.errors)[number]; count: number }>();
    for (const e of parsed.errors) {
      const seen = byMessage.get(e.message);
      if (seen) seen.count++;
      else byMessage.set(e.message, { first: e, count: 1 });
    }
    for (const [message, { first, count }] of byMessage) {
      const again = count > 1 ? ` (${count - 1} more time${count === 2 ? '' : 's'} in this template)` : '';
      out.push(
        diagAt(m, at, Codes.BAD_URI_TEMPLATE, `invalid URI template: ${message}${again}`, {
          range: locateInString(m, at, first.start, first.end),
        }),
      );
    }
    if (!template.startsWith('{') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template)) {
      out.push(
        diagAt(
          m,
          at,
          Codes.BAD_URI_TEMPLATE,
          `URI template ${JSON.stringify(template)} is not absolute: it needs a scheme`,
          {
            hint: `e.g. \`docs://${template.replace(/^\/+/, '')}\``,
          },
        ),
      );
    }
    if (parsed.errors.length > 0) continue; // variables of a broken template would only add noise
    // A variable may appear twice ({id}…{id}); check each name once, at its first use.
    const vars = new Map([...parsed.variables].reverse().map((v) => [v.name, v]));
    const names = [...vars.keys()];
    for (const key of ['params', 'complete'] as const) {
      for (const [v] of recordEntries(t[key])) {
        if (vars.has(v)) continue;
        const message = names.length
          ? `\`${key}\` names \`${v}\`, which is not a variable of ${template}${didYouMean(v, names)}`
          : `\`${key}\` names \`${v}\`, but ${template} has no variables`;
        out.push(diagAt(m, [...base, key, v], Codes.NOT_A_TEMPLATE_VARIABLE, message, { key: true }));
      }
    }
    const params = isRecord(t.params) ? t.params : {};
    for (const v of vars.values()) {
      const schema = params[v.name];
      if (schema === undefined) {
        out.push(
          diagAt(
            m,
            at,
            Codes.VARIABLE_WITHOUT_PARAM,
            `template variable \`${v.name}\` has no schema in \`params\`: its value will not be checked`,
            {
              severity: 'warning',
              range: locateInString(m, at, v.start, v.end),
              hint: `add params: { ${v.name}: { type: string } } (with a pattern or format to constrain it)`,
            },
          ),
        );
        continue;
      }
      // The SDK hands template variables to handlers as strings (lists for exploded `{var*}`).
      const allowed = v.explode ? ['string', 'array'] : ['string'];
      if (
        isRecord(schema) &&
        schema.type !== undefined &&
        !(typeof schema.type === 'string' && allowed.includes(schema.type))
      ) {
        out.push(
          diagAt(
            m,
            [...base, 'params', v.name, 'type'],
            Codes.PARAM_NOT_STRING,
            `template variable \`${v.name}\` is text taken from a URI: its schema must be \`type: ${allowed.join('` or `type: ')}\``,
            {
              hint: 'constrain it with `pattern`, `format` or `enum` instead (e.g. pattern: "^[0-9]+$")',
            },
          ),
        );
      }
    }
  }
  return out;
}
