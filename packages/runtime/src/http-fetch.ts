// Sending a request to an API with Node's fetch: credentials only to the API's own origin,
// redirects followed here (so a redirect elsewhere loses them), a time limit, a cap on the body.

import { Buffer } from 'node:buffer';

import type { HttpResponse } from './http-call.js';
import type { PreparedRequest } from './http-request.js';

/** The largest response body read, in bytes: past it the call fails (nothing partial is passed on). */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Redirects followed before the call fails. */
export const MAX_REDIRECTS = 5;

/** An API with its environment read (http-backend.ts `resolveApi`). */
export interface ResolvedApi {
  name: string;
  /** The base URL, without a trailing `/`. */
  baseUrl: string;
  origin: string;
  /** Credentials: sent to `origin` only. */
  authHeaders: Record<string, string>;
  authQuery: [string, string][];
  headers: Record<string, string>;
  timeoutMs: number;
}

/** A request that got no answer: network error, time limit, cancellation, a body too large. */
export class HttpCallError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Credentials a caller may have set themselves: like the API's own, never sent to another origin. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

/** The longest delay a timer takes (setTimeout fires at once past it): a longer limit is none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Sends `req` to `api` and reads the answer, whatever its status. */
export async function send(
  api: ResolvedApi,
  req: PreparedRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const what = `${req.method} ${req.path}`;
  if (!(timeoutMs > 0))
    throw new HttpCallError(`${api.name}: ${what}: the time limit must be a positive number of ms, not ${timeoutMs}`);
  const limit = new AbortController();
  const cancelled = () => limit.abort(signal.reason);
  if (signal.aborted) cancelled();
  signal.addEventListener('abort', cancelled, { once: true });
  const timer =
    timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => limit.abort(new DOMException('time limit', 'TimeoutError')), timeoutMs)
      : undefined;
  try {
    return await follow(api, req, limit.signal);
  } catch (error) {
    if (limit.signal.aborted) {
      if (signal.aborted) throw new HttpCallError(`${api.name}: ${what} was cancelled`);
      throw new HttpCallError(`${api.name}: ${what} got no answer within ${timeoutMs} ms`);
    }
    if (error instanceof HttpCallError) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new HttpCallError(`${api.name}: ${what} failed: ${reason}`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', cancelled);
  }
}

/** Appends query pairs to a URL's query as written (URLSearchParams would re-encode what is there). */
function appendQuery(url: URL, pairs: readonly (readonly [string, string])[]): void {
  if (!pairs.length) return;
  const text = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  url.search = url.search.length > 1 ? `${url.search}&${text}` : text;
}

async function follow(api: ResolvedApi, req: PreparedRequest, signal: AbortSignal): Promise<HttpResponse> {
  const url = new URL(api.baseUrl + req.path);
  // A path is appended to the base URL as written: one that reaches another host (`8080/x` after
  // `http://host:3`) would take the credentials there.
  if (url.origin !== api.origin)
    throw new HttpCallError(`${api.name}: the path ${JSON.stringify(req.path)} leads out of ${api.origin}`);
  appendQuery(url, req.query);
  let method: string = req.method;
  let body = req.body === undefined ? undefined : JSON.stringify(req.body);
  // One Headers: names differ in case only are one header (the caller's Content-Type wins).
  const base = new Headers(api.headers);
  for (const [name, value] of Object.entries(req.headers)) base.set(name, value);
  if (body !== undefined && !base.has('content-type')) base.set('content-type', 'application/json');
  let trusted = true;
  let at = url;
  for (let hops = 0; ; hops++) {
    // Credentials go only to the API's origin; once a redirect leaves it they are gone for good.
    trusted &&= at.origin === api.origin;
    const headers = new Headers(base);
    if (trusted) {
      for (const [name, value] of Object.entries(api.authHeaders)) headers.set(name, value);
      appendQuery(at, api.authQuery);
    } else for (const name of CREDENTIALS) headers.delete(name);
    const res = await fetch(at, { method, headers, body, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null) return read(res, at, signal);
    await res.body?.cancel();
    if (hops === MAX_REDIRECTS) throw new HttpCallError(`${api.name}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, at);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw new HttpCallError(`${api.name}: redirected to a ${next.protocol} URL`);
    // The key is added again on each hop to the API's origin, and never goes elsewhere.
    if (api.authQuery.some(([k]) => next.searchParams.has(k)))
      for (const [k] of api.authQuery) next.searchParams.delete(k);
    // 303, and 301/302 after a POST as browsers do, become a GET without the body (RFC 9110 15.4).
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      base.delete('content-type');
    }
    at = next;
  }
}

/** Reads the body up to MAX_RESPONSE_BYTES and parses it by its media type. */
async function read(res: Response, url: URL, signal: AbortSignal): Promise<HttpResponse> {
  const bytes = await readCapped(res, signal);
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return {
    ok: res.ok,
    status: res.status,
    statusText: res.statusText,
    url: url.href,
    headers: res.headers,
    contentType,
    ...parse(bytes, contentType),
    size: bytes.byteLength,
  };
}

async function readCapped(res: Response, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel();
    throw new HttpCallError(`the response is ${declared} bytes, over the ${MAX_RESPONSE_BYTES}-byte limit`);
  }
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    signal.throwIfAborted();
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new HttpCallError(`the response is over the ${MAX_RESPONSE_BYTES}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');
export const isTextType = (type: string) =>
  type.startsWith('text/') ||
  type.endsWith('+xml') ||
  ['application/xml', 'application/javascript', 'application/x-www-form-urlencoded', 'application/yaml'].includes(type);

/** The body by its media type; `json` tells parsed JSON (even a string) from text. */
function parse(bytes: Uint8Array, type: string): { data: unknown; json: boolean } {
  if (bytes.byteLength === 0) return { data: null, json: false };
  if (type === '') {
    // No media type: text when it is valid UTF-8, else bytes.
    try {
      return { data: new TextDecoder('utf-8', { fatal: true }).decode(bytes), json: false };
    } catch {
      return { data: bytes, json: false };
    }
  }
  if (!isJsonType(type) && !isTextType(type)) return { data: bytes, json: false };
  const text = new TextDecoder().decode(bytes);
  if (!isJsonType(type)) return { data: text, json: false };
  try {
    return { data: JSON.parse(text), json: true };
  } catch {
    return { data: text, json: false };
  }
}
