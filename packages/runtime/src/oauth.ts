import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  type AuthInfo,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
  type VerifyBearerTokenOptions,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';

import { logError } from './app.js';

/** transports.http.auth.oauth of the manifest (null: the environment or the listening URL decides). */
export interface OAuthDefaults {
  issuer: string | null;
  resource: string | null;
  audience: string[] | null;
  scopes: string[];
  scopesSupported: string[];
  jwksUri: string | null;
  algorithms: string[];
  clockToleranceSeconds: number;
  introspection: { endpoint: string | null; clientIdEnv: string; clientSecretEnv: string } | null;
  resourceName: string;
  documentation: string | null;
}

/** Overrides of the manifest and of the `MCP_OAUTH_*` environment variables. */
export interface OAuthOptions {
  issuer?: string | undefined;
  /** This server's resource identifier (RFC 8707). Default: `serverUrl`. */
  resource?: string | undefined;
  audience?: string[] | undefined;
  jwksUri?: string | undefined;
  introspectionEndpoint?: string | undefined;
  /** The URL the MCP endpoint listens on: the resource identifier when none is configured. */
  serverUrl?: URL | undefined;
  /** Least time between two key-set fetches caused by an unknown key id (`kid`). Default 30 s. */
  jwksCooldownMs?: number | undefined;
  /**
   * `optional` accepts an introspection answer without `aud` (the authorization server does not
   * bind opaque tokens to resources). Default `required`; an `aud` given must always name this resource.
   */
  introspectionAudience?: 'required' | 'optional' | undefined;
  /** How far a JWT's `iat` may be ahead of this server's clock, in seconds. Default: the clock tolerance. */
  iatToleranceSeconds?: number | undefined;
}

/** Everything resolved: manifest, then environment, then options. */
export interface OAuthSettings {
  /** As written: clients compare it with the issuer's own metadata, character for character. */
  issuer: string;
  /** Null: the URL the server listens on. */
  resource: URL | null;
  audience: string[] | null;
  scopes: string[];
  scopesSupported: string[];
  jwksUri: URL | null;
  algorithms: string[];
  clockToleranceSeconds: number;
  introspection: { endpoint: URL | null; clientId: string; clientSecret: string } | null;
  resourceName: string;
  documentation: string | null;
  jwksCooldownMs: number;
  introspectionAudience: 'required' | 'optional';
  iatToleranceSeconds: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// Symmetric algorithms would let anyone holding the key mint tokens; `none` is no signature at all.
const REFUSED_ALGORITHM = /^(HS\d+|none)$/i;

/** An absolute https URL (http on loopback only), or a clear error naming where it came from. */
function secureUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${source} is not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new Error(`${source} must be an https URL (http only on localhost): ${value}`);
  }
  if (url.hash) throw new Error(`${source} must not have a fragment: ${value}`);
  return url;
}

const list = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/**
 * The OAuth settings, or an error saying what is missing or wrong (the server does not start):
 * each value comes from `options`, else the environment, else the manifest. `verifying: false`
 * (tokens checked by another verifier) needs no introspection credentials.
 */
