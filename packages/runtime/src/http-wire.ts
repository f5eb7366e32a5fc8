// Reading and writing HTTP for the MCP endpoints (http.ts, sessions, sse.ts): JSON bodies, errors,
// and the web Request/Response the SDK's transports take, over Node's own request and response.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

import type { AuthInfo, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

import { endUncorked, writeCorked } from './corked.js';
import { cutThrough } from './drain.js';
import { noteRefusal, noteResponse } from './http-refusals.js';
import { log } from './request-log.js';
import { principalOf } from './request-state.js';
import { postRequest } from './session-post.js';
import { soleMessage as soleMessageOf } from './sole-message.js';

/** A request once authenticated: `auth` is what the verifier returned. */
export type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

/** Answers `body` as JSON, in one write. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  if (status >= 400) noteRefusal(res, body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

export function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Answers 503 with Retry-After: a shared store the request needs is away for now. */
export function sendUnavailable(res: ServerResponse, message: string): void {
  if (res.headersSent) return void endUncorked(res);
  res.setHeader('Retry-After', '1');
  sendRpcError(res, 503, -32000, `Service unavailable: ${message}`);
}

/**
 * Whether `auth` may use a session `session.principal` opened. A refusal is logged with the
 * principals (never a token) and answered as an unknown session: the caller learns nothing.
 */
export function ownsSession(
  session: { principal: string | undefined },
  auth: AuthInfo | undefined,
  sessionId: string,
): boolean {
  const principal = principalOf(auth);
  if (session.principal === principal) return true;
  log(
    'warn',
    `refused session ${sessionId.slice(0, 8)}…: opened by ${session.principal ?? 'nobody'}, used by ${principal ?? 'nobody'}`,
  );
  return false;
}

/**
 * Node's parsed request headers as the SDK reads them (`get`, `has`): read on demand, nothing
 * copied. Node has already lower-cased the names and joined repeated values.
 */
class NodeHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw)) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: NodeHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * The Request the SDK's HTTP transports read: method, one URL string, the headers and, for a
 * request that may stay open (a stream), a signal. Not a fetch Request: building one (its Headers
 * copied, its URL parsed, a body stream) costs more than the rest of a call, and the SDK takes
 * the parsed body as it is.
 */
export function webRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  return {
    method: req.method ?? 'GET',
    url: urlOf(req),
    headers: new NodeHeaders(req.headers),
    ...(signal ? { signal } : {}),
  } as unknown as Request;
}

/** The request's URL: its target with the Host header, or the target itself in absolute form (via a proxy). */
function urlOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  return /^https?:\/\//i.test(target) ? target : `http://${req.headers.host ?? 'localhost'}${target}`;
}

/** An SSE stream's bytes, as the SDK's transports frame them. */
const decoder = new TextDecoder();

/** The one JSON-RPC message of a finished SSE answer's bytes (see ./sole-message.ts). */
export function soleMessage(chunks: readonly Uint8Array[]): string | undefined {
  return soleMessageOf(decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/**
 * Writes a web Response to `res`, each answer in one write: a JSON body whole, with its length;
 * SSE events corked while they come together (a 2025 session's priming event, message and end),
 * so that a quick answer is one write, and a long one streams event by event. A POST's SSE answer
 * that is over before anything else was ready goes out as JSON (see `soleMessage`).
 */
export async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
  // Each cookie its own header line: joined with commas they would read as one.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 1) headers['set-cookie'] = cookies;
  const body = response.body;
  if (!body) return void res.writeHead(response.status, headers).end();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.length);
    if (response.status >= 400) noteResponse(res, response.headers.get('www-authenticate'), bytes);
    return void res.writeHead(response.status, headers).end(bytes);
  }
  const reader = body.getReader();
  // What is ready in this turn of the event loop (microtasks and all): held until it ends, then
  // written together, or sent as JSON.
  let held: Uint8Array[] | undefined = [];
  const release = () => {
    if (!held) return;
    res.writeHead(response.status, headers);
    // A stream that stays quiet (a GET, a long call): the client needs its headers now.
    if (held.length === 0) res.flushHeaders();
    else writeCorked(res, held);
    held = undefined;
  };
  const releasing = setImmediate(release);
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  void closed.then(() => reader.cancel().catch(() => {}));
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (held) held.push(chunk.value);
      else if (!writeCorked(res, [chunk.value])) await Promise.race([closed, new Promise((r) => res.once('drain', r))]);
    }
  } catch (error) {
    // A stream that failed before its first write: nothing was sent, the caller answers the error.
    clearImmediate(releasing);
    held = undefined;
    throw error;
  }
  if (held && req.method === 'POST') {
    const message = soleMessage(held);
    if (message !== undefined) {
      held = undefined;
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(message));
      for (const name of ['cache-control', 'connection', 'x-accel-buffering']) delete headers[name];
      return void res.writeHead(response.status, headers).end(message);
    }
  }
  release();
  endUncorked(res);
}

/**
 * One request of a 2025 session: a POST of one request straight onto the response
 * (./session-post.ts), anything else (initialize, batches, GET, DELETE) by the session's transport.
 */
export async function serveSession(
  transport: WebStandardStreamableHTTPServerTransport,
  req: AuthedRequest,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const request = webRequest(req);
  // Cut at shutdown, its answers go through the transport, into the session's event store.
  if (req.method === 'POST') cutThrough(res, (message) => transport.send(message, { relatedRequestId: message.id }));
  const quick = req.method === 'POST' ? await postRequest(transport, req, res, body, request) : false;
  if (quick === true) return;
  const response =
    quick ||
    (await transport.handleRequest(request, {
      authInfo: req.auth,
      parsedBody: body,
    }));
  await writeResponse(req, res, response);
}

/**
 * Reads a JSON body up to `limit` bytes: the parsed value, or null for an error already answered
 * or a client gone before its body was in (nothing to answer, nothing wrong with the server).
 */
export function readJson(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ body: unknown } | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).resume();
      sendRpcError(res, 413, -32600, `Request body larger than ${limit} bytes`);
      resolve(null);
    };
    const gone = () => resolve(null);
    const onEnd = () => {
      req.off('error', gone);
      try {
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve({ body: JSON.parse(text) });
      } catch {
        sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
        resolve(null);
      }
    };
    req.on('data', onData).once('end', onEnd).once('error', gone);
  });
}
