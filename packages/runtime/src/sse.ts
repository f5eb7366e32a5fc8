// The 2024-11-05 HTTP+SSE transport, for clients that speak only it: `GET <path>` opens an event
// stream whose first event names the message endpoint, `POST <messagesPath>?sessionId=…` carries
// the client's messages (answered 202; replies travel on the stream). Served by the SDK's own
// SSEServerTransport; http.ts routes both paths here after its Host/Origin checks and auth.
// @see https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse

import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type McpServer,
  OAuthError,
  OAuthErrorCode,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';

import type { ServerApp } from './app.js';
import { noteChallenge } from './http-refusals.js';
import { ownsSession, readJson, sendRpcError, sendUnavailable } from './http-wire.js';
import type { RedisHub } from './redis.js';
import { principalOf } from './request-state.js';
import { connectionSink } from './runtime.js';
import { deliverEvent } from './sessions.js';
import { type SseOptions, sseDefaults } from './sse-options.js';

export { type SseOptions, sseDefaults } from './sse-options.js';

/** The two endpoints, for http.ts: it checks Host, Origin and the token, then hands requests here. */
export interface SseEndpoints {
  /** Whether `pathname` is one of the two endpoints. */
  serves(pathname: string): boolean;
  handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, pathname: string): Promise<void>;
  /** Ends every stream. */
  close(): Promise<void>;
}

interface SseSession {
  transport: SSEServerTransport;
  server: McpServer;
  /** The caller that opened the stream: no other may post to it. */
  principal: string | undefined;
  unsubscribe: () => void;
}

/** Where a stream of another replica is: its replica and its caller. */
interface SseRecord {
  replica: string;
  principal: string | undefined;
}

/** AuthInfo as it travels between replicas (JSON): `resource` back to a URL. */
function revivedAuth(auth: unknown): AuthInfo | undefined {
  if (typeof auth !== 'object' || auth === null) return undefined;
  const { resource, ...rest } = auth as AuthInfo & { resource?: string };
  return {
    ...rest,
    ...(typeof resource === 'string' ? { resource: new URL(resource) } : {}),
  } as AuthInfo;
}

const isMessage = (body: unknown) =>
  isJSONRPCRequest(body) ||
  isJSONRPCNotification(body) ||
  isJSONRPCResultResponse(body) ||
  isJSONRPCErrorResponse(body);

/** Where a scope challenge points the client: as the SDK's own challenges do. */
function resourceMetadataUrl(auth: AuthInfo | undefined): string | undefined {
  if (auth?.resourceMetadataUrl !== undefined) return auth.resourceMetadataUrl;
  const resource = auth?.resource;
  return resource?.protocol === 'https:' || resource?.protocol === 'http:'
    ? getOAuthProtectedResourceMetadataUrl(resource)
    : undefined;
}

/**
 * The HTTP+SSE endpoints: one McpServer (2025 era) per stream, removed when the stream closes; at
 * most `maxSessions` at once (the least recently used is closed). Bodies are read by http.ts's
 * reader with its limit (413 beyond it), so the transport's own 4 MB reader never runs.
 */
