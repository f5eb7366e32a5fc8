// 2025 sessions that roam between replicas sharing Redis. A session's record (its initialize
// request, caller, log level) is in Redis, so any replica serves it: the first request a replica
// sees for a session replays initialize into an instance of its own. Events go to a Redis stream,
// so `Last-Event-ID` resumes anywhere. What must reach one process is routed there: a client's
// answer to a server request goes to the replica that asked (request ids name it), and messages
// for the GET stream go to the replica that holds it.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import {
  type EventStore,
  isInitializeRequest,
  type JSONRPCMessage,
  type McpServer,
  type ServerEventBus,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

import type { ServerApp } from './app.js';
import { isLogLevel, isObject } from './era.js';
import { type AuthedRequest, ownsSession, sendUnavailable, serveSession } from './http-wire.js';
import { type RedisHub, RedisUnavailableError } from './redis.js';
import { principalOf } from './request-state.js';
import { connectionSink } from './runtime.js';
import { numberSetting, SESSION_TTL } from './settings.js';
import { deliverEvent, initializeFirst, type LegacySessions, noSession } from './sessions.js';

/** The environment variable bounding how long an idle 2025 session lives (seconds; default 3600). */
export const SESSION_TTL_ENV = SESSION_TTL.name;

const GET_STREAM = '_GET_stream';

export interface RedisSessionOptions {
  /** The server each session gets an instance of. */
  app: ServerApp;
  maxSessions: number;
  maxEvents: number;
  bus: ServerEventBus;
  onerror: (error: Error) => void;
}

type Message = Record<string, unknown>;
const isResponse = (message: unknown): boolean =>
  isObject(message) && message.method === undefined && ('result' in message || 'error' in message);

/** An event id of the store: the stream it belongs to and its Redis stream entry. */
function parseEventId(eventId: string): { streamId: string; xid: string } | undefined {
  const bar = eventId.lastIndexOf('|');
  const xid = eventId.slice(bar + 1);
  if (bar <= 0 || !/^\d+-\d+$/.test(xid)) return undefined;
  return { streamId: eventId.slice(0, bar), xid };
}

function fieldsOf(list: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]!] = list[i + 1]!;
  return fields;
}

/** One session's events in a Redis stream (bounded, expiring with the session). */
export class RedisEventStore implements EventStore {
  /** While an instance replays initialize, what it sends is nobody's event. */
  muted = false;

