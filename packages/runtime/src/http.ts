import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cut, DEFAULT_DRAIN_MS, drainMsFromEnv, requestIds } from './drain.js';
import { log, logs, setDefaultLogLevel } from './request-log.js';
import { shutdownTelemetry, startTelemetry } from './telemetry.js';

import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  type McpServer,
  type BearerAuthOptions,
  classifyInboundRequest,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  PROTOCOL_VERSION_META_KEY,
  type OAuthProtectedResourceMetadata,
  type ServerEventBus,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type VerifyBearerTokenOptions,
} from '@modelcontextprotocol/server';

import { logError, startApp, type ServerApp } from './app.js';
import { isObject, listenRefusal, withEveryVersionResponse } from './era.js';
import { endUncorked } from './corked.js';
import { hostHeaderValidation, originValidation } from './http-guards.js';
import { logRefusals, noteChallenge } from './http-refusals.js';
import { allInterfaces, listenFailure, listenHost, urlHost } from './listen-host.js';
import { type AuthedRequest, readJson, sendJson, sendRpcError, webRequest, writeResponse } from './http-wire.js';
import { principalOf } from './request-state.js';
import { addNotificationSink } from './runtime.js';
import type { OAuthDefaults, OAuthOptions } from './oauth.js';
import { loadPeer } from './peers.js';
import { type LegacySessions, memorySessions } from './sessions.js';
import type { SharedState } from './shared.js';
import type { SseEndpoints } from './sse.js';
import { type SseOptions, sseDefaults } from './sse-options.js';

/** transports.http of the manifest: what the server does unless `HttpOptions` say otherwise. */
export interface HttpConfig {
  host: string;
  port: number;
  path: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** transports.http.auth.bearer: static tokens from an environment variable. */
  bearer?: BearerConfig | undefined;
  /** transports.http.auth.oauth: an OAuth 2.1 resource server (needs `jose`). */
  oauth?: OAuthDefaults | undefined;
  /** transports.http.sse: the legacy HTTP+SSE endpoints (needs `@modelcontextprotocol/server-legacy`). */
  sse?: { path: string; messagesPath: string } | undefined;
}

/** transports.http.auth.bearer of the manifest. */
export interface BearerConfig {
  /** The environment variable listing the tokens (`clientId:token` or bare, comma-separated). */
  tokensEnv: string;
  /** Scopes every request needs. */
  requiredScopes: string[];
  /** Scopes a static token carries. */
  scopes: string[];
}

export interface HttpOptions {
  /** Interface to listen on. Default: the manifest's (`HttpConfig`). */
  host?: string | undefined;
  /** Default: the manifest's; 0 picks a free port (see the returned `url`). */
  port?: number | undefined;
  /** Path of the MCP endpoint. Default: the manifest's. */
  path?: string | undefined;
  /** Host header values accepted besides the localhost names (DNS-rebinding protection). */
  allowedHosts?: string[] | undefined;
  /** Origin hostnames accepted from browsers besides the localhost ones. */
  allowedOrigins?: string[] | undefined;
  /** Larger request bodies are answered 413. Default: the manifest's (1 MiB unless it says otherwise). */
  maxBodyBytes?: number | undefined;
  /** At most this many 2025 sessions at once; the least recently used is closed. Default 1000. */
  maxSessions?: number | undefined;
  /** Events kept per 2025 session for resuming a stream (`Last-Event-ID`). Default 1000. */
  maxEventsPerSession?: number | undefined;
  /**
   * Bearer authentication: every MCP request needs a token the verifier accepts (401/403 with a
   * `WWW-Authenticate` challenge otherwise); handlers see it as `ctx.authInfo`. The verifier must
   * set `expiresAt`. Default: static tokens from the environment when the manifest declares them.
   */
  auth?: VerifyBearerTokenOptions | undefined;
  /**
   * transports.http.auth.oauth, over the manifest and the `MCP_OAUTH_*` environment variables
   * (oauth.ts). The resource identifier defaults to `url`; with `auth` set, these still drive the
   * Protected Resource Metadata and the challenges.
   */
  oauth?: OAuthOptions | undefined;
  /**
   * Where 2026-07-28 change notifications (`ctx.notify`) travel to `subscriptions/listen` streams.
   * Default: in this process. With several replicas, pass a bus on a real pub/sub (e.g. Redis).
   */
  bus?: ServerEventBus | undefined;
  /**
   * Replicas: the Redis every replica of this server shares (sessions, notifications, resumable
   * streams, tasks), or false to keep everything in this process. Default: `$REDIS_URL`.
   */
  redisUrl?: string | false | undefined;
  /**
   * On close, how long requests in flight may take to finish; then each still open is answered
   * with a JSON-RPC error (-32000, `server shutting down; retry`). Default: `$MCP_DRAIN_MS`, else 10 s.
   */
  drainMs?: number | undefined;
  /**
   * On close, how long the server keeps answering (`/health` 503 draining, requests with
   * `Connection: close`) so a balancer sees the drain before connections are refused. Default:
   * 1 s with Redis (replicas behind a balancer), else 0.
   */
  drainGraceMs?: number | undefined;
  /**
   * The legacy HTTP+SSE transport (2024-11-05) beside the MCP endpoint, or false for none. Default:
   * the manifest's `transports.http.sse`.
   */
  sse?: SseOptions | false | undefined;
}

