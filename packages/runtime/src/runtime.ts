import { Buffer } from 'node:buffer';

import {
  acceptedContent,
  type AudioContent,
  type AuthInfo,
  type ClientCapabilities,
  type EmbeddedResource,
  type Icon,
  type ImageContent,
  type Implementation,
  inputRequired,
  type InputRequiredResult,
  type InputRequiredSpec,
  inputResponse,
  isInputRequiredResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ResourceLink,
  type ServerContext,
  type ServerNotifier,
  type StandardSchemaWithJSON,
  type TextContent,
} from '@modelcontextprotocol/server';

import type { HandlerContext, Notify, TaskContext, ToolContent, ToolResult, ToolResultFields } from './handlers.js';
import { httpFor } from './http-call.js';
import { followUp, type InputErrors, ownState, unanswered } from './input.js';
import { logHandlerError } from './request-log.js';
import { requestStateCodec } from './request-state.js';

/** Thrown by handler stubs; the client sees `not implemented: edit <file>`. */
export class NotImplementedError extends Error {
  override name = 'NotImplementedError';

  constructor(file: string) {
    super(`not implemented: edit ${file}`);
  }
}

// Remembers what toolResult() made, so that a tool's output object is never mistaken for a result.
const toolResults = new WeakSet<object>();

/** Sends `result` as it is (content, structuredContent, isError, _meta) instead of deriving it. */
export function toolResult<O = ToolContent>(result: ToolResultFields<O>): ToolResult<O> {
  toolResults.add(result);
  return result as ToolResult<O>;
}

/** Whether `value` was made by toolResult() (tools.ts: a tool with `output` may return either). */
export function isToolResult(value: unknown): value is ToolResult<unknown> {
  return typeof value === 'object' && value !== null && toolResults.has(value);
}

export { inputRequired, isInputRequiredResult };

/**
 * For a resource handler: `throw notFound(uri)` when nothing is behind the URI. The client gets
 * "resource not found" with its revision's code: -32002 on 2025 sessions, -32602 on 2026-07-28.
 */
export function notFound(uri: URL | string, message?: string): ResourceNotFoundError {
  return new ResourceNotFoundError(typeof uri === 'string' ? uri : uri.href, message);
}

/** Thrown by `ctx.ask()`, caught around the handler: the request's answer is `input_required`. */
class InputRequiredSignal {
  constructor(readonly result: InputRequiredResult) {}
}

/**
 * Runs a handler; `ctx.ask()` turns into its input_required result. In unit tests:
 * `const result = await run(() => handler(input, testContext()))`, then `isInputRequiredResult(result)`.
 */
export async function run<T>(call: () => T | Promise<T>): Promise<T | InputRequiredResult> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InputRequiredSignal) return error.result;
    throw error;
  }
}

// ---- Change notifications --------------------------------------------------------------------

/** Where notifications go: the HTTP handler's listen bus, 2025 sessions, the stdio connection. */
export type NotificationSink = Partial<ServerNotifier>;
const sinks = new Set<NotificationSink>();

