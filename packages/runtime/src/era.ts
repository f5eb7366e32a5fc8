// What each protocol revision says that the SDK answers otherwise, put right through the SDK's
// public Transport interface and its handlers' decorators (mcpgen's docs/protocol.md lists them).

import {
  type JSONRPCMessage,
  type McpServer,
  PROTOCOL_VERSION_META_KEY,
  type ProtocolEra,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type StandardSchemaV1,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';

import { decorate, installAs } from './sdk-handlers.js';

/** The per-request revisions (2026-07-28); the SDK exports no constant for them. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Every version the server speaks: per request (2026-07-28), then through initialize (2025). */
export const PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

/**
 * Makes an instance answer as its era's revision says, once it is connected (stdio, 2025 HTTP
 * sessions, the 2024-11-05 SSE transport and 2026-07-28 HTTP all connect the instance they get).
 */
export function speakEra(server: McpServer, era: ProtocolEra): void {
  if (era === 'legacy') {
    strictLogLevels(server);
    invalidArgumentsAsError(server);
  }
  // The serving entry installs server/discover on a 2026-07-28 instance when it takes it.
  else listEveryVersion(server);
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    if (era === 'legacy') rewriteOutbound(transport, resourceNotFound2025);
    await connect(transport);
    if (era === 'modern') {
      refuseUnknownVersions(transport);
      uncachedAfterInput(transport);
    }
  };
}

/**
 * Rewrites `-32022` errors of `transport` to list every supported version (the SDK lists the
 * 2026-07-28 ones only). For the stdio entry, whose opening replies go straight to its wire:
 * `serveStdio(factory, { transport: withEveryVersion(new StdioServerTransport()) })`.
 */
export function withEveryVersion<T extends Transport>(transport: T): T {
  rewriteOutbound(transport, everyVersion);
  return transport;
}

/** The same for a web Response of the 2026-07-28 HTTP handler: a 400 with `-32022` lists them all. */
export async function withEveryVersionResponse(response: Response): Promise<Response> {
  if (response.status !== 400) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const rewritten = isObject(body) ? everyVersion(body as JSONRPCMessage) : undefined;
  if (rewritten === undefined || rewritten === body) return response;
  return new Response(JSON.stringify(rewritten), {
    status: response.status,
    headers: response.headers,
  });
}

type Rewrite = (message: JSONRPCMessage) => JSONRPCMessage;

function rewriteOutbound(transport: Transport, rewrite: Rewrite): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(rewrite(message), options);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The error of a JSON-RPC error response, else undefined. */
function errorOf(message: JSONRPCMessage): { code: number; data?: unknown } | undefined {
  const error = (message as { error?: unknown }).error;
  return isObject(error) && typeof error.code === 'number' ? (error as { code: number; data?: unknown }) : undefined;
}

/**
 * 2024-11-05 to 2025-11-25 (server/resources, "Error Handling"): a missing resource is `-32002`
 * with `data.uri`. The SDK sends `-32602` on every revision (2026-07-28's code); its
 * ResourceNotFoundError is recognised as it documents it: a `-32602` whose data is exactly `{ uri }`.
 */
const resourceNotFound2025: Rewrite = (message) => {
  const error = errorOf(message);
  if (error?.code !== ProtocolErrorCode.InvalidParams || !isObject(error.data)) return message;
  const keys = Object.keys(error.data);
  if (keys.length !== 1 || typeof error.data.uri !== 'string') return message;
  return {
    ...message,
    error: { ...error, code: ProtocolErrorCode.ResourceNotFound },
  } as JSONRPCMessage;
};

/** 2026-07-28 (basic/versioning): an UnsupportedProtocolVersionError lists every version served. */
const everyVersion: Rewrite = (message) => {
  const error = errorOf(message);
  if (error?.code !== ProtocolErrorCode.UnsupportedProtocolVersion || !isObject(error.data)) return message;
  return {
    ...message,
    error: { ...error, data: { ...error.data, supported: [...PROTOCOL_VERSIONS] } },
  } as JSONRPCMessage;
};

