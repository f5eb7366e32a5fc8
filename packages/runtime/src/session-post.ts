// A 2025 session's POST of one request, answered straight onto Node's response. The SDK's session
// transport builds a web ReadableStream and a Response per POST, which then has to be read back
// chunk by chunk; here the transport's own routing (request → stream, event store, priming event,
// closeSSEStream) writes into a stream that is Node's response. Anything else a session is sent
// (initialize, batches, GET, DELETE, bad headers) goes through the transport as it is.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  type AuthInfo,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  type EventStore,
  isJsonContentType,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

import { endUncorked, writeCorked } from './corked.js';
import { soleMessage } from './sole-message.js';

type Id = string | number;
type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

/** What the SDK's stream map holds per open stream: events are `controller.enqueue(encoder.encode(text))`. */
interface SdkStream {
  controller: { enqueue(chunk: string): void };
  encoder: { encode(text: string): string };
  cleanup(): void;
}

/**
 * The session transport's routing, as `@modelcontextprotocol/server` 2.4 keeps it. Checked before
 * each use (`internalsOf`): a transport without it answers through `handleRequest` instead.
 */
interface TransportInternals {
  sessionId?: string | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  _closed: boolean;
  _initialized: boolean;
  _streamMapping: Map<string, unknown>;
  _requestToStreamMapping: Map<Id, string>;
  _eventStore?: EventStore | undefined;
  _supportedProtocolVersions: string[];
  _keepAliveMs: number;
  _checkScopeChallenge(messages: JSONRPCMessage[], authInfo?: AuthInfo): Promise<Response | undefined>;
  writePrimingEvent(controller: unknown, encoder: unknown, streamId: string, protocolVersion: string): Promise<void>;
  supportsEmptySSEData(protocolVersion: string): boolean;
  closeSSEStream(requestId: Id): void;
  closeStandaloneSSEStream(): void;
}

