// HTTP-backed tools (`apis` and a tool's `http:`): the runtime calls the API and answers with its
// response, so such a tool needs no handler; a handler may make the call itself with `ctx.http()`.
// Loaded only by servers whose manifest has `apis` (`@mcpgen/runtime/http-backend`).

import { Buffer } from 'node:buffer';

import type { CallToolResult } from '@modelcontextprotocol/server';

import type { ToolHandler } from './handlers.js';
import type { HttpCall, HttpCaller, HttpResponse } from './http-call.js';
import { HttpCallError, type ResolvedApi, send } from './http-fetch.js';
import { type HttpBinding, HttpArgumentError, requestOf, requestOfCall } from './http-request.js';
import { failed, httpResult } from './http-result.js';
import { type Loader, toolResult } from './runtime.js';

export { attachHttp, type HttpCall, type HttpResponse } from './http-call.js';
export type { HttpBinding } from './http-request.js';
export { MAX_REDIRECTS, MAX_RESPONSE_BYTES } from './http-fetch.js';

/** An API of the manifest's `apis`, as server.ts passes it. */
export interface HttpApiConfig {
  baseUrl: { env: string; default?: string };
  auth?: HttpApiAuth;
  headers?: Readonly<Record<string, string>>;
  /** Default 30000. */
  timeoutMs?: number;
}

export type HttpApiAuth =
  | { type: 'bearer'; env: string }
  | { type: 'apiKey'; in: 'header' | 'query'; name: string; env: string }
  | { type: 'basic'; usernameEnv: string; passwordEnv: string };

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** The APIs and the tools that call them. */
export interface HttpBackend extends HttpCaller {
  /** Reads every API's base URL and credentials from the environment; throws naming what is missing. */
  start(): void;
  /** The handler of tool `name` with `output`: the API's JSON as structuredContent. */
  structuredTool<I, O>(name: string): Loader<{ handler: ToolHandler<I, O> }>;
  /** The handler of tool `name` without `output`. */
  contentTool<I, O>(name: string): Loader<{ handler: ToolHandler<I, O> }>;
}

/** Calls no API yet: base URLs and credentials are read on `start()` or the first call. */
export function httpBackend(
  apis: Readonly<Record<string, HttpApiConfig>>,
  tools: Readonly<Record<string, HttpBinding>>,
  env: NodeJS.ProcessEnv = process.env,
): HttpBackend {
  const resolved = new Map<string, ResolvedApi>();
  const apiNamed = (name: string): ResolvedApi => {
    const found = resolved.get(name);
    if (found) return found;
    const config = Object.hasOwn(apis, name) ? apis[name] : undefined;
    if (!config) throw new HttpArgumentError(`no API named ${name} in the manifest's apis`);
    const api = resolveApi(name, config, env);
    resolved.set(name, api);
    return api;
  };
  const names = Object.keys(apis);
  const call = (tool: string | undefined, c: HttpCall, args: unknown, signal: AbortSignal): Promise<HttpResponse> => {
    const binding = tool !== undefined && Object.hasOwn(tools, tool) ? tools[tool] : undefined;
    try {
      if (c.path !== undefined) {
        const name = c.api ?? binding?.api ?? (names.length === 1 ? names[0]! : undefined);
        if (name === undefined) throw new HttpArgumentError('ctx.http({ path }) needs `api`: the manifest has several');
        const api = apiNamed(name);
        return send(api, requestOfCall({ ...c, path: c.path }), c.timeoutMs ?? api.timeoutMs, signal);
      }
      if (!binding) throw new HttpArgumentError(`tool ${tool} declares no \`http:\` call: give ctx.http() a path`);
      const api = apiNamed(binding.api);
      const input = (c.input ?? args ?? {}) as Record<string, unknown>;
      return send(api, requestOf(binding, input), c.timeoutMs ?? binding.timeoutMs ?? api.timeoutMs, signal);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const handler =
    <I, O>(name: string, hasOutput: boolean): Loader<{ handler: ToolHandler<I, O> }> =>
    () => ({
      handler: (input, ctx) =>
        call(name, {}, input, ctx.signal).then(
          (res) => answer(httpResult(res, hasOutput)),
          (error: unknown) => answer(failed(messageOf(error))),
        ),
    });
  return {
    call,
    start: () => {
      for (const name of names) apiNamed(name);
    },
    structuredTool: (name) => handler(name, true),
    contentTool: (name) => handler(name, false),
  };
}

// A complete result: sent as it is (tools.ts), never taken for the tool's output.
const answer = <O>(result: CallToolResult) => toolResult<O>(result as never);

function messageOf(error: unknown): string {
  if (error instanceof HttpCallError || error instanceof HttpArgumentError) return error.message;
  return `the API call failed: ${(error as Error)?.message ?? String(error)}`;
}

/** An API with its environment read; throws naming the variable that is missing or wrong. */
export function resolveApi(name: string, config: HttpApiConfig, env: NodeJS.ProcessEnv): ResolvedApi {
  const where = `apis.${name}`;
  const variable = (key: string, what: string): string => {
    const value = env[key];
    // Checked here: fetch would refuse it at every call with a message quoting the secret.
    if (value && /[\r\n\0]/.test(value))
      throw new Error(`${where}: the environment variable ${key} (${what}) holds a line break or NUL`);
    if (value) return value;
    throw new Error(`${where}: set the environment variable ${key} (${what})`);
  };
  const text = env[config.baseUrl.env] || config.baseUrl.default || variable(config.baseUrl.env, "the API's base URL");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${where}: the base URL ${JSON.stringify(text)} (${config.baseUrl.env}) is not a URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new Error(
      `${where}: the base URL ${text} (${config.baseUrl.env}) must be http or https, without query or fragment`,
    );
  const authHeaders: Record<string, string> = {};
  const authQuery: [string, string][] = [];
  const auth = config.auth;
  if (auth?.type === 'bearer') authHeaders.authorization = `Bearer ${variable(auth.env, 'its bearer token')}`;
  else if (auth?.type === 'apiKey') {
    const key = variable(auth.env, 'its API key');
    if (auth.in === 'query') authQuery.push([auth.name, key]);
    else authHeaders[auth.name.toLowerCase()] = key;
  } else if (auth?.type === 'basic') {
    const user = variable(auth.usernameEnv, 'its user name');
    const password = variable(auth.passwordEnv, 'its password');
    authHeaders.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return {
    name,
    baseUrl: url.href.replace(/\/+$/, ''),
    origin: url.origin,
    authHeaders,
    authQuery,
    headers: { ...config.headers },
    timeoutMs: config.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
  };
}
