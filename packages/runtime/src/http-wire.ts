// Reading and writing HTTP for the MCP endpoints (http.ts, sessions, sse.ts): JSON bodies, errors,
// and the web Request/Response the SDK's transports take, over Node's own request and response.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { AuthInfo, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

import { principalOf } from './request-state.js';
import { logError } from './app.js';

/** A request once authenticated: `auth` is what the verifier returned. */
export type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

export function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Answers 503 with Retry-After: a shared store the request needs is away for now. */
export function sendUnavailable(res: ServerResponse, message: string): void {
  if (res.headersSent) return void res.end();
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
  logError(
    `refused session ${sessionId.slice(0, 8)}…: opened by ${session.principal ?? 'nobody'}, used by ${principal ?? 'nobody'}`,
  );
  return false;
}

/**
 * The web Request the SDK reads: method, URL and headers. It has no body: the SDK gets the parsed
 * one, and copying that into a request stream would cost more than the rest of the request.
 */
export function webRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    ...(signal ? { signal } : {}),
  });
}

/**
 * Writes a web Response to `res` as it comes, event by event for a stream. (The SDK's Node
 * transport holds an SSE answer back for a timer turn when its first event comes early, as a
 * priming event always does: a millisecond per request of a 2025 session.)
 */
export async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  // A GET stream may stay quiet for long: the client needs its headers now, not with the first event.
  if (req.method === 'GET') res.flushHeaders();
  const reader = response.body.getReader();
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  void closed.then(() => reader.cancel().catch(() => {}));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (!res.write(chunk.value)) await Promise.race([closed, new Promise((resolve) => res.once('drain', resolve))]);
  }
  res.end();
}

/** One request of a 2025 session, answered by the session's transport. */
export async function serveSession(
  transport: WebStandardStreamableHTTPServerTransport,
  req: AuthedRequest,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const response = await transport.handleRequest(webRequest(req), {
    authInfo: req.auth,
    parsedBody: body,
  });
  await writeResponse(req, res, response);
}

/** Reads a JSON body up to `limit` bytes: the parsed value, or an error already answered. */
export async function readJson(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<{ body: unknown } | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      sendRpcError(res, 413, -32600, `Request body larger than ${limit} bytes`);
      return null;
    }
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
    return null;
  }
}