function internalsOf(transport: WebStandardStreamableHTTPServerTransport): TransportInternals | undefined {
  const t = transport as unknown as Partial<TransportInternals>;
  return t._streamMapping instanceof Map &&
    t._requestToStreamMapping instanceof Map &&
    Array.isArray(t._supportedProtocolVersions) &&
    typeof t.writePrimingEvent === 'function' &&
    typeof t._checkScopeChallenge === 'function' &&
    typeof t.supportsEmptySSEData === 'function' &&
    typeof t.closeSSEStream === 'function' &&
    typeof t.closeStandaloneSSEStream === 'function'
    ? (t as TransportInternals)
    : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The body when it is one JSON-RPC request other than initialize, of the shape the transport's
 * own check admits (the server validates its params against the method's schema).
 */
function oneRequest(body: unknown): (JSONRPCMessage & { id: Id; method: string }) | undefined {
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return undefined;
  if (body.method === 'initialize') return undefined;
  if (typeof body.id !== 'string' && !Number.isInteger(body.id)) return undefined;
  if (
    body.params !== undefined &&
    (!isObject(body.params) || (body.params._meta !== undefined && !isObject(body.params._meta)))
  )
    return undefined;
  return body as JSONRPCMessage & { id: Id; method: string };
}

const header = (req: AuthedRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Answers `body` on `res` when it is a request this path takes, and resolves true once the answer
 * is written (or the client went away); a Response for the caller to write when the request is
 * refused for want of a scope (a tool's or resource's scope challenge); false, having done
 * nothing, when the transport must answer.
 */
export async function postRequest(
  transport: WebStandardStreamableHTTPServerTransport,
  req: AuthedRequest,
  res: ServerResponse,
  body: unknown,
  request: Request,
): Promise<boolean | Response> {
  const t = internalsOf(transport);
  const message = oneRequest(body);
  if (!t || !message || t._closed || !t._initialized) return false;
  const accept = header(req, 'accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!isJsonContentType(header(req, 'content-type') ?? null)) return false;
  if (t.sessionId === undefined || header(req, 'mcp-session-id') !== t.sessionId) return false;
  const version = header(req, 'mcp-protocol-version');
  if (version !== undefined && !t._supportedProtocolVersions.includes(version)) return false;
  const protocolVersion = version ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  const challenge = await t._checkScopeChallenge([message], req.auth);
  if (challenge) return challenge;
  if (t._closed) return false;

  const streamId = randomUUID();
  const stream = new ResponseStream(res, t.sessionId, () => {
    if (t._streamMapping.get(streamId) === stream) t._streamMapping.delete(streamId);
  });
  t._streamMapping.set(streamId, stream);
  t._requestToStreamMapping.set(message.id, streamId);
  try {
    await t.writePrimingEvent(stream.controller, stream.encoder, streamId, protocolVersion);
  } catch (error) {
    // The event store failed (Redis away): nothing was sent, and the request is not delivered.
    t._requestToStreamMapping.delete(message.id);
    stream.abandon();
    throw error;
  }
  // As the transport does: with an event store, a handler may end the stream for the client to
  // resume (polling), and end the GET stream likewise.
  const resumable = t._eventStore !== undefined && t.supportsEmptySSEData(protocolVersion);
  try {
    t.onmessage?.(message, {
      ...(req.auth ? { authInfo: req.auth } : {}),
      request,
      ...(resumable
        ? {
            closeSSEStream: () => t.closeSSEStream(message.id),
            closeStandaloneSSEStream: () => t.closeStandaloneSSEStream(),
          }
        : {}),
    } as MessageExtraInfo);
  } catch (error) {
    // Nothing was written yet: the caller answers the error.
    t._requestToStreamMapping.delete(message.id);
    stream.abandon();
    throw error;
  }
  stream.keepAlive(t._keepAliveMs);
  await stream.done;
  return true;
}

/**
 * One POST's stream, written to Node's response: what is ready in the turn that started it is
 * held, and an answer that is all it held goes out as JSON in one write; else the events stream,
 * corked while they come together.
 */
class ResponseStream implements SdkStream {
  readonly encoder = { encode: (text: string) => text };
  readonly controller = { enqueue: (chunk: string) => this.enqueue(chunk) };
  readonly done: Promise<void>;
  #held: string[] | undefined = [];
  #ended = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #finish!: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly sessionId: string,
    private readonly unmap: () => void,
  ) {
    this.done = new Promise((resolve) => (this.#finish = resolve));
    setImmediate(() => this.#release());
    // The client went: the transport keeps storing the events, for a resume (`Last-Event-ID`).
    res.once('close', () => this.#end(false));
  }

  enqueue(chunk: string): void {
    if (this.#ended) return;
    if (this.#held) this.#held.push(chunk);
    else writeCorked(this.res, [chunk]);
  }

  /** The transport's cleanup: every answer of the stream sent, or the stream closed for polling. */
  cleanup(): void {
    this.#end(true);
  }

  /** Unmapped, nothing written: the caller answers instead. */
  abandon(): void {
    this.#held = undefined;
    this.#end(false);
  }

  keepAlive(ms: number): void {
    if (this.#ended || !(ms > 0)) return;
    this.#timer = setInterval(() => this.enqueue(': keepalive\n\n'), ms);
  }

  #headers(): Record<string, string> {
    return {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'mcp-session-id': this.sessionId,
    };
  }

  #release(): void {
    const held = this.#held;
    if (!held || this.#ended || this.res.headersSent) return;
    this.#held = undefined;
    this.res.writeHead(200, this.#headers());
    // A stream that stays quiet (a long call): the client needs its headers now.
    if (held.length === 0) this.res.flushHeaders();
    else writeCorked(this.res, held);
  }

  /** Ends the stream; `write`: what is held goes out first (else the client is gone). */
  #end(write: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#timer) clearInterval(this.#timer);
    this.unmap();
    const held = this.#held;
    this.#held = undefined;
    if (write && !this.res.writableEnded && !this.res.destroyed) {
      const json = held && soleMessage(held.join(''));
      if (json !== undefined) {
        this.res
          .writeHead(200, {
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(json)),
            'mcp-session-id': this.sessionId,
          })
          .end(json);
      } else {
        if (held) {
          this.res.writeHead(200, this.#headers());
          writeCorked(this.res, held);
        }
        endUncorked(this.res);
      }
    }
    this.#finish();
  }
}
