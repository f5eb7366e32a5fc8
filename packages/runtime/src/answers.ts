// Errors as each revision specifies them, where the SDK answers otherwise: a malformed request is
// the client's fault (-32602, naming the parameter), a result the protocol refuses is the server's
// (-32603, the handler named in the server's log).

import { type McpServer, ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';

import { logError } from './app.js';
import { logRequest, logs, type RequestRecord } from './request-log.js';
import { principalOf } from './request-state.js';
import { type Outcome, sessionClosed, telemetryOn, traced } from './telemetry.js';
import { LimitError } from './limits.js';
import { admitCall, optionsOf, wasTimedOut } from './tool-options.js';

type Handler = (request: { method: string; params?: Record<string, unknown> }, ctx: unknown) => unknown;

interface Issue {
  path: (string | number)[];
  message: string;
}

/**
 * The issues of the SDK's own request check: it throws a plain Error whose message is the JSON of
 * zod's issue list (which it answers -32603, with the whole dump).
 */
function requestIssues(error: unknown): Issue[] | undefined {
  if (!(error instanceof Error) || error instanceof ProtocolError || !error.message.startsWith('[')) return undefined;
  try {
    const issues: unknown = JSON.parse(error.message);
    if (!Array.isArray(issues) || issues.length === 0) return undefined;
    const ok = issues.every(
      (i) => typeof i === 'object' && i !== null && Array.isArray(i.path) && typeof i.message === 'string',
    );
    return ok ? (issues as Issue[]) : undefined;
  } catch {
    return undefined;
  }
}

/** `uri: expected string, received undefined`: the first issue, its path from inside `params`. */
function describe(issues: Issue[]): string {
  const [first] = issues;
  const path = first!.path[0] === 'params' ? first!.path.slice(1) : first!.path;
  const where = path.length ? `${path.join('.')}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${where}${first!.message.replace(/^Invalid input: /, '')}${more}`;
}

/** What entry a request names, for the server's log. */
function entryOf(request: { params?: Record<string, unknown> }): string {
  const params = request.params ?? {};
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return name === undefined ? '' : ` ${JSON.stringify(name)}`;
}

const RESULT_REFUSED = /^Invalid [\w/]+ result: /;

/** The request's line in the server's log (./request-log.ts), once it is answered. */
function logged(
  server: McpServer,
  request: { method: string; params?: Record<string, unknown> },
  ctx: unknown,
  started: number,
  outcome: RequestRecord['outcome'],
  error?: unknown,
): void {
  if (outcome === 'ok' || outcome === 'cancelled' ? !logs('info') : !logs('warn')) return;
  const code = error === undefined ? undefined : codeOf(error);
  // A refusal names the limit that refused it: `rate` or `concurrency`, and whose (`tool x`, `server`).
  const refused = error instanceof LimitError ? (error.data as { limit: string; scope: string }) : undefined;
  const sdk = ctx as Partial<ServerContext>;
  const params = request.params ?? {};
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const principal = sdk.http?.authInfo?.clientId;
  const record: RequestRecord = {
    method: request.method,
    ...(name !== undefined ? { name } : {}),
    ...(principal ? { principal } : {}),
    ...(sdk.sessionId ? { session: sdk.sessionId } : {}),
    ...(sdk.mcpReq?.id !== undefined ? { requestId: sdk.mcpReq.id } : {}),
    // Only a 2026-07-28 request carries the envelope.
    era: sdk.mcpReq?.envelope ? '2026-07-28' : 'legacy',
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    outcome,
    ...(code !== undefined ? { code } : {}),
    ...(refused ? { limit: refused.limit, scope: refused.scope } : {}),
  };
  if (request.method === 'tools/call' && name !== undefined && optionsOf(server, name)?.logArguments === true)
    record.arguments = params.arguments;
  logRequest(record);
}

/**
 * Wraps every handler `server` installs from now on in the translation of its errors, and logs
 * each request once it is answered.
 */
export function answerAsSpecified(server: McpServer): void {
  // The SDK's documented hook for wrapping a registered handler (Server wraps tools/call with it).
  const low = server.server as unknown as { _wrapHandler(method: string, handler: Handler): Handler };
  const wrap = low._wrapHandler.bind(low);
  low._wrapHandler = (method, handler) => {
    const wrapped = wrap(method, handler);
    const answer: Handler = async (request, ctx) => {
      const started = performance.now();
      let release: (() => void) | undefined;
      try {
        // The limits are checked out here, where a refusal is the request's JSON-RPC error: the
        // SDK turns whatever a tool callback throws into a tool result.
        if (method === 'tools/call') {
          const sdk = ctx as Partial<ServerContext>;
          release = await admitCall(server, request.params?.name, principalOf(sdk.http?.authInfo), sdk.mcpReq?.signal);
        }
        const result = await wrapped(request, ctx);
        const failed = (result as { isError?: unknown } | null)?.isError === true;
        logged(server, request, ctx, started, failed ? failure(ctx) : 'ok');
        return result;
      } catch (caught) {
        const error = translated(method, request, caught);
        logged(server, request, ctx, started, 'error', error);
        throw error;
      } finally {
        release?.();
      }
    };
    if (!telemetryOn) return answer;
    // The request's span is current while the handler runs, so what it does nests under it.
    return (request, ctx) => traced(server, request, ctx, () => answer(request, ctx) as Promise<unknown>, outcomeOf);
  };
  if (telemetryOn) {
    // The Server installs these in its constructor, before the hook above: traced all the same.
    const installed = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
    for (const method of ['initialize', 'ping']) {
      const handler = installed.get(method);
      if (handler)
        installed.set(method, (request, ctx) =>
          traced(server, request, ctx, async () => handler(request, ctx), outcomeOf),
        );
    }
    // Protocol's transport-close hook (subclasses override it the same way): a session's end.
    const closing = server.server as unknown as { _onclose(): void };
    const close = closing._onclose.bind(closing);
    closing._onclose = () => {
      sessionClosed(server);
      close();
    };
  }
}

/**
 * What an error result was: the tool's time limit running out, the request cancelled (by the
 * client, its connection closing or the server stopping: nobody reads the answer), or the tool's.
 */
function failure(ctx: unknown): RequestRecord['outcome'] {
  if (wasTimedOut(ctx)) return 'timeout';
  return (ctx as Partial<ServerContext>).mcpReq?.signal?.aborted ? 'cancelled' : 'tool_error';
}

const codeOf = (error: unknown): number =>
  error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;

/** How a request ended, for its span and metric: as its log line says it. */
function outcomeOf(ended: { value: unknown } | { error: unknown }): Outcome {
  if ('error' in ended) {
    const message = ended.error instanceof Error ? ended.error.message : String(ended.error);
    return { kind: 'error', code: codeOf(ended.error), message };
  }
  const failed = (ended.value as { isError?: unknown } | null)?.isError === true;
  return { kind: failed ? 'tool_error' : 'ok', result: ended.value };
}

/** The error a request's handler threw, as its revision specifies it. */
function translated(method: string, request: { params?: Record<string, unknown> }, error: unknown): unknown {
  const issues = requestIssues(error);
  if (issues)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${describe(issues)}`);
  if (
    error instanceof ProtocolError &&
    error.code === ProtocolErrorCode.InvalidParams &&
    RESULT_REFUSED.test(error.message)
  ) {
    logError(`${method}${entryOf(request)}: the handler's result breaks the protocol: ${error.message}`);
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Internal error: the server's answer to ${method} breaks the protocol`,
    );
  }
  return error;
}