export function oauthSettings(
  manifest: OAuthDefaults,
  options: OAuthOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  verifying = true,
): OAuthSettings {
  const d = manifest;
  const pick = (option: string | undefined, name: string, manifest: string | null) =>
    option !== undefined
      ? { value: option, source: `oauth option ${name}` }
      : env[`MCP_OAUTH_${name}`]
        ? { value: env[`MCP_OAUTH_${name}`]!, source: `MCP_OAUTH_${name}` }
        : manifest !== null
          ? { value: manifest, source: 'transports.http.auth.oauth' }
          : null;
  const issuer = pick(options.issuer, 'ISSUER', d.issuer);
  if (!issuer) {
    throw new Error(
      'no OAuth authorization server: set MCP_OAUTH_ISSUER (or transports.http.auth.oauth.issuer) to its issuer URL',
    );
  }
  const issuerUrl = secureUrl(issuer.value, `${issuer.source} (issuer)`);
  if (issuerUrl.search) throw new Error(`${issuer.source} (issuer) must not have a query: ${issuer.value}`);
  const resource = pick(options.resource, 'RESOURCE', d.resource);
  const jwksUri = pick(options.jwksUri, 'JWKS_URI', d.jwksUri);
  const audience = options.audience ?? list(env.MCP_OAUTH_AUDIENCE) ?? d.audience;
  let introspection: OAuthSettings['introspection'] = null;
  if (d.introspection) {
    const endpoint = pick(options.introspectionEndpoint, 'INTROSPECTION_ENDPOINT', d.introspection.endpoint);
    const clientId = env[d.introspection.clientIdEnv] ?? '';
    const clientSecret = env[d.introspection.clientSecretEnv] ?? '';
    if (verifying && (!clientId || !clientSecret)) {
      throw new Error(
        `${d.introspection.clientIdEnv} and ${d.introspection.clientSecretEnv} must be set: token introspection authenticates with them`,
      );
    }
    introspection = {
      endpoint: endpoint ? secureUrl(endpoint.value, `${endpoint.source} (introspection endpoint)`) : null,
      clientId,
      clientSecret,
    };
  }
  // The two refusals an operator may relax (see introspect and verifyJwt).
  const audienceRule = options.introspectionAudience ?? (env.MCP_OAUTH_INTROSPECTION_AUDIENCE || 'required');
  if (audienceRule !== 'required' && audienceRule !== 'optional') {
    const source =
      options.introspectionAudience !== undefined
        ? 'oauth option introspectionAudience'
        : 'MCP_OAUTH_INTROSPECTION_AUDIENCE';
    throw new Error(`${source} must be "required" or "optional", not ${JSON.stringify(audienceRule)}`);
  }
  const iatText = env.MCP_OAUTH_IAT_TOLERANCE_SECONDS?.trim();
  const iatTolerance =
    options.iatToleranceSeconds ??
    (iatText ? (/^\d+$/.test(iatText) ? Number(iatText) : NaN) : d.clockToleranceSeconds);
  if (!Number.isSafeInteger(iatTolerance) || iatTolerance < 0) {
    const source =
      options.iatToleranceSeconds !== undefined
        ? 'oauth option iatToleranceSeconds'
        : 'MCP_OAUTH_IAT_TOLERANCE_SECONDS';
    throw new Error(
      `${source} must be a whole number of seconds (0 or more), not ${JSON.stringify(options.iatToleranceSeconds ?? iatText)}`,
    );
  }
  return {
    issuer: issuer.value,
    resource: resource ? secureUrl(resource.value, `${resource.source} (resource)`) : null,
    audience: audience && audience.length > 0 ? audience : null,
    scopes: d.scopes,
    scopesSupported: d.scopesSupported,
    jwksUri: jwksUri ? secureUrl(jwksUri.value, `${jwksUri.source} (JWKS URI)`) : null,
    algorithms: d.algorithms.filter((alg) => !REFUSED_ALGORITHM.test(alg)),
    clockToleranceSeconds: d.clockToleranceSeconds,
    introspection,
    resourceName: d.resourceName,
    documentation: d.documentation,
    jwksCooldownMs: options.jwksCooldownMs ?? 30_000,
    introspectionAudience: audienceRule,
    iatToleranceSeconds: iatTolerance,
  };
}

