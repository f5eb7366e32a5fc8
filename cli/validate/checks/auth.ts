import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

const ENTRY_KINDS = ['tools', 'resources', 'resourceTemplates', 'prompts'] as const;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** transports.http as written, or null when HTTP is off (an absent `transports` means stdio and HTTP). */
function httpOf(data: Record<string, unknown>): Record<string, unknown> | null {
  const t = data.transports;
  if (!isRecord(t)) return t === undefined ? {} : null;
  if (t.http === false || t.http === undefined) return null;
  return isRecord(t.http) ? t.http : null;
}

/** Where each entry declares scopes: [path of its `scopes`, the scopes]. */
function entryScopes(data: Record<string, unknown>): [JsonPath, string[]][] {
  const out: [JsonPath, string[]][] = [];
  for (const kind of ENTRY_KINDS) {
    for (const [name, entry] of recordEntries(data[kind])) {
      const scopes = isRecord(entry) ? entry.scopes : undefined;
      if (Array.isArray(scopes) && scopes.length > 0) {
        out.push([[kind, name, 'scopes'], scopes.filter((s): s is string => typeof s === 'string')]);
      }
    }
  }
  return out;
}

/**
 * An URL the server fetches or publishes must be absolute https, or http on loopback: a token
 * checked against keys fetched over plain http could be forged by anyone on the path.
 */
function urlProblem(value: string, fragmentAllowed: boolean, queryAllowed: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(value)} is not an absolute URL`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return `${JSON.stringify(value)} must use https (http only on localhost, 127.0.0.1 or ::1)`;
  }
  if (!fragmentAllowed && url.hash) return `${JSON.stringify(value)} must not have a fragment (#…)`;
  if (!queryAllowed && url.search) return `${JSON.stringify(value)} must not have a query (?…)`;
  return null;
}

/**
 * Authentication as the server will apply it: per-entry scopes that nothing checks, OAuth URLs a
 * server must not trust or publish, and settings that have no effect.
 */
export function checkAuth(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const http = httpOf(m.data);
  const auth = http && isRecord(http.auth) ? http.auth : null;
  const oauth = auth && isRecord(auth.oauth) ? auth.oauth : null;
  const scoped = entryScopes(m.data);

  if (!auth || (!isRecord(auth.bearer) && !oauth)) {
    for (const [path] of scoped) {
      out.push(
        diagAt(
          m,
          path,
          Codes.SCOPES_WITHOUT_AUTH,
          http
            ? 'scopes are never checked: HTTP requests are not authenticated'
            : 'scopes are never checked: HTTP is off, and stdio is not authenticated',
          {
            severity: 'warning',
            key: true,
            hint: http
              ? 'add `transports.http.auth.oauth` (or `bearer`), or remove `scopes`'
              : 'enable `transports.http` with `auth`, or remove `scopes`',
          },
        ),
      );
    }
  }
  if (!oauth) return out;

  const base: JsonPath = ['transports', 'http', 'auth', 'oauth'];
  const urls: [JsonPath, unknown, boolean, boolean][] = [
    [[...base, 'issuer'], oauth.issuer, false, false],
    [[...base, 'resource'], oauth.resource, false, true],
    [[...base, 'jwksUri'], oauth.jwksUri, false, true],
    [
      [...base, 'introspection', 'endpoint'],
      isRecord(oauth.introspection) ? oauth.introspection.endpoint : undefined,
      false,
      true,
    ],
  ];
  for (const [path, value, fragment, query] of urls) {
    if (typeof value !== 'string') continue;
    const problem = urlProblem(value, fragment, query);
    if (problem) out.push(diagAt(m, path, Codes.BAD_AUTH_URL, `\`${path.at(-1)}\`: ${problem}`));
  }
  if (typeof oauth.documentation === 'string' && !/^https?:\/\//.test(oauth.documentation)) {
    out.push(
      diagAt(
        m,
        [...base, 'documentation'],
        Codes.BAD_AUTH_URL,
        '`documentation`: clients open it, so it must be an http(s) URL',
      ),
    );
  }

  // Advertised scopes that leave out one the server requires: a client asking for what the
  // metadata lists could never call it.
  if (Array.isArray(oauth.scopesSupported)) {
    const supported = new Set(oauth.scopesSupported);
    const required = [
      ...(Array.isArray(oauth.scopes) ? oauth.scopes.filter((s): s is string => typeof s === 'string') : []),
      ...scoped.flatMap(([, s]) => s),
    ];
    const missing = [...new Set(required.filter((s) => !supported.has(s)))];
    if (missing.length) {
      out.push(
        diagAt(
          m,
          [...base, 'scopesSupported'],
          Codes.AUTH_WITHOUT_EFFECT,
          `\`scopesSupported\` leaves out ${missing.map((s) => `\`${s}\``).join(', ')}, which requests need`,
          {
            severity: 'warning',
            hint: 'add them, or leave `scopesSupported` out: it defaults to every scope the manifest requires',
          },
        ),
      );
    }
  }
  const bearer = isRecord(auth!.bearer) ? auth!.bearer : null;
  if (bearer && Array.isArray(bearer.requiredScopes) && bearer.requiredScopes.length > 0) {
    out.push(
      diagAt(
        m,
        ['transports', 'http', 'auth', 'bearer', 'requiredScopes'],
        Codes.AUTH_WITHOUT_EFFECT,
        '`requiredScopes` has no effect beside `oauth`: requests need `oauth.scopes`, and static tokens carry every scope',
        {
          severity: 'warning',
          key: true,
          hint: 'move the scopes to `oauth.scopes`',
        },
      ),
    );
  }
  return out;
}
