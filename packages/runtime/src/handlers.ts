// The types of handlers and of the context every handler gets.

import type {
  AuthInfo,
  BlobResourceContents,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  InputRequiredSpec,
  InputResponseView,
  LoggingLevel,
  PromptMessage,
  Resource,
  ServerContext,
  TextResourceContents,
} from '@modelcontextprotocol/server';

import type { HttpCall, HttpResponse } from './http-call.js';
import type { InputError } from './input.js';

export type Awaitable<T> = T | Promise<T>;

/** Change notifications, delivered to every client that asked for them (both eras, both transports). */
export interface Notify {
  /** The content of `uri` changed: 2025 subscribers (`resources/subscribe`) and 2026 listeners get `notifications/resources/updated`. */
  resourceUpdated(uri: string): void;
  /** The tool list changed (`notifications/tools/list_changed`). */
  toolsChanged(): void;
  /** The prompt list changed. */
  promptsChanged(): void;
  /** The resource list changed. */
  resourcesChanged(): void;
}

/** The task a handler runs as (tasks extension): `ctx.task`. */
export interface TaskContext {
  /** The task's id, as the client sees it. */
  readonly id: string;
  /** Sets the task's `statusMessage`, which `tasks/get` shows. */
  status(message: string): Promise<void>;
  /** What `ctx.progress()` does in a task: the status message says how far it is. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

/**
 * What every handler gets besides its input: one object, the same for every kind of handler.
 *
 * Asking the client (elicitation, sampling, roots) works the same on every protocol era:
 * `return ctx.ask({ inputRequests: { key: inputRequired.elicit({...}) } })` (`inputRequired` from
 * `@mcpgen/runtime`); the handler runs again with the answers, read with `ctx.inputResponse(key)` or
 * `ctx.accepted(key)`. Keep state across rounds in `requestState: await ctx.signState(payload)`
 * and read it back with `ctx.requestState()`.
 *
 * A request the client could not fulfil reads `{ kind: 'error', code, message }`, so the handler
 * can fall back: `-32601` is a client's "Roots not supported", `-32602` accepted elicitation
 * content that does not match the requested schema (it never reaches `accepted()`), `-32021` a
 * capability the client did not declare. 2025 connections report these (the runtime sends the
 * requests itself); on 2026-07-28 a retry that leaves out the answer to a request this server asked
 * reads as `-32601` too, and elicitation content that does not match the schema gets `-32602`
 * before the handler runs. Check `ctx.clientCapabilities` before asking.
 * For roots that change while connected, see `onRootsChanged`.
 */
export interface HandlerContext {
  /** Aborted when the client cancels or goes away; pass it on to fetch() and the like. */
  signal: AbortSignal;
  /** Reports progress; a no-op when the client did not ask for progress. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Logs to the client at or above the level it chose: `logging/setLevel` (2025) or the level sent
   * with the request (2026-07-28; none sent, nothing delivered). Needs `capabilities.logging`.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** The verified bearer token, when the server runs over HTTP with auth. */
  authInfo: AuthInfo | undefined;
  /** The 2025 session (HTTP) or undefined. */
  sessionId: string | undefined;
  /**
   * Closes the SSE stream of this request (2025 HTTP sessions, SEP-1699): the client reconnects
   * with Last-Event-ID and gets the rest of the response from the event store. Else a no-op.
   */
  closeStream(): void;
  /** What the client declared it can do (elicitation, sampling, roots…), on both eras. */
  readonly clientCapabilities: ClientCapabilities;
  /**
   * The task this call runs as (a tool with `execution.taskSupport`, for a client that supports
   * tasks), else undefined. In a task, `progress()` sets the task's status message and `ask()`
   * puts the task in `input_required` until the client answers with `tasks/update`.
   */
  readonly task: TaskContext | undefined;
  /**
   * Ends this round by asking the client (elicitation, sampling, roots): the request is answered
   * `input_required` (2026-07-28) or the runtime asks a 2025 client itself, then runs the handler again.
   * It works by throwing: a `catch` around it must rethrow what it does not handle.
   */
  ask(spec: InputRequiredSpec): never;
  /** The client's answer to the input request `key` of the previous round, or its failure. */
  inputResponse(key: string): InputResponseView | InputError;
  /**
   * The content of an accepted elicitation `key`, checked against the requested schema, or
   * undefined (missing, declined, cancelled, failed).
   */
  accepted<T extends Record<string, unknown> = Record<string, unknown>>(key: string): T | undefined;
  /** The verified `requestState` payload echoed by the client, or undefined in the first round. */
  requestState<T = unknown>(): T | undefined;
  /** Signs a payload for `inputRequired({ requestState })` (key: MCP_REQUEST_STATE_KEY). */
  signState(payload: unknown): Promise<string>;
  /** Resource updates and list changes. */
  notify: Notify;
  /**
   * Calls an API of the manifest (`apis`): with no argument, the tool's declared `http:` call with
   * the arguments it was called with; `{ input }` with other arguments; `{ path, method, … }` a
   * call the declaration cannot express. Resolves with the answer whatever its status (`ok`),
   * rejects when none came (network, time limit, cancellation). Aborts with `signal`.
   */
  http<T = unknown>(call?: HttpCall): Promise<HttpResponse<T>>;
  /** Escape hatch: the SDK's own request context. */
  sdk: ServerContext;
}

/** Input of a tool that declares no `input`. */
export type NoInput = Record<string, never>;

/** What a tool without `output` returns: text (one text block) or content blocks. */
export type ToolContent = string | ContentBlock[];

declare const toolResultBrand: unique symbol;

/** What a complete tools/call result holds: `toolResult({...})` makes one. */
export type ToolResultFields<O> = {
  _meta?: CallToolResult['_meta'];
  content: CallToolResult['content'];
  isError?: CallToolResult['isError'];
  structuredContent?: O extends ToolContent ? CallToolResult['structuredContent'] : O;
};

/** A complete tools/call result, made with `toolResult()`: sent as it is. */
export type ToolResult<O> = ToolResultFields<O> & { readonly [toolResultBrand]: true };

/**
 * A tool. `O` is the declared output type, sent as structured content and as JSON text; for a tool
 * without `output` it is {@link ToolContent}. Return `toolResult({...})` for full control.
 * A thrown error becomes a result with `isError: true` and the error's message.
 */
export type ToolHandler<I, O> = (input: I, ctx: HandlerContext) => Awaitable<O | ToolResult<O>>;

/** Text goes out with the declared mimeType, bytes as a base64 blob; or give the contents. */
export type ResourceBody = string | Uint8Array | (TextResourceContents | BlobResourceContents)[];

/** Reads a dynamic resource. */
export type ResourceHandler = (uri: URL, ctx: HandlerContext) => Awaitable<ResourceBody>;

/** Reads one resource of a template; `params` are the URI's variables, already validated. */
export type TemplateReader<P> = (params: P, uri: URL, ctx: HandlerContext) => Awaitable<ResourceBody>;

/** Lists concrete resources of a template for resources/list. */
export type TemplateLister = (ctx: HandlerContext) => Awaitable<Resource[]>;

/** Completes an argument from its partial `value`; `context.arguments` has those already filled. */
export type Completer<A> = (
  value: string,
  context: { arguments: Partial<Record<keyof A, string>> },
) => Awaitable<string[]>;

/** Renders a prompt: a string becomes one user text message. */
export type PromptGetter<A> = (args: A, ctx: HandlerContext) => Awaitable<string | PromptMessage[]>;