/** server/discover lists the versions an UnsupportedProtocolVersionError names: all of them. */
function listEveryVersion(server: McpServer): void {
  decorate(server, 'server/discover', (discover) => async (request, ctx) => ({
    ...((await discover(request, ctx)) as Record<string, unknown>),
    supportedVersions: [...PROTOCOL_VERSIONS],
  }));
}

/**
 * A request of a 2026-07-28 connection naming a version the server does not serve is refused with
 * `-32022`. (The stdio entry checks the first request only, then hands every later one over.)
 */
function refuseUnknownVersions(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    const meta = isObject(request.params) ? request.params._meta : undefined;
    const claimed = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    const isRequest = typeof request.method === 'string' && request.id !== undefined;
    if (!isRequest || claimed === undefined || MODERN_PROTOCOL_VERSIONS.includes(claimed as string))
      return deliver(message, extra);
    const error = new UnsupportedProtocolVersionError({
      supported: [...PROTOCOL_VERSIONS],
      requested: String(claimed),
    });
    void transport
      .send({
        jsonrpc: '2.0',
        id: request.id as string | number,
        error: { code: error.code, message: error.message, data: error.data },
      })
      .catch((sendError: Error) => transport.onerror?.(sendError));
  };
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

type LogLevel = (typeof LOG_LEVELS)[number];

/** A level logging/setLevel accepts. */
export const isLogLevel = (level: unknown): level is LogLevel => (LOG_LEVELS as readonly unknown[]).includes(level);

/** logging/setLevel params: an unknown level is `-32602` with this message, not `-32603`. */
const setLevelParams: StandardSchemaV1<{ level: LogLevel }> = {
  '~standard': {
    version: 1,
    vendor: 'mcpgen',
    validate: (value) => {
      const level = isObject(value) ? value.level : undefined;
      return isLogLevel(level)
        ? { value: value as { level: LogLevel } }
        : {
            issues: [
              {
                message: `must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(level) ?? 'nothing'}`,
                path: ['level'],
              },
            ],
          };
    },
  },
};

/**
 * The SDK validates a spec method's params before its handler and answers a bad one `-32603` with
 * the validator's issue dump; logging/setLevel's level is checked here first (`-32602`).
 */
function strictLogLevels(server: McpServer): void {
  installAs(server, 'logging/setLevel', (setLevel, install) =>
    install('logging/setLevel', { params: setLevelParams }, (params: { level: string }, ctx: ServerContext) =>
      setLevel({ method: 'logging/setLevel', params }, ctx),
    ),
  );
}

/** The revision from which invalid tool arguments are a tool result (`isError`), not -32602. */
const ARGUMENTS_AS_RESULT_SINCE = '2025-11-25';

/**
 * Up to 2025-06-18 (server/tools, "Error Handling") invalid tool arguments are a protocol error,
 * -32602; 2025-11-25 made them a tool result the model can read (SEP-1303), which is what the SDK
 * answers on every revision. The SDK's result says `Input validation error: …`.
 */
function invalidArgumentsAsError(server: McpServer): void {
  decorate(server, 'tools/call', (next) => async (request, ctx) => {
    const result = (await next(request, ctx)) as { isError?: boolean; content?: { type?: string; text?: string }[] };
    const version = server.server.getNegotiatedProtocolVersion();
    const text = result?.isError === true && result.content?.length === 1 ? result.content[0]?.text : undefined;
    if (version !== undefined && version < ARGUMENTS_AS_RESULT_SINCE && text?.startsWith('Input validation error: '))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, text.slice('Input validation error: '.length));
    return result;
  });
}

export type Id = string | number;
export const isId = (id: unknown): id is Id => typeof id === 'string' || typeof id === 'number';

