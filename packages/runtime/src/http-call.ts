// `ctx.http()`: what a handler sees of the manifest's HTTP APIs. The fetch code lives in
// ./http-backend.ts, which a server loads only when its manifest has `apis`; this module holds the
// types and the link from a server instance to its backend, so the core never loads fetch code.

import type { McpServer } from '@modelcontextprotocol/server';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query parameter's value: an array repeats the parameter (`a=1&a=2`); null and undefined leave it out. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * What `ctx.http()` calls. Without `path`: the tool's declared `http:` call, with `input` as its
 * arguments (by default the arguments the tool was called with). With `path`: a call the
 * declaration cannot express, to `api` (by default the tool's, else the manifest's only API).
 */
export interface HttpCall {
  /** Arguments of the declared call, placed as `http:` says (path, query, headers, body). */
  input?: Record<string, unknown>;
  /** Appended to the API's base URL as written (encode what you put in it). */
  path?: string;
  /** With `path`; GET by default. */
  method?: HttpMethod;
  /** The API, by its name in `apis`. */
  api?: string;
  /** With `path`: query parameters. */
  query?: Record<string, QueryValue>;
  /** With `path`: request headers (the API's own headers and credentials are added). */
  headers?: Record<string, string>;
  /** With `path`: sent as JSON. */
  body?: unknown;
  /** Overrides the tool's and the API's time limit, in milliseconds. */
  timeoutMs?: number;
}

/**
 * An API's answer, whatever its status (`ok` is false for 4xx and 5xx). A request that gets no
 * answer (network error, time limit, cancellation, a body over the size limit) throws instead.
 */
export interface HttpResponse<T = unknown> {
  ok: boolean;
  status: number;
  statusText: string;
  /** The URL that answered, after redirects. */
  url: string;
  headers: Headers;
  /** The media type without parameters (`application/json`), or '' when none was sent. */
  contentType: string;
  /**
   * Parsed JSON (a JSON media type), text (text media types, or a JSON one whose body is not
   * JSON), bytes (others), or null (no body).
   */
  data: T;
  /** Whether `data` is the parsed JSON body (a JSON string too), not text or bytes. */
  json: boolean;
  /** Bytes of the body received. */
  size: number;
}

/** The part of the backend a handler's context calls. */
export interface HttpCaller {
  call(tool: string | undefined, call: HttpCall, args: unknown, signal: AbortSignal): Promise<HttpResponse>;
}

const callers = new WeakMap<McpServer, HttpCaller>();

/** Makes `ctx.http()` of `server`'s handlers call `caller` (server.ts does it for a manifest with `apis`). */
export function attachHttp(server: McpServer, caller: HttpCaller): void {
  callers.set(server, caller);
}

/** `ctx.http()` of a handler of `tool` on `server`, called with `args`. */
export function httpFor(
  server: McpServer | undefined,
  tool: string | undefined,
  args: unknown,
  signal: AbortSignal,
): <T = unknown>(call?: HttpCall) => Promise<HttpResponse<T>> {
  return (call = {}) => {
    const caller = server && callers.get(server);
    if (!caller)
      return Promise.reject(new Error('ctx.http() calls the APIs of the manifest, and it declares none (`apis`)'));
    return caller.call(tool, call, args, signal) as Promise<HttpResponse<never>>;
  };
}
