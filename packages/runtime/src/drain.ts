// A server's stop over HTTP: how long requests in flight may take to finish (`MCP_DRAIN_MS`), and
// the answer each one still open gets when that time is over, so no client is left with an empty
// reply or waiting on a stream that will never carry its answer.
import type { ServerResponse } from 'node:http';

import { DRAIN_MS, numberSetting } from './settings.js';

/** The environment variable setting `HttpOptions.drainMs`. */
export const DRAIN_MS_ENV = DRAIN_MS.name;

export const DEFAULT_DRAIN_MS = 10_000;

/** JSON-RPC's range for errors a server defines: the request was not answered, and may be sent again. */
export const SHUTTING_DOWN = -32000;
export const SHUTTING_DOWN_MESSAGE = 'server shutting down; retry';

/** `drainMs` from the environment (a whole number of ms, 0 included). */
export function drainMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return numberSetting(DRAIN_MS, env);
}

type Id = string | number;

/** The ids of the requests a POST body carries (one message, or a 2025 batch). */
export function requestIds(body: unknown): Id[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Id[] = [];
  for (const message of messages) {
    const id = (message as { id?: unknown } | null)?.id;
    if (
      typeof (message as { method?: unknown } | null)?.method === 'string' &&
      (typeof id === 'string' || typeof id === 'number')
    )
      ids.push(id);
  }
  return ids;
}

type Send = (message: { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } }) => Promise<void>;

/** The 2025 session transports answering on a response, for their cut answers (`cutThrough`). */
const sessionSends = new WeakMap<ServerResponse, Send>();

/**
 * Has the requests `res` carries for a 2025 session answered, when cut, through `send`: the
 * session's transport, which keeps the answer in the session's event store. A client that resumes
 * the stream on another replica (`Last-Event-ID`) then reads the error, not silence.
 */
export function cutThrough(res: ServerResponse, send: Send): void {
  sessionSends.set(res, send);
}

/** How long a session's transport may take to store and write the cut answers. */
const CUT_THROUGH_MS = 1000;

/**
 * Answers the requests of `res` with the shutting-down error: through the session's transport
 * when `cutThrough` named one (bounded; its stream ends once every request on it is answered),
 * and directly for whatever that did not answer.
 */
export async function cut(res: ServerResponse, ids: Id[]): Promise<void> {
  const send = sessionSends.get(res);
  if (send && ids.length > 0 && !res.writableEnded && !res.destroyed) {
    const ended = new Promise((resolve) => {
      res.once('finish', resolve).once('close', resolve);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(
        ids.map((id) => send({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: SHUTTING_DOWN_MESSAGE } })),
      ).then(() => ended),
      new Promise((resolve) => {
        timer = setTimeout(resolve, CUT_THROUGH_MS);
      }),
    ]);
    clearTimeout(timer);
  }
  answerCut(res, ids);
}

/**
 * Answers the requests of `res` with the shutting-down error, whatever the response began as: a
 * JSON answer when nothing was sent yet, else one event per request on its stream. Whatever the
 * handlers write after this goes nowhere.
 */
export function answerCut(res: ServerResponse, ids: Id[]): void {
  if (res.writableEnded || res.destroyed) return;
  // The handler, aborted as the server closes, may still try to write its own answer.
  res.on('error', () => {});
  const errors = ids.map((id) => ({
    jsonrpc: '2.0',
    id,
    error: { code: SHUTTING_DOWN, message: SHUTTING_DOWN_MESSAGE },
  }));
  if (!res.headersSent) {
    const body = JSON.stringify(
      errors.length === 1
        ? errors[0]
        : errors.length === 0
          ? { jsonrpc: '2.0', id: null, error: { code: SHUTTING_DOWN, message: SHUTTING_DOWN_MESSAGE } }
          : errors,
    );
    res.writeHead(errors.length === 0 ? 503 : 200, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    });
    res.end(body);
  } else {
    // Begun and not ended: an event stream (a JSON answer is written whole, with its length).
    while (res.writableCorked > 0) res.uncork();
    for (const error of errors) res.write(`event: message\ndata: ${JSON.stringify(error)}\n\n`);
    res.end();
  }
  blockWrites(res);
}

/** What writes `res` once it is answered: nothing, and no error either. */
function blockWrites(res: ServerResponse): void {
  res.write = (() => true) as ServerResponse['write'];
  res.writeHead = (() => res) as unknown as ServerResponse['writeHead'];
  res.flushHeaders = () => {};
  res.end = (() => res) as ServerResponse['end'];
}
