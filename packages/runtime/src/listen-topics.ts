// Listen filter keys the SDK does not know (the tasks extension's `taskIds`), on stdio and HTTP:
// read before the SDK serves the request, acknowledged beside its own, fed on the same stream.

import { type JSONRPCMessage, PROTOCOL_VERSION_META_KEY, type Transport } from '@modelcontextprotocol/server';

import { type Id, isId, isObject, type ListenReader, MODERN_PROTOCOL_VERSIONS } from './era.js';

/** Sends one notification on a listen stream (the subscription id is stamped on it). */
export type ListenSend = (method: string, params: Record<string, unknown>) => void;

/** What a topic agreed to for one listen request: fields for the acknowledgement, and its feed. */
export interface ListenGrant {
  ack: Record<string, unknown>;
  subscribe(send: ListenSend): () => void;
}

/**
 * A `subscriptions/listen` filter key beside the SDK's (whose filter drops unknown keys), such as
 * the tasks extension's `taskIds`. Given the request's params and caller (principal, '' without
 * authentication): undefined when the request does not name it, else an error or a grant.
 */
export type ListenTopic = (
  params: Record<string, unknown>,
  principal: string,
) => Promise<ListenGrant | { error: { code: number; message: string; data?: unknown } } | undefined>;

const topics = new Set<ListenTopic>();

/** Adds a listen filter key (the tasks module does when loaded). */
export function addListenTopic(topic: ListenTopic): void {
  topics.add(topic);
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function isModernListen(message: unknown): message is { id: Id; params: Record<string, unknown> } {
  if (!isObject(message) || message.method !== 'subscriptions/listen') return false;
  if (!isId(message.id) || !isObject(message.params)) return false;
  const meta = message.params._meta;
  const claimed = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return MODERN_PROTOCOL_VERSIONS.includes(claimed as string);
}

/** The grants of the listen topics for `message`, or the error answering it; undefined if none applies. */
export async function listenGrants(
  message: unknown,
  principal: string,
): Promise<{ grants: ListenGrant[] } | { refusal: JSONRPCMessage } | undefined> {
  if (topics.size === 0 || !isModernListen(message)) return undefined;
  const grants: ListenGrant[] = [];
  for (const topic of topics) {
    const outcome = await topic(message.params, principal);
    if (!outcome) continue;
    if ('error' in outcome) return { refusal: { jsonrpc: '2.0', id: message.id, error: outcome.error } };
    grants.push(outcome);
  }
  return grants.length > 0 ? { grants } : undefined;
}

/** Adds the grants' fields to an acknowledgement's `notifications`. */
function acknowledged(params: Record<string, unknown>, grants: ListenGrant[]): Record<string, unknown> {
  const notifications = isObject(params.notifications) ? params.notifications : {};
  return {
    ...params,
    notifications: Object.assign({}, notifications, ...grants.map((g) => g.ack)),
  };
}

function stamped(id: Id, params: Record<string, unknown>): Record<string, unknown> {
  const meta = isObject(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: id } };
}

/**
 * The stdio side of listen topics: the SDK's acknowledgement gets the grants' fields, the grants'
 * notifications go out stamped with the subscription id, and a cancel or the stream's end stops them.
 */
