// Tools: registering them, and turning what their handlers return into tools/call results.

import type {
  CallToolResult,
  McpServer,
  RegisteredTool,
  ScopeChallengeHandler,
  ServerContext,
  StandardSchemaWithJSON,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/server';

import type { ToolContent, ToolHandler, ToolResult } from './handlers.js';
import { compiledOnFirstUse } from './schemas.js';
import { log } from './request-log.js';
import { markTimedOut, rememberOptions, type ToolOptions } from './tool-options.js';
import { invoke, isToolResult, liftEmbeddedAnnotations, type Loader, type Open, type OpenIcons } from './runtime.js';

/** What tools/list shows of a tool besides its schemas. */
export type ToolInfo = Pick<Tool, 'title' | 'description' | '_meta' | 'execution'> &
  OpenIcons & {
    annotations?: Open<ToolAnnotations>;
    scopeChallenge?: ScopeChallengeHandler;
  };

/**
 * Registers a tool with `output`: its return value is sent as structuredContent and as JSON text.
 * One generic call per tool with plain parameter types: the SDK's overloaded, conditional
 * `registerTool` signature is checked here once, not once per tool in server.ts.
 */
export function structuredTool<I, O>(
  server: McpServer,
  name: string,
  info: ToolInfo | undefined,
  input: StandardSchemaWithJSON<I> | undefined,
  output: StandardSchemaWithJSON<O>,
  module: Loader<{ handler: ToolHandler<I, O> }>,
  options: ToolOptions = {},
): void {
  const call = (args: I, sdk: ServerContext) =>
    withinTime(name, options.timeoutMs, sdk, (signal) =>
      invoke(
        module,
        { sdk, server, signal, entry: name, args },
        (m, ctx) => m.handler(args, ctx),
        (value) => checkEmbeds(server, name, structuredResult(value)),
      ),
    );
  const tool = server.registerTool(name, { ...info, inputSchema: input ?? noInput<I>(), outputSchema: output }, call);
  registered(server, name, tool, info, options);
}

function structuredResult(value: unknown): CallToolResult {
  if (isToolResult(value)) return value as CallToolResult;
  // The SDK validates structuredContent against the output schema before sending it.
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as CallToolResult['structuredContent'],
  };
}

/** Registers a tool without `output`: a string becomes one text block, an array the content. */
export function contentTool<I>(
  server: McpServer,
  name: string,
  info: ToolInfo | undefined,
  input: StandardSchemaWithJSON<I> | undefined,
  module: Loader<{ handler: ToolHandler<I, ToolContent> }>,
  options: ToolOptions = {},
): void {
  const call = (args: I, sdk: ServerContext) =>
    withinTime(name, options.timeoutMs, sdk, (signal) =>
      invoke(
        module,
        { sdk, server, signal, entry: name, args },
        (m, ctx) => m.handler(args, ctx),
        (value) => checkEmbeds(server, name, contentResult(value)),
      ),
    );
  const tool = server.registerTool(name, { ...info, inputSchema: input ?? noInput<I>() }, call);
  registered(server, name, tool, info, options);
}

function contentResult(value: ToolContent | ToolResult<ToolContent>): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (Array.isArray(value)) return { content: value };
  return value as CallToolResult;
}

/**
 * Runs a call within the tool's `timeoutMs`: past it, the handler's `ctx.signal` aborts and the
 * caller gets an error result naming the limit (a handler that ignores the signal runs on, and
 * what it returns is dropped). The client cancelling aborts the signal too. Without a limit the
 * call runs as is, with the request's own signal.
 */
function withinTime<R>(
  name: string,
  timeoutMs: number | undefined,
  sdk: ServerContext,
  run: (signal?: AbortSignal) => R,
): R | Promise<Awaited<R> | CallToolResult> {
  if (timeoutMs === undefined) return run();
  const limit = new AbortController();
  const request = sdk.mcpReq.signal;
  const cancelled = () => limit.abort(request.reason);
  request.addEventListener('abort', cancelled, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<CallToolResult>((resolve) => {
    timer = setTimeout(() => {
      const message = `tool ${name} did not finish within ${timeoutMs} ms`;
      markTimedOut(sdk);
      limit.abort(new DOMException(message, 'TimeoutError'));
      resolve({ isError: true, content: [{ type: 'text', text: message }] });
    }, timeoutMs);
  });
  return Promise.race([Promise.resolve().then(() => run(limit.signal)), expired]).finally(() => {
    clearTimeout(timer);
    request.removeEventListener('abort', cancelled);
  });
}

const registeredTools = new WeakMap<McpServer, Map<string, RegisteredTool>>();

/** What registerTool() returned for `name` on `server`: the tasks extension runs its handler. */
export function registeredTool(server: McpServer, name: string): RegisteredTool | undefined {
  return registeredTools.get(server)?.get(name);
}

function registered(
  server: McpServer,
  name: string,
  tool: RegisteredTool,
  info?: ToolInfo,
  options?: ToolOptions,
): void {
  if (options) rememberOptions(server, name, options);
  // registerTool() takes no `execution`; tools/list shows the registered tool's (2025 sessions).
  if (info?.execution) tool.execution = info.execution;
  const tools = registeredTools.get(server) ?? new Map<string, RegisteredTool>();
  registeredTools.set(server, tools.set(name, tool));
}

// Tools whose embedded resources were reported already: one warning per tool and process.
const embedsWarned = new Set<string>();

/**
 * Servers that embed resources in tool results should declare `resources` (server/tools,
 * "Embedded Resources"). The manifest says so with the tool's `content: [resource]`; a handler
 * embedding one without it is reported once on stderr.
 */
function checkEmbeds(server: McpServer, name: string, result: CallToolResult): CallToolResult {
  if (!result.content.some((block) => block.type === 'resource')) return result;
  result = { ...result, content: result.content.map(liftEmbeddedAnnotations) };
  if (embedsWarned.has(name)) return result;
  if (server.server.getCapabilities().resources === undefined) {
    embedsWarned.add(name);
    log(
      'warn',
      `tool ${name} returned an embedded resource, but the server does not declare the resources capability; add \`content: [resource]\` to tools.${name} in the manifest`,
    );
  }
  return result;
}

// A tool without `input` takes no arguments, and says so: strict clients (the OpenAI Agents SDK's
// strict mode) accept `additionalProperties: false` only. The SDK would advertise `{ type: object }`.
const NO_INPUT = compiledOnFirstUse<Record<string, never>>({
  type: 'object',
  properties: {},
  additionalProperties: false,
});
const noInput = <I>() => NO_INPUT as unknown as StandardSchemaWithJSON<I>;
