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

/** Sends `req` to `api` and reads the answer, whatever its status. */
export async function send(
  api: ResolvedApi,
  req: PreparedRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const what = `${req.method} ${req.path}`;
  const limit = new AbortController();
  const cancelled = () => limit.abort(signal.reason);
  if (signal.aborted) cancelled();
  signal.addEventListener('abort', cancelled, { once: true });
  const timer = setTimeout(() => limit.abort(new DOMException('time limit', 'TimeoutError')), timeoutMs);
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

async function follow(api: ResolvedApi, req: PreparedRequest, signal: AbortSignal): Promise<HttpResponse> {
  const url = new URL(api.baseUrl + req.path);
  for (const [k, v] of [...req.query, ...api.authQuery]) url.searchParams.append(k, v);
  let method: string = req.method;
  let body = req.body === undefined ? undefined : JSON.stringify(req.body);
  const base = {
    ...api.headers,
    ...req.headers,
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  let trusted = true;
  let at = url;
  for (let hops = 0; ; hops++) {
    // Credentials go only to the API's origin; once a redirect leaves it they are gone for good.
    trusted &&= at.origin === api.origin;
    const headers = trusted ? { ...base, ...api.authHeaders } : base;
    const res = await fetch(at, { method, headers, body, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null) return read(res, at, signal);
    await res.body?.cancel();
    if (hops === MAX_REDIRECTS) throw new HttpCallError(`${api.name}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, at);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw new HttpCallError(`${api.name}: redirected to a ${next.protocol} URL`);
    if (next.origin !== api.origin) for (const [k] of api.authQuery) next.searchParams.delete(k);
    // 303, and 301/302 after a POST as browsers do, become a GET without the body (RFC 9110 15.4).
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      delete base['content-type'];
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
    data: parse(bytes, contentType),
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

function parse(bytes: Uint8Array, type: string): unknown {
  if (bytes.byteLength === 0) return null;
  if (type === '') {
    // No media type: text when it is valid UTF-8, else bytes.
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return bytes;
    }
  }
  if (isJsonType(type) || isTextType(type)) {
    const text = new TextDecoder().decode(bytes);
    if (!isJsonType(type)) return text;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return bytes;
}