function servingListenTopics(transport: Transport) {
  const expected = new Map<Id, ListenGrant[]>();
  const active = new Map<Id, Array<() => void>>();
  const stop = (id: Id) => {
    for (const unsubscribe of active.get(id) ?? []) unsubscribe();
    active.delete(id);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as Record<string, unknown>;
    const params = isObject(m.params) ? m.params : undefined;
    const meta = params && isObject(params._meta) ? params._meta : undefined;
    const id = meta?.[SUBSCRIPTION_ID];
    const grants = isId(id) ? expected.get(id) : undefined;
    if (m.method === 'notifications/subscriptions/acknowledged' && params && isId(id) && grants) {
      expected.delete(id);
      const out = send({ ...message, params: acknowledged(params, grants) } as JSONRPCMessage, options);
      const feed: ListenSend = (method, body) =>
        void send({ jsonrpc: '2.0', method, params: stamped(id, body) } as JSONRPCMessage).catch(() => stop(id));
      active.set(
        id,
        grants.map((g) => g.subscribe(feed)),
      );
      return out;
    }
    // The SDK ends a subscription with its result: the grants' feeds end with it.
    if (m.method === undefined && isId(m.id) && active.has(m.id)) stop(m.id);
    return send(message, options);
  };
  return {
    /** Whether an inbound message is a listen request to read first; stops cancelled subscriptions. */
    inbound(message: unknown): boolean {
      if (isObject(message) && message.method === 'notifications/cancelled') {
        const params = message.params;
        if (isObject(params) && isId(params.requestId)) stop(params.requestId);
      }
      return topics.size > 0 && isModernListen(message);
    },
    expect(id: Id, grants: ListenGrant[]): void {
      expected.set(id, grants);
    },
  };
}

/** The stdio side, for `refusingUnsubscribable(transport, subscribable, readingListenTopics(transport))`. */
export function readingListenTopics(transport: Transport): ListenReader {
  const topics = servingListenTopics(transport);
  return (message, reply) => {
    if (!topics.inbound(message)) return 'deliver';
    // Keys the SDK drops are read first; the SDK then serves the rest of the request.
    return listenGrants(message, '').then((outcome) => {
      if (outcome && 'refusal' in outcome) {
        reply(outcome.refusal);
        return 'answered';
      }
      if (outcome) topics.expect((message as { id: Id }).id, outcome.grants);
      return 'deliver';
    });
  };
}

/**
 * The HTTP side of listen topics, over the SDK's listen response: the acknowledgement gets the
 * grants' fields, the grants' notifications are written as SSE events, and the stream stays open
 * for them when the SDK honoured nothing itself (its stream would end at once), until the client
 * goes (`signal`).
 */
export function withListenGrants(response: Response, id: Id, grants: ListenGrant[], signal: AbortSignal): Response {
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const encoder = new TextEncoder();
  let unsubscribes: Array<() => void> = [];
  let closed = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const write = (message: unknown) => {
    if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const unsubscribe of unsubscribes) unsubscribe();
    signal.removeEventListener('abort', close);
    void reader.cancel().catch(() => {});
    try {
      controller.close();
    } catch {
      // already closed by the client
    }
  };
  const pump = async () => {
    let buffer = '';
    let sdkEmpty = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').find((line) => line.startsWith('data:'));
        const message: unknown = data ? JSON.parse(data.slice(5)) : undefined;
        if (isObject(message) && message.method === 'notifications/subscriptions/acknowledged') {
          const params = isObject(message.params) ? message.params : {};
          sdkEmpty = !isObject(params.notifications) || Object.keys(params.notifications).length === 0;
          write({ ...message, params: acknowledged(params, grants) });
          const feed: ListenSend = (method, body) => write({ jsonrpc: '2.0', method, params: stamped(id, body) });
          unsubscribes = grants.map((g) => g.subscribe(feed));
        } else if (isObject(message) && message.id === id && sdkEmpty) {
          // The SDK ends a stream it honours nothing on; the grants keep it open.
        } else if (!closed) {
          controller.enqueue(encoder.encode(`${frame}\n\n`));
        }
      }
    }
    if (!sdkEmpty) close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (signal.aborted) return close();
      signal.addEventListener('abort', close, { once: true });
      pump().catch(close);
    },
    cancel: close,
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The tasks extension's part in the transports: the listen keys the SDK does not read. */
export interface TaskTransport {
  readListen: typeof readingListenTopics;
  listenGrants: typeof listenGrants;
  withListenGrants: typeof withListenGrants;
}

/** What `ServerApp.tasks` holds for a server with tasks. */
export const taskTransport: TaskTransport = { readListen: readingListenTopics, listenGrants, withListenGrants };