export interface HttpServerHandle {
  /** The MCP endpoint, with the port actually bound. */
  readonly url: URL;
  close(): Promise<void>;
}

/** The environment variable naming the Redis replicas share (see `HttpOptions.redisUrl`). */
export const REDIS_URL_ENV = 'REDIS_URL';

/** Seconds a client is told to wait (Retry-After) when the authorization server cannot be reached. */
const AUTH_RETRY_AFTER_S = 5;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/** transports.http.auth.bearer: the tokens in the environment variable it names. */
export function staticBearerAuth(bearer: BearerConfig, env: NodeJS.ProcessEnv = process.env): BearerAuthOptions {
  const { tokensEnv: name, requiredScopes, scopes } = bearer;
  const tokens = readTokens(name, env[name]);
  return {
    requiredScopes,
    verifier: {
      async verifyAccessToken(token): Promise<AuthInfo> {
        const clientId = tokens.get(token);
        if (clientId === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token');
        // Static tokens do not expire; the SDK wants a time, so: an hour from now, every time.
        return { token, clientId, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
    },
  };
}

/**
 * The tokens of `clientId:token,…` (a bare `token` is client `client`), by token. An entry that
 * could never log anyone in stops the start, named by its position and client, never its token.
 */
function readTokens(name: string, value: string | undefined): Map<string, string> {
  const format = `list them as clientId:token,clientId:token,…`;
  if (value === undefined || value.trim() === '') {
    throw new Error(`${name} is not set: it lists the bearer tokens HTTP clients must send (${format})`);
  }
  const tokens = new Map<string, string>();
  const entryOf = new Map<string, number>();
  const entries = value.split(',').map((entry) => entry.trim());
  entries.forEach((entry, index) => {
    const n = index + 1;
    if (entry === '') return; // a trailing or doubled comma
    const colon = entry.indexOf(':');
    const clientId = colon >= 0 ? entry.slice(0, colon).trim() : 'client';
    const token = colon >= 0 ? entry.slice(colon + 1).trim() : entry;
    const at = `${name} entry ${n}${clientId ? ` (client ${clientId})` : ''}`;
    if (colon === 0 || !clientId) throw new Error(`${at} has no client ID before its ':': ${format}`);
    if (!token) throw new Error(`${at} has no token after its ':': ${format}`);
    if (/\s/.test(token))
      throw new Error(`${at} has a token with a space in it, which no Authorization header can carry: ${format}`);
    const earlier = entryOf.get(token);
    if (earlier !== undefined) {
      throw new Error(
        `${name} entries ${earlier} (client ${tokens.get(token)}) and ${n} (client ${clientId}) have the same token: give each client its own (${format})`,
      );
    }
    entryOf.set(token, n);
    tokens.set(token, clientId);
  });
  if (tokens.size === 0) throw new Error(`${name} lists no token (it is ${JSON.stringify(value)}): ${format}`);
  return tokens;
}

/**
 * Whether a parsed POST is 2025-era traffic: what `isLegacyRequest` answers, by the same SDK
 * classifier, read off the Node request without building a web Request for it.
 */
function isLegacy(req: IncomingMessage, body: unknown): boolean {
  if (req.headers['mcp-session-id'] !== undefined) return true;
  // A request or notification that claims a protocol version in `params._meta` (every 2026-07-28
  // call does) is never legacy: the classifier serves or rejects it as modern, so skip its cost.
  if (claimsEnvelope(body)) return false;
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body,
  });
  return route.kind === 'legacy';
}

/** The path of a request target: origin-form read as it is, anything else parsed. */
function pathOf(target: string): string {
  if (!target.startsWith('/')) return new URL(target, 'http://localhost').pathname;
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}

/**
 * Finds the legacy transport's package without loading it (it loads on first use). Node 20 before
 * 20.6 has no import.meta.resolve without a flag: there it is found when first used.
 */
const resolveLegacyTransport = async () =>
  typeof import.meta.resolve === 'function' ? import.meta.resolve('@modelcontextprotocol/server-legacy/sse') : '';

const isListen = (body: unknown) => isObject(body) && body.method === 'subscriptions/listen';

/** A message other than initialize whose `params._meta` has the per-request protocol version. */
function claimsEnvelope(body: unknown): boolean {
  if (!isObject(body) || typeof body.method !== 'string' || body.method === 'initialize') return false;
  const meta = isObject(body.params) ? body.params._meta : undefined;
  return isObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * Serves MCP over Streamable HTTP on one URL: 2026-07-28 requests statelessly (any replica can
 * answer), 2025 clients through sessions (`Mcp-Session-Id`; POST, GET stream, DELETE; resumable
 * streams). `GET /health` answers 200 for load balancers. With `config.sse`, clients of the
 * 2024-11-05 HTTP+SSE transport connect to its path (./sse.ts).
 */
export async function startHttp(
  app: ServerApp,
  config: HttpConfig,
  options: HttpOptions = {},
): Promise<HttpServerHandle> {
  startApp(app);
  // A served process: every request, unless MCP_LOG_LEVEL says otherwise.
  setDefaultLogLevel('info');
  const drainMs = options.drainMs ?? drainMsFromEnv() ?? DEFAULT_DRAIN_MS;
  const serverInfo = app.info;
  const hostSource = options.host !== undefined ? '--host' : 'transports.http.host';
  const host = listenHost(options.host ?? config.host, hostSource);
  const path = options.path ?? config.path;
  const maxRequestBodySize = options.maxBodyBytes ?? config.maxBodyBytes;
  const maxSessions = options.maxSessions ?? 1000;
  const maxEvents = options.maxEventsPerSession ?? 1000;
  const loopback = LOOPBACK.has(host);
  const onerror = (error: Error) => logError(error.message);
  const redisUrl = options.redisUrl ?? process.env[REDIS_URL_ENV];
  // Before listening: without an authorization server (or `jose`) the server does not start.
  const oauthModule = config.oauth
    ? await loadPeer('jose', 'transports.http.auth.oauth', () => import('./oauth.js'))
    : undefined;
  const oauth = config.oauth && oauthModule?.oauthSettings(config.oauth, options.oauth, process.env, !options.auth);
  const tokens = options.auth || !config.bearer ? undefined : staticBearerAuth(config.bearer);
  // Last of the checks, as it waits for Redis. Loaded only with Redis: a single process never loads the client.
  const shared: SharedState | undefined = redisUrl
    ? await (await loadPeer('ioredis', 'REDIS_URL', () => import('./shared.js'))).shareState(app, redisUrl, onerror)
    : undefined;
  // After the checks above, so that a mistake there is the only line printed; a malformed OTEL_*
  // variable stops the start here; configured, the SDK runs before the port is bound.
  await startTelemetry(app.info.name);
  // With OAuth, set once the port is bound (the resource identifier defaults to the URL).
  let auth: VerifyBearerTokenOptions | undefined = oauth ? undefined : (options.auth ?? tokens);
  let metadata: OAuthProtectedResourceMetadata | undefined;
  let metadataAt = new Set<string>();

  // createMcpHandler checks no headers itself. On loopback only localhost names get in; on any
  // other interface the Host check needs allowedHosts, as the names clients use are unknown here.
  const configuredHosts = options.allowedHosts ?? config.allowedHosts;
  // On every interface, the loopback URL announced is let in as well once a Host check is on.
  const allowedHosts = [
    ...(loopback || (allInterfaces(host) && configuredHosts.length > 0) ? localhostAllowedHostnames() : []),
    ...configuredHosts,
  ];
  const allowedOrigins = [
    ...(loopback ? localhostAllowedOrigins() : []),
    ...(options.allowedOrigins ?? config.allowedOrigins),
  ];
  const guards = [
    ...(allowedHosts.length > 0 ? [hostHeaderValidation(allowedHosts)] : []),
    originValidation(allowedOrigins),
  ];

  // 2026-07-28: one instance per request; change notifications go to the listen streams. The
  // instance is kept by its request, so that a client gone before the answer ends what it started.
  const instances = new WeakMap<Request, McpServer>();
  const modern = createMcpHandler(
    (ctx) => {
      const server = app.createServer(ctx);
      if (ctx.requestInfo) instances.set(ctx.requestInfo, server);
      return server;
    },
    {
      legacy: 'reject',
      maxRequestBodySize,
      onerror,
      ...(options.bus || shared ? { bus: options.bus ?? shared!.bus } : {}),
    },
  );
  // As toNodeHandler(modern) does, less the copy of the parsed body into the Request.
  async function handleModern(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, body: unknown) {
    // A listen naming a resource that is not subscribable is refused as resources/subscribe is.
    const refusal = listenRefusal(body, app.subscribable);
    if (refusal) return sendJson(res, 200, refusal);
    // Listen keys the SDK drops (the tasks extension's taskIds) are read here (./listen-topics.ts).
    const tasks = app.tasks;
    const granted = tasks ? await tasks.listenGrants(body, principalOf(req.auth) ?? '') : undefined;
    if (granted && 'refusal' in granted) return sendJson(res, 200, granted.refusal);
    // A listen stream ends when its client goes (the SDK reads the request's signal); any other
    // request, by closing its instance, which aborts the handler's `ctx.signal`.
    const abort = isListen(body) ? new AbortController() : undefined;
    const request = webRequest(req, abort?.signal);
    const onClose = () => {
      if (abort) abort.abort();
      else if (!res.writableEnded) void instances.get(request)?.close();
    };
    res.once('close', onClose);
    try {
      let response = await modern.fetch(request, {
        parsedBody: body,
        ...(req.auth ? { authInfo: req.auth } : {}),
      });
      if (granted && tasks && abort)
        response = tasks.withListenGrants(response, (body as { id: string | number }).id, granted.grants, abort.signal);
      await writeResponse(req, res, await withEveryVersionResponse(response));
    } finally {
      res.off('close', onClose);
    }
  }
  const removeModernSink = addNotificationSink(modern.notify);
  // The legacy transport loads on the first request to its paths: most clients never use it. Its
  // package is looked up now, so a server configured for it without it does not start.
  const sseConfig = options.sse === false || !config.sse ? undefined : { ...config.sse, ...options.sse };
  if (sseConfig) await loadPeer('@modelcontextprotocol/server-legacy', 'transports.http.sse', resolveLegacyTransport);
  let sseLoaded: Promise<SseEndpoints> | undefined;
  const loadSse = () =>
    (sseLoaded ??= loadPeer(
      '@modelcontextprotocol/server-legacy',
      'transports.http.sse',
      () => import('./sse.js'),
    ).then(({ sseEndpoints }) =>
      sseEndpoints({
        ...sseConfig,
        app,
        maxBodyBytes: maxRequestBodySize,
        maxSessions,
        onerror,
        bus: modern.bus,
        hub: shared?.hub,
      }),
    ));
  const ssePaths = sseConfig
    ? new Set([sseConfig.path ?? sseDefaults.path, sseConfig.messagesPath ?? sseDefaults.messagesPath])
    : undefined;

  // 2025: one instance per session, in this process or (replicas) roaming through Redis.
  const sessionOptions = { app, maxSessions, maxEvents, bus: modern.bus, onerror };
  const legacy: LegacySessions = shared ? shared.sessions(sessionOptions) : memorySessions(sessionOptions);
  const handleLegacy = (req: AuthedRequest, res: ServerResponse, body?: unknown) => legacy.handle(req, res, body);

  /** Sets `req.auth` (read by both legs), or answers the challenge; true when the request may go on. */
  async function authenticate(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse) {
    // With OAuth, unset only until the port is bound, when no request is read yet: refused (500).
    if (!auth && oauth) throw new Error('authentication is not set up yet');
    if (!auth) return true;
    try {
      req.auth = await verifyBearerToken(req.headers.authorization, auth);
      return true;
    } catch (error) {
      // The authorization server is away: a client should retry, not give up on a 500.
      if (error instanceof OAuthError && error.code === OAuthErrorCode.TemporarilyUnavailable) {
        res.setHeader('Retry-After', String(AUTH_RETRY_AFTER_S));
        sendJson(res, 503, error.toResponseObject());
        return false;
      }
      const challenge = bearerAuthChallengeResponse(error, auth);
      noteChallenge(res, challenge.headers.get('www-authenticate'));
      res.writeHead(challenge.status, Object.fromEntries(challenge.headers)).end(await challenge.text());
      return false;
    }
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') {
      // GET (the 2025 notification stream) and DELETE (end a session) exist only for sessions.
      if (req.headers['mcp-session-id'] !== undefined) return handleLegacy(req, res);
      // A 405 names what the endpoint takes (RFC 9110 §15.5.6), as the SDK's session transport does.
      res.setHeader('Allow', 'GET, POST, DELETE');
      return sendRpcError(
        res,
        405,
        -32000,
        req.method === 'GET' || req.method === 'DELETE'
          ? 'Method not allowed: GET and DELETE need an Mcp-Session-Id'
          : `Method not allowed: ${req.method} (the endpoint takes POST; GET and DELETE with an Mcp-Session-Id)`,
      );
    }
    const read = await readJson(req, res, maxRequestBodySize);
    if (!read) return;
    // A close waits for answers in flight; a listen stream is not one (it ends when cut).
    if (!isListen(read.body)) {
      inFlight.set(res, requestIds(read.body));
      res.once('close', () => inFlight.delete(res));
    }
    return isLegacy(req, read.body) ? handleLegacy(req, res, read.body) : handleModern(req, res, read.body);
  }

  // The responses being answered, with the ids of their requests (for the answer if they are cut).
  const inFlight = new Map<ServerResponse, (string | number)[]>();
  let draining = false;
  let closing: Promise<void> | undefined;
  const server = createHttpServer((req, res) => {
    const pathname = pathOf(req.url ?? '/');
    // While draining, no connection is kept for another request.
    if (draining) res.setHeader('Connection', 'close');
    // A refusal before any method runs gets a line of its own (a method answered has its request line).
    if (logs('warn') && pathname !== '/health') logRefusals(req, res, pathname);
    // Ahead of the guards: load balancers probe with a Host header of their own.
    if (pathname === '/health' && req.method === 'GET') {
      // Draining: the balancer takes this replica out while its answers finish. Without Redis it
      // cannot serve sessions: out as well, until Redis answers again.
      void (async () => {
        const health = draining ? { status: 'draining' } : ((await shared?.health()) ?? { status: 'ok' });
        // Only a draining replica leaves rotation: a Redis outage is every replica's, and taking
        // them all out would also stop the stateless calls they can still answer.
        const status = health.status === 'draining' ? 503 : 200;
        sendJson(res, status, { ...health, name: serverInfo.name, version: serverInfo.version });
      })();
    } else if (metadataAt.has(pathname)) {
      // Public, and read cross-origin by browser clients (RFC 9728): ahead of the guards, as /health.
      oauthModule!.sendMetadata(req, res, metadata!);
    } else if (pathname !== path && !ssePaths?.has(pathname)) {
      sendJson(res, 404, { error: `not found: ${pathname}` });
    } else if (guards.every((guard) => guard(req, res))) {
      authenticate(req, res)
        .then((ok) =>
          ok
            ? pathname === path
              ? handleMcp(req, res)
              : loadSse().then((sse) => sse.handle(req, res, pathname))
            : undefined,
        )
        .catch((error: Error) => {
          onerror(error);
          if (!res.headersSent) sendRpcError(res, 500, -32603, 'Internal error');
          else endUncorked(res);
        });
    }
  });

  const listenPort = options.port ?? config.port;
  try {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: NodeJS.ErrnoException) => reject(listenFailure(error, host, listenPort, hostSource));
      server.once('error', failed);
      server.listen(listenPort, host, () => {
        server.off('error', failed);
        resolve();
      });
    });
  } catch (error) {
    // Not listening (the port is taken, say): nothing started may keep the process alive.
    removeModernSink();
    await Promise.allSettled([legacy.close(), sseLoaded?.then((sse) => sse.close()), modern.close(), shared?.close()]);
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://${urlHost(host)}:${port}${path}`);
  if (allInterfaces(host) || allowedHosts.length === 0) {
    const where = allInterfaces(host) ? `all interfaces (${host}), port ${port}` : `${host}, port ${port}`;
    const check = allowedHosts.length === 0 ? ' without a Host check; set allowedHosts to enable it' : '';
    console.error(`${serverInfo.name}: listening on ${where}${check}`);
  }
  // Set before any request is read (this runs in the turn that bound the port). The resource is
  // the URL bound, unless configured (a proxy's public URL).
  if (oauth && oauthModule) {
    const resource = oauth.resource ?? url;
    metadata = oauthModule.protectedResourceMetadata(oauth, resource);
    metadataAt = oauthModule.metadataPaths(resource, path);
    const verified = () => {
      const own = oauthModule.oauthBearerAuth(config.oauth!, { ...options.oauth, serverUrl: url });
      return tokens ? oauthModule.eitherToken(tokens, own) : own;
    };
    auth = {
      requiredScopes: oauth.scopes,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
      ...(options.auth ?? verified()),
    };
  }
  return {
    url,
    async close() {
      // Draining: still answering (health 503) for the grace, and until what is being answered
      // finishes (bounded); then no new connections, and the rest is cut.
      if (draining) return closing;
      draining = true;
      closing = stop();
      return closing;
    },
  };

  async function stop(): Promise<void> {
    const start = Date.now();
    const grace = options.drainGraceMs ?? (shared ? 1000 : 0);
    const until = start + Math.max(grace, drainMs);
    log('info', `draining ${inFlight.size} request${inFlight.size === 1 ? '' : 's'}, up to ${drainMs} ms`, {
      inFlight: inFlight.size,
      drainMs,
    });
    server.closeIdleConnections();
    while ((inFlight.size > 0 || Date.now() < start + grace) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // Past the drain time, every request still open is answered before its connection goes.
    if (inFlight.size > 0) {
      log('warn', `drain time over: cut ${inFlight.size} request${inFlight.size === 1 ? '' : 's'}`, {
        cut: inFlight.size,
      });
      await Promise.all([...inFlight].map(([res, ids]) => cut(res, ids)));
      inFlight.clear();
    }
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    removeModernSink();
    await legacy.close();
    await sseLoaded?.then((sse) => sse.close());
    await modern.close();
    server.closeAllConnections();
    await stopped;
    await shared?.close();
    // The spans and metrics of the last requests go out before the process ends (bounded).
    await shutdownTelemetry();
    log('info', 'stopped', { durationMs: Date.now() - start });
  }
}
