// 2025 Streamable HTTP sessions (`Mcp-Session-Id`): one McpServer instance per session. In one
// process they live here; replicas sharing Redis keep them in redis-sessions.ts instead.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import {
  type EventStore,
  isInitializeRequest,
  type JSONRPCMessage,
  type McpServer,
  type ServerEvent,
  type ServerEventBus,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

import type { ServerApp } from './app.js';
import { type AuthedRequest, ownsSession, sendRpcError, serveSession } from './http-wire.js';
import { principalOf } from './request-state.js';
import { connectionSink, type NotificationSink } from './runtime.js';

export interface SessionOptions {
  /** The server each session gets an instance of. */
  app: ServerApp;
  /** At most this many sessions at once; the least recently used is closed. */
  maxSessions: number;
  /** Events kept per session for resuming a stream (`Last-Event-ID`). */
  maxEvents: number;
  /** Change notifications (`ctx.notify`): delivered to the sessions that asked for them. */
  bus: ServerEventBus;
  onerror: (error: Error) => void;
}

/** The 2025 leg of the MCP endpoint: POST (initialize or a session's message), GET, DELETE. */
export interface LegacySessions {
  handle(req: AuthedRequest, res: ServerResponse, body?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Hands a change event of the bus to one session's connection, as its sink says. */
export function deliverEvent(sink: NotificationSink, event: ServerEvent): void {
  if (event.kind === 'resource_updated') sink.resourceUpdated?.(event.uri);
  else if (event.kind === 'tools_list_changed') sink.toolsChanged?.();
  else if (event.kind === 'prompts_list_changed') sink.promptsChanged?.();
  else if (event.kind === 'resources_list_changed') sink.resourcesChanged?.();
}

export function noSession(res: ServerResponse): void {
  sendRpcError(res, 404, -32001, 'Session not found');
}

export function initializeFirst(res: ServerResponse): void {
  sendRpcError(res, 400, -32000, 'Bad Request: no valid Mcp-Session-Id (initialize first)');
}

/**
 * Keeps the last events of one 2025 session so a client that lost a stream resumes it with
 * `Last-Event-ID` (the transport sends priming events and `retry:` once it has a store).
 */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  #next = 0;

  constructor(private readonly limit = 1000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${++this.#next}`;
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > this.limit) this.#events.delete(this.#events.keys().next().value!);
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) return '';
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (after && event.streamId === streamId) await send(eventId, event.message);
      else if (eventId === lastEventId) after = true;
    }
    return streamId;
  }
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** The caller that opened the session: no other may use it. */
  principal: string | undefined;
  unsubscribe: () => void;
}

/** Sessions of this process: kept until DELETE, close, or eviction (least recently used). */
export function memorySessions(options: SessionOptions): LegacySessions {
  const sessions = new Map<string, Session>();
  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    sessions.delete(id);
    session.unsubscribe();
    return session.transport.close().catch(() => {});
  };

  async function handle(req: AuthedRequest, res: ServerResponse, body?: unknown): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session || !ownsSession(session, req.auth, id)) return noSession(res);
      sessions.delete(id); // re-inserted: the map's order is the eviction order
      sessions.set(id, session);
      return serveSession(session.transport, req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) return initializeFirst(res);
    if (sessions.size >= options.maxSessions) await closeSession(sessions.keys().next().value!);
    const server = options.app.createServer({ era: 'legacy' });
    const principal = principalOf(req.auth);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(options.maxEvents),
      retryInterval: 1000,
      onsessioninitialized: (sessionId) => {
        const sink = connectionSink(server, 'legacy');
        sessions.set(sessionId, {
          transport,
          server,
          principal,
          unsubscribe: options.bus.subscribe((event) => deliverEvent(sink, event)),
        });
      },
      onsessionclosed: (sessionId) => void closeSession(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) void closeSession(transport.sessionId);
    };
    transport.onerror = options.onerror;
    await server.connect(transport);
    await serveSession(transport, req, res, body);
  }

  return {
    handle,
    close: async () => void (await Promise.all([...sessions.keys()].map(closeSession))),
  };
}
