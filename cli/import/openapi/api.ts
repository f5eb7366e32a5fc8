/**
 * The manifest's `apis.<name>` entry for a document: its base URL (from `servers`, overridable by
 * an environment variable) and its auth, from the security scheme the API asks for, with secrets
 * read from environment variables named after the API (never written in the manifest).
 */
import { isObject, type Schema } from './schemas.js';

export interface ApiEntry {
  entry: Schema;
  /** Why a scheme could not be mapped (cookie keys, mutual TLS). */
  notes: string[];
}

export function apiEntry(doc: Record<string, unknown>, name: string): ApiEntry {
  const prefix = envPrefix(name);
  const notes: string[] = [];
  const baseUrl: Schema = { env: `${prefix}_URL` };
  const server = Array.isArray(doc.servers) && isObject(doc.servers[0]) ? doc.servers[0] : undefined;
  if (server && typeof server.url === 'string' && /^https?:\/\//.test(serverUrl(server)))
    baseUrl.default = serverUrl(server);
  else if (server && typeof server.url === 'string')
    notes.push(`servers[0].url ${server.url} is relative: set ${prefix}_URL to the API's address`);
  const entry: Schema = { baseUrl };
  const auth = authOf(doc, prefix, notes);
  if (auth) entry.auth = auth;
  else if (notes.every((n) => !n.startsWith('security scheme')))
    notes.push(
      `the document declares no security scheme: if the API needs credentials, add one to apis.${name}, e.g. auth: { type: bearer, env: ${prefix}_TOKEN }`,
    );
  return { entry, notes };
}

/** `petstore` → `PETSTORE`, `my-api` → `MY_API`. */
export function envPrefix(name: string): string {
  const p = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(p) ? p : `API_${p}`;
}

/** A server URL with its variables' defaults filled in, without a trailing slash. */
function serverUrl(server: Schema): string {
  const vars = isObject(server.variables) ? server.variables : {};
  return String(server.url)
    .replace(/\{([^}]+)\}/g, (m, v: string) => {
      const d = isObject(vars[v]) ? vars[v].default : undefined;
      return typeof d === 'string' ? d : m;
    })
    .replace(/\/+$/, '');
}

/** The first scheme of the document's `security` (else of any operation's) that the runtime can send. */
function authOf(doc: Record<string, unknown>, prefix: string, notes: string[]): Schema | undefined {
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const wanted: string[] = [];
  const requirements = [...(Array.isArray(doc.security) ? doc.security : []), ...operationSecurity(doc)];
  for (const r of requirements)
    if (isObject(r)) for (const k of Object.keys(r)) if (!wanted.includes(k)) wanted.push(k);
  if (wanted.length === 0) wanted.push(...Object.keys(schemes));
  for (const key of wanted) {
    const s = schemes[key];
    if (!isObject(s)) continue;
    if (s.type === 'http' && typeof s.scheme === 'string' && s.scheme.toLowerCase() === 'bearer')
      return { type: 'bearer', env: `${prefix}_TOKEN` };
    if (s.type === 'http' && typeof s.scheme === 'string' && s.scheme.toLowerCase() === 'basic')
      return { type: 'basic', usernameEnv: `${prefix}_USER`, passwordEnv: `${prefix}_PASSWORD` };
    if (s.type === 'apiKey' && (s.in === 'header' || s.in === 'query') && typeof s.name === 'string')
      return { type: 'apiKey', in: s.in, name: s.name, env: `${prefix}_KEY` };
    // An OAuth access token is sent as a bearer token; getting one is left to the user.
    if (s.type === 'oauth2' || s.type === 'openIdConnect') {
      notes.push(
        `security scheme ${key} (${s.type}): sent as a bearer token from ${prefix}_TOKEN; obtain the token yourself`,
      );
      return { type: 'bearer', env: `${prefix}_TOKEN` };
    }
    notes.push(
      `security scheme ${key} (${String(s.type)}${s.in ? ` in ${String(s.in)}` : ''}) cannot be sent by the runtime`,
    );
  }
  return undefined;
}

function operationSecurity(doc: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  if (!isObject(doc.paths)) return out;
  for (const item of Object.values(doc.paths))
    if (isObject(item))
      for (const op of Object.values(item)) if (isObject(op) && Array.isArray(op.security)) out.push(...op.security);
  return out;
}