/** Protected Resource Metadata (RFC 9728 §2) of this server. */
export function protectedResourceMetadata(settings: OAuthSettings, resource: URL): OAuthProtectedResourceMetadata {
  return {
    resource: resource.href,
    authorization_servers: [settings.issuer],
    ...(settings.scopesSupported.length > 0 ? { scopes_supported: settings.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
    resource_name: settings.resourceName,
    ...(settings.documentation !== null ? { resource_documentation: settings.documentation } : {}),
  };
}

/**
 * Where the metadata is served: the path-suffixed well-known path of the resource (RFC 9728 §3.1),
 * of the local MCP path (a proxy may publish another), and the bare one older clients ask for.
 */
export function metadataPaths(resource: URL, mcpPath: string): Set<string> {
  const local = new URL(mcpPath, resource);
  return new Set([
    '/.well-known/oauth-protected-resource',
    new URL(getOAuthProtectedResourceMetadataUrl(resource)).pathname,
    new URL(getOAuthProtectedResourceMetadataUrl(local)).pathname,
  ]);
}

/**
 * Answers a metadata request as the SDK's `oauthMetadataResponse` does: any origin may read it
 * (browser clients fetch it cross-origin; it holds nothing secret), GET/HEAD/OPTIONS only.
 */
export function sendMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  metadata: OAuthProtectedResourceMetadata,
): void {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  if (req.method === 'OPTIONS') {
    const asked = req.headers['access-control-request-headers'];
    res.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      ...(asked ? { 'Access-Control-Allow-Headers': asked, Vary: 'Access-Control-Request-Headers' } : {}),
    });
    return void res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, {
      ...cors,
      Allow: 'GET, HEAD, OPTIONS',
      'Content-Type': 'application/json',
    });
    return void res.end(
      JSON.stringify({
        error: 'method_not_allowed',
        error_description: `${req.method} is not allowed here`,
      }),
    );
  }
  res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(metadata));
}

/** Authorization server metadata (RFC 8414), as far as a resource server reads it. */
interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

/**
 * Where the issuer's metadata may be: RFC 8414 inserts the well-known path before the issuer's
 * path; OpenID Connect Discovery appends it (Keycloak realms, Entra tenants).
 */
export function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (wellKnown: string) => new URL(`${wellKnown}${path}`, issuer.origin);
  const urls = [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  if (path) urls.push(new URL(`${path}/.well-known/openid-configuration`, issuer.origin));
  return urls;
}

const sameIssuer = (a: string, b: string) => a.replace(/\/$/, '') === b.replace(/\/$/, '');

async function fetchJson(url: URL, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: undefined };
  }
}

async function discover(issuer: string): Promise<IssuerMetadata> {
  const tried: string[] = [];
  for (const url of metadataUrls(new URL(issuer))) {
    let answer: { status: number; body: unknown };
    try {
      answer = await fetchJson(url, { headers: { Accept: 'application/json' } });
    } catch (error) {
      tried.push(`${url.href}: ${reason(error)}`);
      continue;
    }
    const body = answer.body as Partial<IssuerMetadata> | undefined;
    if (answer.status !== 200 || typeof body?.issuer !== 'string') {
      tried.push(
        `${url.href}: ${answer.status === 200 ? 'not authorization server metadata' : `HTTP ${answer.status}`}`,
      );
      continue;
    }
    // RFC 8414 §3.3: the metadata must name the issuer it was asked for, or it is not to be used.
    if (!sameIssuer(body.issuer, issuer)) {
      throw new Error(`the metadata at ${url.href} is for issuer ${body.issuer}, not ${issuer}`);
    }
    return body as IssuerMetadata;
  }
  throw new Error(`cannot read the metadata of issuer ${issuer} (${tried.join('; ')})`);
}

function reason(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

/** A token that cannot be checked now: the authorization server is not answering. Logged once per cause. */
function unavailable(error: unknown, logged: Set<string>): OAuthError {
  const message = (error as Error).message ?? String(error);
  if (!logged.has(message)) {
    logged.add(message);
    logError(`OAuth: ${message}; tokens are refused until it answers`);
  }
  // temporarily_unavailable: answered 503 with Retry-After (./http.ts), so clients try again.
  return new OAuthError(
    OAuthErrorCode.TemporarilyUnavailable,
    'The authorization server cannot be reached to check the token; try again shortly',
  );
}

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);

