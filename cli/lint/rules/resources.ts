import type { Diagnostic } from '../../diagnostics.js';
import { locateInString } from '../../load/locators.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isView } from '../../manifest/views.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import type { LintRule } from '../rule.js';

/** Lowercase words joined by single hyphens: `weather`, `my-app`. */
const GOOD_SCHEME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Registered schemes that do not fit that shape but are not anyone's custom invention. */
const REGISTERED = new Set([
  'git+ssh',
  'git+https',
  'svn+ssh',
  'coap+tcp',
  'coap+ws',
  'coaps+tcp',
  'coaps+ws',
  'iris.beep',
]);

/** Resources and templates as (path of the URI, the URI, what, entry path). */
function uris(
  m: LoadedManifest,
): { at: JsonPath; uri: string; what: string; entry: JsonPath; value: Record<string, unknown> }[] {
  const out: { at: JsonPath; uri: string; what: string; entry: JsonPath; value: Record<string, unknown> }[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, r] of recordEntries(m.data.resources)) {
    if (isRecord(r) && typeof r.uri === 'string')
      out.push({
        at: ['resources', name, 'uri'],
        uri: r.uri,
        what: `resource \`${name}\``,
        entry: ['resources', name],
        value: r,
      });
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
        diagAt(
          m,
          u.at,
          Codes.LINT_URI_SCHEME_FORMAT,
          `URI scheme \`${scheme}\` of ${u.what} is not lowercase and hyphen-separated`,
          {
            range: locateInString(m, u.at, 0, scheme.length),
            severity: 'warning',
            hint: `schemes are case-insensitive and clients compare URIs as text: use \`${better || 'my-app'}://\``,
          },
        ),
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
    return (
      uris(m)
        // A view (MCP Apps) is served as the extension's MIME type without saying so.
        .filter((u) => u.value.mimeType === undefined && !(u.entry[0] === 'resources' && isView(u.value)))
        .map((u) =>
          diagAt(m, u.entry, Codes.LINT_MISSING_MIME_TYPE, `${u.what} has no \`mimeType\``, {
            key: true,
            severity: 'warning',
            hint: 'add `mimeType:` (e.g. text/markdown, application/json): clients decide how to show or parse the content from it',
          }),
        )
    );
  },
};

/**
 * MCP keeps `https://` for resources a client can fetch from the web on its own, without the
 * server (server/resources, "Common URI Schemes"); what the server serves itself takes a scheme of
 * its own, so clients do not fetch it past the server (and its access checks).
 */
export const httpsResource: LintRule = {
  id: 'https-resource',
  code: Codes.LINT_HTTPS_RESOURCE,
  default: 'warn',
  description: 'resources the server serves itself use a scheme of their own, not `https://`',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const u of uris(m)) {
      const scheme = /^(https?):/i.exec(u.uri)?.[1];
      if (scheme === undefined) continue;
      out.push(
        diagAt(
          m,
          u.at,
          Codes.LINT_HTTPS_RESOURCE,
          `${u.what} is served by this server under an \`${scheme.toLowerCase()}://\` URI`,
          {
            range: locateInString(m, u.at, 0, scheme.length),
            severity: 'warning',
            hint: `clients may fetch ${scheme.toLowerCase()}:// URIs from the web themselves: give it a scheme of your own (\`${m.data && isRecord(m.data) && isRecord(m.data.server) && typeof m.data.server.name === 'string' ? schemeOf(m.data.server.name) : 'my-app'}://…\`)`,
          },
        ),
      );
    }
    return out;
  },
};

/** A server name as a scheme: lowercase words joined by hyphens. */
function schemeOf(name: string): string {
  return (
    name
      .replace(/^@[^/]+\//, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'my-app'
  );
}

/** What breaks lowercase words joined by hyphens: capitals, underscores, spaces (percent-escapes aside). */
const BAD_IN_SEGMENT = /[A-Z_\s]/;

/**
 * Paths of custom URIs follow the same convention as their schemes: lowercase words joined by
 * hyphens (`notes://recent-items/today`). Clients compare URIs as text, so `Recent_Items` and
 * `recent-items` are two resources to them; only the parts the manifest writes are checked (not
 * `{variables}`, not registered schemes such as `file:` whose paths name real files).
 */
export const uriPathFormat: LintRule = {
  id: 'uri-path-format',
  code: Codes.LINT_URI_PATH_FORMAT,
  default: 'warn',
  description: 'paths of custom URIs are lowercase words joined by hyphens',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const u of uris(m)) {
      // Template expressions are the client's values, not the manifest's text: blanked, same length.
      const uri = u.uri.replace(/\{[^{}]*\}/g, (e) => 'x'.repeat(e.length));
      // A custom scheme's authority names a part of the server's data as its path does: both checked.
      const match = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/)?/.exec(uri);
      if (
        !match ||
        !GOOD_SCHEME.test(match[1]!.toLowerCase()) ||
        ['file', 'http', 'https', 'data'].includes(match[1]!.toLowerCase())
      )
        continue;
      const start = match[0].length;
      const end = uri.search(/[?#]/) === -1 ? uri.length : uri.search(/[?#]/);
      const path = uri.slice(start, end).replace(/%[0-9A-Fa-f]{2}/g, '%xx');
      let offset = start;
      for (const segment of path.split('/')) {
        if (BAD_IN_SEGMENT.test(segment)) {
          const better = u.uri
            .slice(offset, offset + segment.length)
            .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
            .toLowerCase()
            .replace(/[_\s]+/g, '-');
          const written = u.uri.slice(offset, offset + segment.length);
          const shown = written.length > 40 ? `${written.slice(0, 40)}…` : written;
          out.push(
            diagAt(
              m,
              u.at,
              Codes.LINT_URI_PATH_FORMAT,
              `path segment \`${shown}\` of ${u.what} is not lowercase and hyphen-separated`,
              {
                range: locateInString(m, u.at, offset, offset + segment.length),
                severity: 'warning',
                hint:
                  better.length > 40
                    ? 'clients compare URIs as text: use lowercase words joined by hyphens'
                    : `clients compare URIs as text: write \`${better}\``,
              },
            ),
          );
          break;
        }
        offset += segment.length + 1;
      }
    }
    return out;
  },
};