  constructor(
    private readonly hub: RedisHub,
    private readonly key: string,
    private readonly limit: number,
    private readonly ttlMs: number,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    if (this.muted) return `${streamId}|0-0`;
    const results = await this.hub.run((client) =>
      client
        .pipeline()
        .xadd(this.key, 'MAXLEN', '~', String(this.limit), '*', 's', streamId, 'm', JSON.stringify(message))
        .pexpire(this.key, this.ttlMs)
        .exec(),
    );
    const [error, xid] = results?.[0] ?? [new Error('no reply')];
    if (error) throw new RedisUnavailableError(`event not stored: ${error.message}`);
    return `${streamId}|${String(xid)}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const parsed = parseEventId(eventId);
    if (!parsed) return undefined;
    const found = await this.hub.run((client) => client.xrange(this.key, parsed.xid, parsed.xid, 'COUNT', 1));
    return found.length > 0 ? parsed.streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return '';
    for (const event of await this.after(parsed.streamId, parsed.xid)) {
      await send(event.eventId, event.message);
    }
    return parsed.streamId;
  }

  /** The events of `streamId` after entry `xid`, and the last entry read (of any stream). */
  async after(
    streamId: string,
    xid: string,
  ): Promise<Array<{ eventId: string; xid: string; message: JSONRPCMessage }>> {
    const entries = await this.hub.run((client) => client.xrange(this.key, `(${xid}`, '+'));
    const events: Array<{ eventId: string; xid: string; message: JSONRPCMessage }> = [];
    for (const [entry, list] of entries) {
      const fields = fieldsOf(list);
      if (fields.s !== streamId || fields.m === undefined) continue;
      events.push({ eventId: `${streamId}|${entry}`, xid: entry, message: JSON.parse(fields.m) });
    }
    return events;
  }

  /** The id of the newest entry, or `0-0`. */
  async last(): Promise<string> {
    const newest = await this.hub.run((client) => client.xrevrange(this.key, '+', '-', 'COUNT', 1));
    return newest[0]?.[0] ?? '0-0';
  }
}

/** This replica's instance of a session. */
interface Local {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  store: RedisEventStore;
  principal: string | undefined;
  /** The record's revision last applied (log level). */
  rev: number;
  /** Whether this replica holds the session's GET stream (notifications are sent from here). */
  holdsStream: boolean;
  /** The transport's own send, past the routing. */
  rawSend: Transport['send'];
  /** Requests being answered: an instance that has some is not evicted. */
  busy: number;
}

// Refreshes the session's expiry and reads its record in one round trip; nil when it is gone.
const TOUCH = `
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then
  redis.call('ZREM', KEYS[4], ARGV[3])
  return false
end
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
return redis.call('HMGET', KEYS[1], 'principal', 'rev', 'level', 'init')
`;

interface Touching {
  mcpTouch(...args: Array<string | number>): Promise<Array<string | null> | null>;
}

/**
 * Sessions shared by every replica on `hub`: records with a TTL (`MCP_SESSION_TTL`, refreshed by
 * each request and while a replica holds the GET stream), at most `maxSessions` of them (the
 * least recently used is ended), and nothing left once DELETEd or expired.
 */
export function redisSessions(hub: RedisHub, options: RedisSessionOptions): LegacySessions {
  const ttlMs = Math.round((numberSetting(SESSION_TTL) ?? 3600) * 1000);
  const locals = new Map<string, Local>();
  const opening = new Map<string, Promise<Local>>();
  const index = hub.key('sessions');
  const key = (id: string, part?: string) => hub.key('session', part ? `${id}:${part}` : id);
  hub.client.defineCommand('mcpTouch', { numberOfKeys: 4, lua: TOUCH });

  async function touch(id: string) {
    const now = Date.now();
    const fields = await hub.run((client) =>
      (client as unknown as Touching).mcpTouch(key(id), key(id, 'subs'), key(id, 'events'), index, ttlMs, now, id),
    );
    if (!fields) return undefined;
    const [principal, rev, level, init] = fields;
    return {
      principal: principal ? ((JSON.parse(principal) as string | null) ?? undefined) : undefined,
      rev: Number(rev ?? 0),
      level: level ?? undefined,
      init: init ? (JSON.parse(init) as JSONRPCMessage) : undefined,
    };
  }

  /** Ends a session everywhere: its keys go, and every replica closes its instance. */
  async function forget(id: string): Promise<void> {
    await hub.run((client) =>
      client.pipeline().del(key(id), key(id, 'subs'), key(id, 'events')).zrem(index, id).exec(),
    );
    await hub.publish('session-closed', { id });
  }

  function dropLocal(id: string): void {
    const local = locals.get(id);
    if (!local) return;
    locals.delete(id);
    void local.transport.close().catch(() => {});
  }

  /** Keeps this replica's instances within `maxSessions`: idle ones go first. */
  function evictLocals(): void {
    for (const [id, local] of locals) {
      if (locals.size <= options.maxSessions) return;
      if (local.busy === 0 && !local.holdsStream) dropLocal(id);
    }
  }

  /** Sends `message` into the instance as a POST would, and reads the answer to its end. */
  async function replay(local: Local, message: unknown, inSession: boolean): Promise<void> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(inSession ? { 'mcp-session-id': local.id } : {}),
    };
    const request = new Request('http://localhost/', { method: 'POST', headers });
    const response = await local.transport.handleRequest(request, { parsedBody: message });
    await response.text();
  }

  /** Routes what the instance sends and receives (see the top of this file). */
  function route(local: Local): void {
    const { transport } = local;
    const send = transport.send.bind(transport);
    local.rawSend = send;
    const own = `${hub.replica}~`;
    transport.send = async (message, sendOptions) => {
      const m = message as Message;
      const outgoing =
        m.method !== undefined && m.id !== undefined
          ? ({ ...m, id: `${own}${String(m.id)}` } as JSONRPCMessage)
          : message;
      if (sendOptions?.relatedRequestId !== undefined || m.method === undefined || local.holdsStream)
        return send(outgoing, sendOptions);
      const holder = await hub.run((client) => client.hget(key(local.id), 'stream')).catch(() => null);
      if (holder && holder !== hub.replica) {
        return hub.tell(holder, 'session-send', { id: local.id, message: outgoing });
      }
      return send(outgoing, sendOptions);
    };
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as Message;
      const answer =
        isResponse(m) && typeof m.id === 'string' && m.id.startsWith(own)
          ? ({ ...m, id: Number(m.id.slice(own.length)) } as JSONRPCMessage)
          : message;
      deliver?.(answer, extra);
    };
  }

  async function open(
    id: string,
    principal: string | undefined,
    record?: { rev: number; level?: string | undefined; init?: JSONRPCMessage | undefined },
  ): Promise<Local> {
    const server = options.app.createServer({ era: 'legacy' });
    const store = new RedisEventStore(hub, key(id, 'events'), options.maxEvents, ttlMs);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: store,
      retryInterval: 1000,
    });
    transport.onerror = options.onerror;
    const local: Local = {
      id,
      transport,
      server,
      store,
      principal,
      rev: record?.rev ?? 0,
      holdsStream: false,
      rawSend: transport.send.bind(transport),
      busy: 0,
    };
    await server.connect(transport);
    route(local);
    if (record?.init) {
      // The session was opened elsewhere: this instance learns it as the first one did.
      store.muted = true;
      try {
        await replay(local, record.init, false);
        await replay(local, { jsonrpc: '2.0', method: 'notifications/initialized' }, true);
        if (record.level) await replay(local, setLevel(record.level), true);
      } finally {
        store.muted = false;
      }
    }
    locals.set(id, local);
    evictLocals();
    return local;
  }

  const setLevel = (level: string) => ({
    jsonrpc: '2.0',
    id: `replay-${randomUUID()}`,
    method: 'logging/setLevel',
    params: { level },
  });

  /** This replica's instance of a session, opened from its record when it has none yet. */
  async function instance(id: string, record: NonNullable<Awaited<ReturnType<typeof touch>>>): Promise<Local> {
    let local = locals.get(id);
    if (!local) {
      let pending = opening.get(id);
      if (!pending) {
        pending = open(id, record.principal, record).finally(() => opening.delete(id));
        opening.set(id, pending);
      }
      local = await pending;
    } else {
      locals.delete(id); // re-inserted: the map's order is the eviction order
      locals.set(id, local);
    }
    if (local.rev !== record.rev) {
      local.rev = record.rev;
      if (record.level) await replay(local, setLevel(record.level), true);
    }
    return local;
  }

  /**
   * What of a POSTed body this replica handles: answers to another replica's requests go there,
   * a cancellation to every replica (the request may run on any), and session state the
   * messages change (log level, subscriptions) is written to the record first.
   */
  async function routeInbound(local: Local, body: unknown): Promise<unknown[]> {
    const messages = Array.isArray(body) ? body : [body];
    const mine: unknown[] = [];
    for (const message of messages) {
      if (!isObject(message)) {
        mine.push(message);
        continue;
      }
      const params = isObject(message.params) ? message.params : {};
      if (isResponse(message) && typeof message.id === 'string') {
        const owner = message.id.slice(0, message.id.indexOf('~'));
        if (owner && owner !== hub.replica) {
          await hub.tell(owner, 'session-message', { id: local.id, message });
          continue;
        }
      } else if (message.method === 'notifications/cancelled') {
        await hub.publish('session-message', { id: local.id, message });
        continue;
      } else if (message.method === 'logging/setLevel' && isLogLevel(params.level)) {
        const [, rev] = await hub
          .run((client) =>
            client
              .pipeline()
              .hset(key(local.id), 'level', params.level as string)
              .hincrby(key(local.id), 'rev', 1)
              .exec(),
          )
          .then((results) => results?.[1] ?? [null, local.rev]);
        local.rev = Number(rev);
      } else if (
        (message.method === 'resources/subscribe' || message.method === 'resources/unsubscribe') &&
        typeof params.uri === 'string' &&
        options.app.subscribable.has(params.uri)
      ) {
        const subs = key(local.id, 'subs');
        const uri = params.uri;
        await hub.run(async (client) => {
          if (message.method === 'resources/unsubscribe') return void (await client.srem(subs, uri));
          await client.pipeline().sadd(subs, uri).pexpire(subs, ttlMs).exec();
        });
      }
      mine.push(message);
    }
    return mine;
  }

  /** Resumes a POST's stream on this replica: its events from Redis, until its answer. */
  async function tail(local: Local, res: ServerResponse, from: { streamId: string; xid: string }): Promise<void> {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'mcp-session-id': local.id,
    });
    res.flushHeaders();
    let open = true;
    res.once('close', () => (open = false));
    let cursor = from.xid;
    const until = Date.now() + 10 * 60_000;
    while (open && Date.now() < until && locals.has(local.id)) {
      const events = await local.store.after(from.streamId, cursor).catch(() => undefined);
      if (!events) break;
      for (const event of events) {
        cursor = event.xid;
        if (!isObject(event.message) || Object.keys(event.message).length === 0) continue;
        res.write(`event: message\nid: ${event.eventId}\ndata: ${JSON.stringify(event.message)}\n\n`);
        if (isResponse(event.message)) return void res.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    res.end();
  }

  async function serve(local: Local, req: AuthedRequest, res: ServerResponse, body: unknown): Promise<void> {
    local.busy += 1;
    try {
      await serveSession(local.transport, req, res, body);
    } finally {
      local.busy -= 1;
    }
  }

  async function handleSession(id: string, req: AuthedRequest, res: ServerResponse, body: unknown): Promise<void> {
    const record = await touch(id);
    if (!record) {
      dropLocal(id);
      return noSession(res);
    }
    if (!ownsSession(record, req.auth, id)) return noSession(res);
    if (req.method === 'DELETE') {
      await forget(id);
      dropLocal(id);
      return void res.writeHead(200).end();
    }
    const local = await instance(id, record);
    if (req.method === 'GET') {
      const last = req.headers['last-event-id'];
      const from = typeof last === 'string' ? parseEventId(last) : undefined;
      if (from && from.streamId !== GET_STREAM) return tail(local, res, from);
      // The notification stream, new or resumed: from now on it is written from this replica.
      await hub.run((client) => client.hset(key(id), 'stream', hub.replica));
      local.holdsStream = true;
      await hub.publish('session-stream', { id, replica: hub.replica });
      return serve(local, req, res, undefined);
    }
    if (req.method !== 'POST') return serve(local, req, res, body);
    const mine = await routeInbound(local, body);
    if (mine.length === 0) return void res.writeHead(202).end();
    return serve(local, req, res, Array.isArray(body) ? mine : mine[0]);
  }

  async function handleInitialize(req: AuthedRequest, res: ServerResponse, body: unknown) {
    const id = randomUUID();
    const principal = principalOf(req.auth);
    const now = Date.now();
    await hub.run((client) =>
      client
        .pipeline()
        .hset(key(id), {
          init: JSON.stringify(body),
          principal: JSON.stringify(principal ?? null),
          rev: '0',
        })
        .pexpire(key(id), ttlMs)
        .zadd(index, now, id)
        .zremrangebyscore(index, '-inf', `(${now - ttlMs}`)
        .exec(),
    );
    const local = await open(id, principal);
    await serve(local, req, res, body);
    // An initialize the server refused opened nothing.
    if (local.transport.sessionId === undefined) {
      dropLocal(id);
      return forget(id);
    }
    const count = await hub.run((client) => client.zcard(index));
    if (count > options.maxSessions) {
      const evicted = await hub.run((client) => client.zpopmin(index, count - options.maxSessions));
      for (let i = 0; i < evicted.length; i += 2) await forget(evicted[i]!);
    }
  }

  // Messages between replicas.
  hub.answer('session-send', (payload) => {
    const { id, message } = payload as { id: string; message: JSONRPCMessage };
    const local = locals.get(id);
    if (local) return local.rawSend(message);
  });
  hub.answer('session-message', (payload) => {
    const { id, message } = payload as { id: string; message: JSONRPCMessage };
    locals.get(id)?.transport.onmessage?.(message);
  });
  const stops = [
    hub.subscribe('session-message', (payload) => {
      const { id, message } = payload as { id: string; message: JSONRPCMessage };
      locals.get(id)?.transport.onmessage?.(message);
    }),
    hub.subscribe('session-closed', (payload) => dropLocal((payload as { id: string }).id)),
    hub.subscribe('session-stream', (payload) => {
      const { id, replica } = payload as { id: string; replica: string };
      const local = locals.get(id);
      if (replica === hub.replica || !local?.holdsStream) return;
      local.holdsStream = false;
      local.transport.closeStandaloneSSEStream();
    }),
    // Change notifications go out from the replica holding each session's GET stream.
    options.bus.subscribe((event) => {
      for (const local of locals.values()) {
        if (!local.holdsStream) continue;
        if (event.kind !== 'resource_updated') {
          deliverEvent(connectionSink(local.server, 'legacy'), event);
          continue;
        }
        hub
          .run((client) => client.sismember(key(local.id, 'subs'), event.uri))
          .then((subscribed) => (subscribed ? local.server.server.sendResourceUpdated({ uri: event.uri }) : undefined))
          .catch(() => {});
      }
    }),
    // Handovers announced while the subscriber was away: ask the records who holds what.
    hub.onReconnect(() => {
      for (const local of locals.values()) {
        if (!local.holdsStream) continue;
        void hub
          .run((client) => client.hget(key(local.id), 'stream'))
          .then((holder) => {
            if (holder !== hub.replica) local.holdsStream = false;
          })
          .catch(() => {});
      }
    }),
  ];
  // A session whose GET stream stays open without requests stays alive.
  const keepAlive = setInterval(
    () => {
      for (const local of locals.values()) {
        if (local.holdsStream) void touch(local.id).catch(() => {});
      }
    },
    Math.max(1000, ttlMs / 3),
  );
  keepAlive.unref();

  return {
    async handle(req, res, body) {
      try {
        const id = req.headers['mcp-session-id'];
        if (typeof id === 'string') return await handleSession(id, req, res, body);
        if (req.method !== 'POST' || !isInitializeRequest(body)) return initializeFirst(res);
        return await handleInitialize(req, res, body);
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
        options.onerror(error);
        sendUnavailable(res, 'the session store (Redis) is not reachable; retry shortly');
      }
    },
    async close() {
      clearInterval(keepAlive);
      for (const stop of stops) stop();
      // The records stay: other replicas go on serving these sessions.
      await Promise.all([...locals.values()].map((local) => local.transport.close().catch(() => {})));
      locals.clear();
    },
  };
}