/** The verdict on a token jose refused; null when the fault is not the token's (keys unreachable). */
function tokenError(error: unknown, issuer: string): OAuthError | null {
  if (error instanceof errors.JWTExpired) return invalid('Token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return invalid(`Token was not issued by ${issuer}`);
    if (error.claim === 'aud') return invalid('Token was not issued for this resource');
    if (error.claim === 'nbf') return invalid('Token is not valid yet');
    return invalid(`Token claim ${error.claim} is invalid`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid('Token signing algorithm is not accepted');
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid('Token signature is invalid');
  if (error instanceof errors.JWKSNoMatchingKey)
    return invalid('Token is signed with a key the issuer does not publish');
  if (error instanceof errors.JWKSMultipleMatchingKeys) return invalid('Token names no key the issuer publishes once');
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKInvalid
  ) {
    return invalid('Token is not a valid signed JWT');
  }
  return null;
}

/** `scope` (RFC 8693/9068: space-separated) or `scp` (Entra, Okta: a string or a list). */
function scopesOf(claims: Record<string, unknown>): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(' ').filter(Boolean);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The client: `client_id` (RFC 9068), `azp` (OIDC, Keycloak), `cid` (Okta), `appid` (Entra v1), else `sub`. */
function clientOf(claims: Record<string, unknown>): string {
  for (const key of ['client_id', 'azp', 'cid', 'appid', 'sub']) {
    if (typeof claims[key] === 'string' && claims[key]) return claims[key];
  }
  return 'unknown';
}

function authInfoOf(token: string, claims: Record<string, unknown>, resource: URL, expiresAt: number): AuthInfo {
  const clientId = clientOf(claims);
  const sub = typeof claims.sub === 'string' ? claims.sub : null;
  const iss = typeof claims.iss === 'string' ? claims.iss : null;
  return {
    token,
    clientId,
    scopes: scopesOf(claims),
    expiresAt,
    resource,
    // The principal a 2025 session and requestState are bound to (runtime.ts principalOf).
    extra: { principal: JSON.stringify([iss, sub, clientId]), sub, claims },
  };
}

const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

/**
 * The bearer options of the OAuth resource server: JWT access tokens verified with the issuer's
 * published keys (`iss`, `aud`, `exp`/`nbf`, algorithm), opaque ones introspected when configured.
 * Discovery starts now; until the issuer answers, tokens are refused with 503 (Retry-After) and the cause logged.
 */
export function oauthBearerAuth(
  manifest: OAuthDefaults,
  options: OAuthOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): VerifyBearerTokenOptions {
  const settings = oauthSettings(manifest, options, env);
  const serverUrl = options.serverUrl;
  if (!settings.resource && !serverUrl) {
    throw new Error('no resource identifier: set MCP_OAUTH_RESOURCE or pass serverUrl');
  }
  const resource = settings.resource ?? serverUrl!;
  return { verifier: oauthVerifier(settings, resource), requiredScopes: settings.scopes };
}

/** The token verifier alone, for `oauthBearerAuth` or another gate. */
export function oauthVerifier(settings: OAuthSettings, resource: URL): OAuthTokenVerifier {
  // RFC 8707: a token for another resource is refused. The identifier compares with and without
  // one trailing slash, as the SDK compares resources.
  const bare = resource.href.replace(/\/$/, '');
  const audience = settings.audience ?? [bare, `${bare}/`];
  const logged = new Set<string>();

  let metadata: Promise<IssuerMetadata> | null = null;
  let failedAt = 0;
  const issuerMetadata = () => {
    // A failure is retried, but at most every 5 s: a burst of requests does not flood the issuer.
    if (!metadata || (failedAt && Date.now() - failedAt > 5000)) {
      failedAt = 0;
      metadata = discover(settings.issuer);
      metadata.catch(() => (failedAt = Date.now()));
    }
    return metadata;
  };
  const needsMetadata = !settings.jwksUri || (settings.introspection !== null && !settings.introspection.endpoint);
  if (needsMetadata) issuerMetadata().catch((error) => unavailable(error, logged));

  let keys: ReturnType<typeof createRemoteJWKSet> | null = null;
  const keySet = async () => {
    if (keys) return keys;
    const uri = settings.jwksUri ?? (await issuerMetadata()).jwks_uri;
    if (!uri) throw new Error(`issuer ${settings.issuer} publishes no jwks_uri; set MCP_OAUTH_JWKS_URI`);
    // jose caches the keys and fetches them again when a token names an unknown `kid` (rotation).
    keys ??= createRemoteJWKSet(secureUrl(String(uri), 'jwks_uri'), {
      cooldownDuration: settings.jwksCooldownMs,
    });
    return keys;
  };
  // `iss` is the issuer exactly; with or without one trailing slash, as issuers differ in writing it.
  const issuerBare = settings.issuer.replace(/\/$/, '');
  const issuers = [issuerBare, `${issuerBare}/`];

  async function verifyJwt(token: string): Promise<AuthInfo> {
    let jwks: Awaited<ReturnType<typeof keySet>>;
    try {
      jwks = await keySet();
    } catch (error) {
      throw unavailable(error, logged);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: issuers,
        audience,
        algorithms: settings.algorithms,
        clockTolerance: settings.clockToleranceSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw tokenError(error, settings.issuer) ?? unavailable(error, logged);
    }
    // jose checks `iat` only against a maximum age. A token minted for a time to come was signed
    // by a clock or a key holder that cannot be trusted now (RFC 7519 §4.1.6: the time of issue).
    const ahead = (payload.iat ?? 0) - Math.floor(Date.now() / 1000);
    if (ahead > settings.iatToleranceSeconds)
      throw invalid(`Token was issued in the future (iat is ${ahead} s ahead of this server's clock)`);
    // The SDK refuses a token past `expiresAt` itself: it gets the same clock skew as jose allowed.
    return authInfoOf(token, payload, resource, payload.exp! + settings.clockToleranceSeconds);
  }

  async function introspect(
    token: string,
    introspection: NonNullable<OAuthSettings['introspection']>,
  ): Promise<AuthInfo> {
    let answer: { status: number; body: unknown };
    try {
      const endpoint = introspection.endpoint ?? (await issuerMetadata()).introspection_endpoint;
      if (!endpoint) throw new Error(`issuer ${settings.issuer} publishes no introspection_endpoint`);
      // RFC 7662 §2.1, client authentication as RFC 6749 §2.3.1 says (form-encoded, then Basic).
      const basic = Buffer.from(
        `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(introspection.clientSecret)}`,
      ).toString('base64');
      answer = await fetchJson(secureUrl(String(endpoint), 'introspection_endpoint'), {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
    } catch (error) {
      throw unavailable(error, logged);
    }
    const claims = answer.body as Record<string, unknown> | undefined;
    if (answer.status !== 200 || typeof claims !== 'object' || claims === null) {
      throw unavailable(new Error(`token introspection answered HTTP ${answer.status}`), logged);
    }
    if (claims.active !== true) throw invalid('Token is not active');
    if (typeof claims.iss === 'string' && !issuers.includes(claims.iss))
      throw invalid(`Token was not issued by ${settings.issuer}`);
    // RFC 7662 §2.2: `aud` is optional in the answer, but without it nothing says the token is for
    // this resource (RFC 8707 §2): refused unless the operator relaxed it. Compared as jose compares
    // a JWT's `aud`: a string or a list, one entry equal to an accepted audience.
    if (claims.aud === undefined || claims.aud === null) {
      if (settings.introspectionAudience === 'required')
        throw invalid('Token introspection names no audience (aud): the token is not known to be for this resource');
    } else {
      const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
      if (!aud.some((a) => typeof a === 'string' && audience.includes(a)))
        throw invalid('Token was not issued for this resource');
    }
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.nbf === 'number' && claims.nbf > now + settings.clockToleranceSeconds)
      throw invalid('Token is not valid yet');
    // Without `exp` the token is good for as long as the issuer says it is active: this request.
    const expiresAt = typeof claims.exp === 'number' ? claims.exp + settings.clockToleranceSeconds : now + 1;
    return authInfoOf(token, claims, resource, expiresAt);
  }

  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (looksLikeJwt(token)) return verifyJwt(token);
      if (settings.introspection) return introspect(token, settings.introspection);
      throw invalid('Token is not a JWT, and this server does not introspect tokens');
    },
  };
}

/** A gate accepting a token either verifier accepts: static tokens first (a lookup), then OAuth. */
export function eitherToken(first: VerifyBearerTokenOptions, then: VerifyBearerTokenOptions): VerifyBearerTokenOptions {
  return {
    ...then,
    verifier: {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        try {
          return await first.verifier.verifyAccessToken(token);
        } catch {
          return then.verifier.verifyAccessToken(token);
        }
      },
    },
  };
}