export function sseEndpoints(
  options: SseOptions & {
    app: ServerApp;
    maxBodyBytes: number;
    maxSessions: number;
    onerror: (error: Error) => void;
    /** Change notifications (`ctx.notify`), for the streams that asked for them. */
    bus: ServerEventBus;
    /** Replicas: a message posted to any replica reaches the one holding its stream. */
    hub?: RedisHub | undefined;
  },
): SseEndpoints {
  const hub = options.hub;
  // A stream's record outlives a quiet minute; the keep-alive (or this) refreshes it.
  const recordMs = 60_000;
  const recordKey = (id: string) => hub!.key('sse', id);
  let probe: McpServer | undefined;
  const path = options.path ?? sseDefaults.path;
  const messagesPath = options.messagesPath ?? sseDefaults.messagesPath;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const sessions = new Map<string, SseSession>();

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    sessions.delete(id);
    session.unsubscribe();
    if (hub) void hub.run((client) => client.del(recordKey(id))).catch(() => {});
    return session.server.close().catch(() => {});
  };

  async function open(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse) {
    if (sessions.size >= options.maxSessions) await closeSession(sessions.keys().next().value!);
    const server = options.app.createServer({ era: 'legacy' });
    // A message endpoint without a host: clients resolve it against the stream's URL.
    const transport = new SSEServerTransport(messagesPath, res);
    const id = transport.sessionId;
    transport.onclose = () => void closeSession(id);
    transport.onerror = options.onerror;
    const principal = principalOf(req.auth);
    const sink = connectionSink(server, 'legacy');
    sessions.set(id, {
      transport,
      server,
      principal,
      unsubscribe: options.bus.subscribe((event) => deliverEvent(sink, event)),
    });
    const record = JSON.stringify({ replica: hub?.replica, principal: principal ?? null });
    const remember = () => hub?.run((client) => client.set(recordKey(id), record, 'PX', recordMs)).catch(() => {});
    await remember();
    if (hub) {
      const timer = setInterval(remember, recordMs / 3).unref();
      res.once('close', () => clearInterval(timer));
    }
    await server.connect(transport);
    // The stream may stay quiet for long: the client needs its headers and endpoint now.
    res.flushHeaders();
    if (keepAliveMs > 0) {
      // Between events: the transport writes each event whole, in one write.
      const timer = setInterval(() => res.write(': keepalive\n\n'), keepAliveMs).unref();
      res.once('close', () => clearInterval(timer));
    }
  }

  async function post(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, query: URLSearchParams) {
    const id = query.get('sessionId');
    if (id === null || id === '') {
      return sendRpcError(
        res,
        400,
        -32000,
        `Bad Request: no sessionId (GET ${path} first; its endpoint event names the URL)`,
      );
    }
    const session = sessions.get(id);
    if (!session && hub) return forward(req, res, id);
    if (!session || !ownsSession(session, req.auth, id)) return sendRpcError(res, 404, -32001, 'Session not found');
    sessions.delete(id); // re-inserted: the map's order is the eviction order
    sessions.set(id, session);
    const read = await readJson(req, res, options.maxBodyBytes);
    if (!read) return;
    if (!isMessage(read.body)) return sendRpcError(res, 400, -32600, 'Invalid Request: not a JSON-RPC message');
    if (await refusedScopes(session.server, req, res, read.body)) return;
    await session.transport.handlePostMessage(req, res, read.body);
  }

  /**
   * Per-entry scopes: the SDK checks them in its own HTTP transports; this one does not, so ask a
   * server instance before the message goes in, and answer as they would (403 step-up).
   */
  async function refusedScopes(
    server: McpServer,
    req: IncomingMessage & { auth?: AuthInfo },
    res: ServerResponse,
    body: unknown,
  ): Promise<boolean> {
    if (isJSONRPCRequest(body)) {
      const challenge = await server.resolveScopeChallenge({
        request: body,
        ...(req.auth ? { authInfo: req.auth } : {}),
      });
      if (challenge !== undefined) {
        const response = bearerAuthChallengeResponse(
          new OAuthError(OAuthErrorCode.InsufficientScope, challenge.errorDescription ?? 'Insufficient scope'),
          {
            requiredScopes: [...challenge.scopes],
            resourceMetadataUrl: resourceMetadataUrl(req.auth),
          },
        );
        noteChallenge(res, response.headers.get('www-authenticate'));
        res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
        return true;
      }
    }
    return false;
  }

  /** A message for a stream another replica holds: checked here, delivered there. */
  async function forward(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, id: string) {
    let record: SseRecord | undefined;
    try {
      const raw = await hub!.run((client) => client.get(recordKey(id)));
      const parsed = raw ? (JSON.parse(raw) as { replica: string; principal: string | null }) : undefined;
      record = parsed && { replica: parsed.replica, principal: parsed.principal ?? undefined };
    } catch (error) {
      // By name: redis.js (and its client) is not loaded without Redis.
      if ((error as Error).name !== 'RedisUnavailableError') throw error;
      return sendUnavailable(res, 'the session store (Redis) is not reachable; retry shortly');
    }
    if (!record || !ownsSession(record, req.auth, id)) return sendRpcError(res, 404, -32001, 'Session not found');
    const read = await readJson(req, res, options.maxBodyBytes);
    if (!read) return;
    if (!isMessage(read.body)) return sendRpcError(res, 400, -32600, 'Invalid Request: not a JSON-RPC message');
    if (await refusedScopes((probe ??= options.app.createServer({ era: 'legacy' })), req, res, read.body)) return;
    try {
      await hub!.ask(record.replica, 'sse-message', {
        id,
        message: read.body,
        auth: req.auth ?? null,
      });
    } catch {
      return sendRpcError(res, 404, -32001, 'Session not found');
    }
    res.writeHead(202).end('Accepted');
  }

  hub?.answer('sse-message', async (payload) => {
    const { id, message, auth } = payload as { id: string; message: JSONRPCMessage; auth: unknown };
    const session = sessions.get(id);
    if (!session) throw new Error('Session not found');
    await session.transport.handleMessage(message, { authInfo: revivedAuth(auth) });
  });

  return {
    serves: (pathname) => pathname === path || pathname === messagesPath,
    async handle(req, res, pathname) {
      if (pathname === path) {
        if (req.method !== 'GET') {
          res.setHeader('Allow', 'GET');
          return sendRpcError(res, 405, -32000, `Method not allowed: ${path} takes GET (the event stream)`);
        }
        return open(req, res);
      }
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return sendRpcError(res, 405, -32000, `Method not allowed: ${messagesPath} takes POST (a message)`);
      }
      return post(req, res, new URL(req.url ?? '/', 'http://localhost').searchParams);
    },
    async close() {
      await Promise.all([...sessions.keys()].map(closeSession));
    },
  };
}