/** Adds a sink (the entry points do); returns its removal. */
export function addNotificationSink(sink: NotificationSink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** Publishes change notifications to every connected client that asked for them. */
export const notify: Notify = {
  resourceUpdated: (uri) => sinks.forEach((s) => s.resourceUpdated?.(uri)),
  toolsChanged: () => sinks.forEach((s) => s.toolsChanged?.()),
  promptsChanged: () => sinks.forEach((s) => s.promptsChanged?.()),
  resourcesChanged: () => sinks.forEach((s) => s.resourcesChanged?.()),
};

// 2025-era subscriptions, per connection (an McpServer instance serves one session).
const subscriptions = new WeakMap<McpServer, Set<string>>();

/** A sink sending to one sessionful connection (stdio, or a 2025 HTTP session). */
export function connectionSink(server: McpServer, era: 'legacy' | 'modern'): NotificationSink {
  const send = (promise: Promise<void>) => void promise.catch(() => {});
  return {
    resourceUpdated: (uri) => {
      // 2025: only to subscribers. A 2026 stdio connection routes it onto its listen streams.
      if (era === 'modern' || subscriptions.get(server)?.has(uri)) {
        send(server.server.sendResourceUpdated({ uri }));
      }
    },
    toolsChanged: () => server.isConnected() && server.sendToolListChanged(),
    promptsChanged: () => server.isConnected() && server.sendPromptListChanged(),
    resourcesChanged: () => server.isConnected() && server.sendResourceListChanged(),
  };
}

/** The URIs a 2025-era connection subscribed to. */
function subscribedUris(server: McpServer): Set<string> {
  let set = subscriptions.get(server);
  if (!set) subscriptions.set(server, (set = new Set()));
  return set;
}

/**
 * Installs resources/subscribe and resources/unsubscribe (2025 era only: 2026-07-28 clients use
 * subscriptions/listen, which the entry points serve). Only `subscribable` URIs are accepted.
 */
export function installSubscriptions(server: McpServer, subscribable: ReadonlySet<string>): void {
  const uris = subscribedUris(server);
  const check = (uri: string) => {
    if (!subscribable.has(uri)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri} does not support subscriptions`);
    }
  };
  server.server.setRequestHandler('resources/subscribe', (request) => {
    check(request.params.uri);
    uris.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    uris.delete(request.params.uri);
    return {};
  });
}

// ---- The registry ----------------------------------------------------------------------------

/** A handler module: a promise while it loads, then the module itself. */
export type Loader<T> = () => T | Promise<T>;

/**
 * Loads a handler module on first use, then keeps it: a server with a thousand tools starts
 * without reading a thousand files, and a request loads only what it calls. Once loaded, the
 * module is returned as it is (not in a promise), so calls need no extra await.
 */
export function lazy<T>(load: () => Promise<T>): Loader<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return () => module ?? (loading ??= load().then((loaded) => (module = loaded)));
}

/** Registers one tool, prompt, or the resources, on one instance. */
export type Register = (server: McpServer) => void;

/** What a request can reach: `true` every entry of a kind, a name only that entry, `false` none. */
interface Reach {
  tools: boolean | string;
  resources: boolean;
  prompts: boolean | string;
}

const EVERYTHING: Reach = { tools: true, resources: true, prompts: true };
const NOTHING: Reach = { tools: false, resources: false, prompts: false };

/**
 * What one 2026-07-28 HTTP request can reach, from its `Mcp-Method` and `Mcp-Name` headers.
 * Registering costs far more than answering, and over HTTP an instance serves one request: the
 * SDK checks both headers against the body before it runs the factory (a mismatch is rejected),
 * so the instance needs only what they name. Without them (stdio, 2025 sessions), or with a
 * Base64-encoded name, it gets everything.
 */
export function reachable(request: Request | undefined): Reach {
  const method = request?.headers.get('mcp-method');
  if (!request || !method) return EVERYTHING;
  const header = request.headers.get('mcp-name');
  const name = header === null || header.startsWith('=?base64?') ? true : header;
  if (method.startsWith('notifications/')) return NOTHING;
  switch (method) {
    case 'tools/call':
      return { ...NOTHING, tools: name };
    case 'tools/list':
      return { ...NOTHING, tools: true };
    case 'prompts/get':
      return { ...NOTHING, prompts: name };
    case 'prompts/list':
      return { ...NOTHING, prompts: true };
    case 'resources/read':
    case 'resources/list':
    case 'resources/templates/list':
      return { ...NOTHING, resources: true };
    case 'completion/complete':
      return { ...NOTHING, resources: true, prompts: true };
    case 'server/discover':
    case 'subscriptions/listen':
    case 'ping':
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return NOTHING;
    default:
      return EVERYTHING;
  }
}

const SDK_REGISTRIES = [
  '_registeredTools',
  '_registeredPrompts',
  '_registeredResources',
  '_registeredResourceTemplates',
];

/**
 * Gives the SDK's registries of `server` no prototype. McpServer keeps tools, prompts and templates
 * by name in plain objects, where a tool named `constructor` reads as registered already (so the
 * server throws on start) and one named `__proto__` is never listed. server.ts calls this only
 * when the manifest has such a name.
 */
export function ownRegistries(server: McpServer): void {
  const registries = server as unknown as Record<string, unknown>;
  for (const key of SDK_REGISTRIES) {
    const registry = registries[key];
    // Only an empty one is replaced: an SDK that keeps them otherwise is left as it is.
    if (typeof registry === 'object' && registry !== null && Object.keys(registry).length === 0) {
      registries[key] = Object.create(null);
    }
  }
}

/** Registers the entries `reach` names on `server`. */
export function register(
  server: McpServer,
  entries: Readonly<Record<string, Register>>,
  reach: boolean | string,
): void {
  if (reach === true) for (const entry of Object.values(entries)) entry(server);
  else if (typeof reach === 'string' && Object.hasOwn(entries, reach)) entries[reach]!(server);
}

// ---- The handler context ---------------------------------------------------------------------

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** Where tasks.ts puts the task a handler runs as, on the SDK context it builds for the round. */
export const TASK_CONTEXT = Symbol.for('mcpgen.task');

/**
 * The context handlers get, made for every request from the SDK's. It stores the SDK's context
 * and the instance and reads everything else when it is used: a call pays for what its handler
 * touches, not for fifteen closures. The helpers are getters that return functions, so
 * destructuring (`async (input, { log }) => …`) works as on a plain object.
 */
class RequestContext implements HandlerContext {
  constructor(
    readonly sdk: ServerContext,
    private readonly server: McpServer | undefined,
    // Input requests of the previous round that failed (2025 connections, fulfilled here).
    private readonly errors: InputErrors = {},
    // Aborts with the request, or sooner: a tool's `timeoutMs`.
    private readonly limit?: AbortSignal,
    // The tool and its arguments, for `ctx.http()`'s declared call.
    private readonly entry?: string,
    private readonly args?: unknown,
  ) {}

  get http(): HandlerContext['http'] {
    return httpFor(this.server, this.entry, this.args, this.signal);
  }

  get signal(): AbortSignal {
    return this.limit ?? this.sdk.mcpReq.signal;
  }

  get authInfo(): AuthInfo | undefined {
    return this.sdk.http?.authInfo;
  }

  get sessionId(): string | undefined {
    return this.sdk.sessionId;
  }

  get notify(): Notify {
    return notify;
  }

  get clientCapabilities(): ClientCapabilities {
    const modern = this.sdk.mcpReq.envelope?.[CLIENT_CAPABILITIES as never] as ClientCapabilities | undefined;
    return modern ?? this.server?.server.getClientCapabilities() ?? {};
  }

  get task(): TaskContext | undefined {
    return (this.sdk as unknown as Record<symbol, TaskContext | undefined>)[TASK_CONTEXT];
  }

  get progress(): HandlerContext['progress'] {
    const task = this.task;
    if (task) return (progress, total, message) => task.progress(progress, total, message);
    const mcpReq = this.sdk.mcpReq;
    return async (progress, total, message) => {
      const progressToken = mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      });
    };
  }

  get log(): HandlerContext['log'] {
    const mcpReq = this.sdk.mcpReq;
    return (level, data, logger) => mcpReq.log(level, data, logger);
  }

  get closeStream(): HandlerContext['closeStream'] {
    const http = this.sdk.http;
    return () => http?.closeSSE?.();
  }

  get ask(): HandlerContext['ask'] {
    return ask;
  }

  get inputResponse(): HandlerContext['inputResponse'] {
    const sdk = this.sdk;
    const errors = this.errors;
    return (key) =>
      Object.hasOwn(errors, key)
        ? errors[key]!
        : (unanswered(sdk, key) ?? inputResponse(sdk.mcpReq.inputResponses, key));
  }

  get accepted(): HandlerContext['accepted'] {
    const responses = this.sdk.mcpReq.inputResponses;
    return <T extends Record<string, unknown>>(key: string) => acceptedContent<T>(responses, key);
  }

  get requestState(): HandlerContext['requestState'] {
    const mcpReq = this.sdk.mcpReq;
    return <T>() => ownState(mcpReq.requestState()) as T | undefined;
  }

  get signState(): HandlerContext['signState'] {
    const sdk = this.sdk;
    return (payload) => requestStateCodec().mint(payload, sdk);
  }
}

function ask(spec: InputRequiredSpec): never {
  throw new InputRequiredSignal(inputRequired(spec));
}

/** Builds the context handlers get from the SDK's; `server` is the instance serving the request. */
export function handlerContext(sdk: ServerContext, server?: McpServer): HandlerContext {
  return new RequestContext(sdk, server);
}

/** A context for calling a handler directly in a unit test: progress, log and notify do nothing. */
export function testContext(overrides: Partial<HandlerContext> = {}): HandlerContext {
  return {
    signal: new AbortController().signal,
    progress: async () => {},
    log: async () => {},
    authInfo: undefined,
    sessionId: undefined,
    closeStream: () => {},
    clientCapabilities: { elicitation: {}, sampling: {}, roots: {} },
    task: undefined,
    ask,
    inputResponse: () => ({ kind: 'missing' }),
    accepted: () => undefined,
    requestState: () => undefined,
    signState: async (payload) => JSON.stringify(payload),
    notify: { resourceUpdated() {}, toolsChanged() {}, promptsChanged() {}, resourcesChanged() {} },
    http: () => Promise.reject(new Error('ctx.http() is not available in unit tests: pass `http` in the overrides')),
    get sdk(): ServerContext {
      throw new Error('ctx.sdk is not available in unit tests: test through a client (see test/generated)');
    },
    ...overrides,
  };
}

// ---- Content blocks ------------------------------------------------------------------------

/** Content blocks for tool results and prompt messages. */
export const content = {
  text: (text: string): TextContent => ({ type: 'text', text }),
  /** `data` is base64, or bytes (encoded here). */
  image: (data: string | Uint8Array, mimeType: string): ImageContent => ({
    type: 'image',
    data: base64(data),
    mimeType,
  }),
  audio: (data: string | Uint8Array, mimeType: string): AudioContent => ({
    type: 'audio',
    data: base64(data),
    mimeType,
  }),
  /** A link to a resource the client may read. */
  resourceLink: (uri: string, name: string, extra: Omit<ResourceLink, 'type' | 'uri' | 'name'> = {}): ResourceLink => ({
    type: 'resource_link',
    uri,
    name,
    ...extra,
  }),
  /** An embedded text resource. */
  resource: (uri: string, text: string, mimeType?: string): EmbeddedResource => ({
    type: 'resource',
    resource: { uri, text, ...(mimeType ? { mimeType } : {}) },
  }),
  /** An embedded binary resource; `data` is base64 or bytes. */
  blob: (uri: string, data: string | Uint8Array, mimeType?: string): EmbeddedResource => ({
    type: 'resource',
    resource: { uri, blob: base64(data), ...(mimeType ? { mimeType } : {}) },
  }),
};

/**
 * Annotations written inside an embedded resource (as the 2025-06-18 examples write them) belong
 * to the content block, where the protocol defines them: the SDK's result check drops them inside
 * `resource`. Moved up, merged with the block's own (which win).
 */
export function liftEmbeddedAnnotations<T>(block: T): T {
  const b = block as { type?: unknown; resource?: unknown; annotations?: unknown };
  if (b.type !== 'resource' || typeof b.resource !== 'object' || b.resource === null) return block;
  if (!Object.hasOwn(b.resource, 'annotations')) return block;
  const { annotations, ...resource } = b.resource as Record<string, unknown>;
  const own = typeof b.annotations === 'object' && b.annotations !== null ? b.annotations : {};
  return { ...block, resource, annotations: { ...(annotations as object), ...own } };
}

function base64(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

// ---- Calling handlers ------------------------------------------------------------------------

/** What a call answers: a value when the handler answered synchronously, else a promise of one. */
export type Answer<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * What `ctx.ask()` threw becomes its input_required result; anything else goes on, and is logged
 * with its stack unless it is a deliberate answer (a protocol error such as notFound(), a stub's
 * NotImplementedError) or the request's own cancellation or time limit.
 */
function askedOrThrow(error: unknown, at?: Call, ctx?: HandlerContext): InputRequiredResult {
  if (error instanceof InputRequiredSignal) return error.result;
  const deliberate =
    error instanceof ProtocolError ||
    error instanceof NotImplementedError ||
    (ctx?.signal.aborted === true && isAbort(error, ctx.signal.reason));
  if (at && !deliberate)
    logHandlerError(error, { method: at.sdk.mcpReq.method, ...(at.entry ? { name: at.entry } : {}) });
  throw error;
}

/**
 * Whether `error` is the handler giving up because its signal aborted: the signal's reason itself,
 * or the AbortError an API that took the signal rejects with (`timers/promises`, fetch, streams).
 */
function isAbort(error: unknown, reason: unknown): boolean {
  if (error === reason) return true;
  return error instanceof Error && (error.name === 'AbortError' || error.cause === reason);
}

/** The request a handler answers: the SDK's context and the instance serving it. */
interface Call {
  sdk: ServerContext;
  server: McpServer | undefined;
  /** What the handler's `ctx.signal` is, when not the request's own (a time limit). */
  signal?: AbortSignal;
  /** The tool, prompt or resource, for the server's log. */
  entry?: string;
  /** The tool's arguments (`ctx.http()` makes its declared call with them). */
  args?: unknown;
}

/**
 * Calls a handler of a module and shapes its value. Once the module is loaded, a handler that
 * answers synchronously is answered without a promise or a microtask turn of ours, as a
 * hand-written SDK callback would be; this runs on every call. An input_required answer goes on
 * to ./input.ts: fulfilled here on 2025 connections, sent to the client on 2026-07-28 (outside
 * a task: a task's input requests are answered through tasks/update).
 */
export function invoke<M, T, R>(
  load: Loader<M>,
  at: Call,
  call: (module: M, ctx: HandlerContext) => T | PromiseLike<T>,
  shape: (value: T) => R,
): Answer<R> {
  const module = load();
  if (module instanceof Promise) return module.then((loaded) => invoke(() => loaded, at, call, shape));
  const settle = (result: T) => (isInputRequiredResult(result) ? result : shape(result));
  const attempt = (ctx: HandlerContext): Answer<R> => {
    let value: T | PromiseLike<T>;
    try {
      value = call(module as M, ctx);
    } catch (error) {
      return askedOrThrow(error, at, ctx);
    }
    return isPromiseLike(value)
      ? Promise.resolve(value).then(settle, (error: unknown) => askedOrThrow(error, at, ctx))
      : settle(value);
  };
  const rerun = (sdk: ServerContext, errors: InputErrors) =>
    attempt(new RequestContext(sdk, at.server, errors, at.signal, at.entry, at.args));
  const answer = attempt(new RequestContext(at.sdk, at.server, {}, at.signal, at.entry, at.args));
  // A task's rounds are the task's: its input requests wait in tasks/get for tasks/update.
  const next = (value: R | InputRequiredResult) =>
    isInputRequiredResult(value) && !(TASK_CONTEXT in at.sdk)
      ? (followUp(value, at.sdk, at.server, rerun) as Promise<R | InputRequiredResult>)
      : value;
  return isPromiseLike(answer) ? Promise.resolve(answer).then(next) : next(answer);
}

/** MCP leaves annotations and icons open: keys a manifest adds there are sent as written. */
export type Open<T> = T & { [key: string]: unknown };
export type OpenIcons = { icons?: Open<Icon>[] };

/** What initialize (and server/discover) shows of the server. */
export type ServerInfo = Omit<Implementation, 'icons'> & OpenIcons;

/**
 * A record keyed by manifest names, where some names are ones every object inherits (`valueOf`,
 * `constructor`…): listed as keys of its own, each entry is typed `T` rather than as the inherited
 * method, so its literals keep their types (`audience: ['user']`, not `string[]`).
 */
export type Named<T, K extends string = never> = { [name: string]: T } & { [P in K]?: T };

/**
 * Validates a copy of the value whose objects have no prototype, for a schema naming a property
 * like one a plain object inherits (`constructor`, `toString`…): the validator reads
 * `value.constructor`, so a call leaving it out would be checked as if it sent `Object`. The
 * handler gets the copy too, where a left-out `constructor` is undefined, as its type says.
 */
export function ownProperties<S extends StandardSchemaWithJSON<unknown>>(schema: S): S {
  const standard = schema['~standard'];
  return {
    ...schema,
    '~standard': { ...standard, validate: (value: unknown) => standard.validate(ownCopy(value)) },
  };
}

function ownCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(ownCopy);
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, entry] of Object.entries(value)) copy[key] = ownCopy(entry);
  return copy;
}
