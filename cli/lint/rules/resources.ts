import type { Diagnostic } from '../../diagnostics.js';
import { locateInString } from '../../load/locators.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import type { LintRule } from '../rule.js';

/** Lowercase words joined by single hyphens: `weather`, `my-app`. */
const GOOD_SCHEME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Registered schemes that do not fit that shape but are not anyone's custom invention. */
const REGISTERED = new Set(['git+ssh', 'git+https', 'svn+ssh', 'coap+tcp', 'coap+ws', 'coaps+tcp', 'coaps+ws', 'iris.beep']);

/** Resources and templates as (path of the URI, the URI, what, entry path). */
function uris(m: LoadedManifest): { at: JsonPath; uri: string; what: string; entry: JsonPath; value: Record<string, unknown> }[] {
  const out: { at: JsonPath; uri: string; what: string; entry: JsonPath; value: Record<string, unknown> }[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, r] of recordEntries(m.data.resources)) {
    if (isRecord(r) && typeof r.uri === 'string')
      out.push({ at: ['resources', name, 'uri'], uri: r.uri, what: `resource \`${name}\``, entry: ['resources', name], value: r });
  }
  for (const [name, t] of recordEntries(m.data.resourceTemplates)) {
    if (isRecord(t) && typeof t.uriTemplate === 'string')
      out.push({
        at: ['resourceTemplates', name, 'uriTemplate'],
        uri: t.uriTemplate,
        what: `resource template \`${name}\``,
        entry: ['resourceTemplates', name],
        value: t,
      });
  }
  return out;
}

export const uriSchemeFormat: LintRule = {
  id: 'uri-scheme-format',
  code: Codes.LINT_URI_SCHEME_FORMAT,
  default: 'warn',
  description: 'custom URI schemes are lowercase words joined by hyphens (`my-app://`)',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const u of uris(m)) {
      const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(u.uri)?.[1];
      if (scheme === undefined || GOOD_SCHEME.test(scheme) || REGISTERED.has(scheme.toLowerCase())) continue;
      const better = scheme
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
      out.push(
        diagAt(m, u.at, Codes.LINT_URI_SCHEME_FORMAT, `URI scheme \`${scheme}\` of ${u.what} is not lowercase and hyphen-separated`, {
          range: locateInString(m, u.at, 0, scheme.length),
          severity: 'warning',
          hint: `schemes are case-insensitive and clients compare URIs as text: use \`${better || 'my-app'}://\``,
        }),
      );
    }
    return out;
  },
};

export const resourceMimeType: LintRule = {
  id: 'resource-mime-type',
  code: Codes.LINT_MISSING_MIME_TYPE,
  default: 'warn',
  description: 'resources and resource templates declare a `mimeType`',
  check(m: LoadedManifest): Diagnostic[] {
    return uris(m)
      .filter((u) => u.value.mimeType === undefined)
      .map((u) =>
        diagAt(m, u.entry, Codes.LINT_MISSING_MIME_TYPE, `${u.what} has no \`mimeType\``, {
          key: true,
          severity: 'warning',
          hint: 'add `mimeType:` (e.g. text/markdown, application/json): clients decide how to show or parse the content from it',
        }),
      );
  },
};