/**
 * 2026-07-28 (server/resources, caching): a result answered after an `input_required` round (the
 * retry carries `inputResponses` or `requestState`) must not be cached. The SDK fills every
 * cacheable result from the configured hints; such a result goes out with `ttlMs: 0` (do not
 * reuse) and `cacheScope: 'private'`, as the fields are required on that revision.
 */
function uncachedAfterInput(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  const retries = new Set<Id>();
  transport.onmessage = (message, extra) => {
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    const params = isObject(request.params) ? request.params : undefined;
    if (
      typeof request.method === 'string' &&
      isId(request.id) &&
      (params?.inputResponses !== undefined || params?.requestState !== undefined)
    )
      retries.add(request.id);
    return deliver(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const { id, result } = message as { id?: unknown; result?: unknown };
    if (!isId(id) || !retries.delete(id) || !isObject(result) || !('ttlMs' in result)) return send(message, options);
    return send({ ...message, result: { ...result, ttlMs: 0, cacheScope: 'private' } } as JSONRPCMessage, options);
  };
}

/**
 * subscriptions/listen (2026-07-28) names resources as `resources/subscribe` (2025) does, and is
 * answered the same: a URI that is not subscribable is `-32602` naming it. The SDK acknowledges
 * any URI once the server declares `resources.subscribe`. Undefined when the request is fine (or
 * not a listen request); servers without subscribable resources are left to the SDK, whose
 * acknowledgement then leaves resource subscriptions out.
 */
export function listenRefusal(message: unknown, subscribable: ReadonlySet<string>): JSONRPCMessage | undefined {
  if (subscribable.size === 0 || !isObject(message) || message.method !== 'subscriptions/listen') return undefined;
  if (!isId(message.id) || !isObject(message.params)) return undefined;
  const meta = message.params._meta;
  const claimed = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  if (!MODERN_PROTOCOL_VERSIONS.includes(claimed as string)) return undefined;
  const filter = message.params.notifications;
  const uris = isObject(filter) ? filter.resourceSubscriptions : undefined;
  if (!Array.isArray(uris)) return undefined;
  const refused = uris.filter((uri): uri is string => typeof uri === 'string' && !subscribable.has(uri));
  if (refused.length === 0) return undefined;
  const list = refused.join(', ');
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ProtocolErrorCode.InvalidParams,
      message: `Resource${refused.length > 1 ? 's' : ''} ${list} ${refused.length > 1 ? 'do' : 'does'} not support subscriptions`,
    },
  };
}

/**
 * What reads a stdio listen request before the SDK's entry serves it (the tasks extension's listen
 * keys): `'deliver'` hands it on now, else a promise that settles once it may go on, or once
 * `reply` has answered it.
 */
export type ListenReader = (
  message: JSONRPCMessage,
  reply: (answer: JSONRPCMessage) => void,
) => 'deliver' | Promise<'deliver' | 'answered'>;

/**
 * The stdio entry's listen requests, checked as {@link listenRefusal} says before the SDK's entry
 * serves them: `serveStdio(factory, { transport: refusingUnsubscribable(transport, subscribable) })`.
 */
export function refusingUnsubscribable<T extends Transport>(
  transport: T,
  subscribable: ReadonlySet<string>,
  read?: ListenReader,
): T {
  let deliver: Transport['onmessage'];
  const reply = (message: JSONRPCMessage) =>
    void transport.send(message).catch((error: Error) => transport.onerror?.(error));
  const guarded: NonNullable<Transport['onmessage']> = (message, extra) => {
    const refusal = listenRefusal(message, subscribable);
    if (refusal) return reply(refusal);
    const reading = read?.(message, reply) ?? 'deliver';
    if (reading === 'deliver') return deliver?.(message, extra);
    void reading.then((outcome) => outcome === 'deliver' && deliver?.(message, extra));
  };
  // The entry sets `onmessage` when it starts: what it sets is called behind the check.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (deliver ? guarded : undefined),
    set: (handler: Transport['onmessage']) => {
      deliver = handler;
    },
  });
  return transport;
}
