// The log line of a request refused at the HTTP layer, before any JSON-RPC method ran: no token or
// a bad one, a foreign Host or Origin, a body too large, an unknown path or session. The request
// log has a line per method answered; without these an operator would not see a client locked out.
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';

import { log } from './request-log.js';

const said = new WeakMap<ServerResponse, string>();

/** Keeps what a refusal told the client (`body`'s message), for its log line. */
export function noteRefusal(res: ServerResponse, body: unknown): void {
  const error = (body as { error?: unknown } | null)?.error;
  const message =
    typeof error === 'string'
      ? error
      : typeof (error as { message?: unknown } | null)?.message === 'string'
        ? (error as { message: string }).message
        : undefined;
  if (message !== undefined) said.set(res, message);
}

/** Keeps what a bearer challenge (WWW-Authenticate) says went wrong, for the refusal's log line. */
export function noteChallenge(res: ServerResponse, header: string | null): void {
  const param = (name: string) => header && new RegExp(`${name}="([^"]*)"`).exec(header)?.[1];
  const error = param('error');
  const description = param('error_description');
  said.set(res, error ? (description ? `${error}: ${description}` : error) : 'no token');
}

/** Keeps why a 4xx web Response (the SDK's) refused: its challenge, else its JSON body's message. */
export function noteResponse(res: ServerResponse, challenge: string | null, body: Uint8Array): void {
  if (challenge) {
    noteChallenge(res, challenge);
    return;
  }
  try {
    noteRefusal(res, JSON.parse(Buffer.from(body).toString('utf8')));
  } catch {
    // Not JSON: the status says enough.
  }
}

/**
 * Logs `res` once answered, if it is a 4xx: the HTTP method, the path (never the query, which may
 * carry a session or a key), the status and why, the session header and the peer address. A 401,
 * how an OAuth client learns where to get a token, is `info`; any other refusal `warn`.
 */
export function logRefusals(req: IncomingMessage, res: ServerResponse, path: string): void {
  const started = performance.now();
  res.once('finish', () => {
    const status = res.statusCode;
    if (status < 400 || status >= 500) return;
    const session = req.headers['mcp-session-id'];
    log(status === 401 ? 'info' : 'warn', 'refused', {
      httpMethod: req.method,
      path,
      status,
      reason: said.get(res) ?? STATUS_CODES[status],
      ...(typeof session === 'string' ? { session } : {}),
      remote: req.socket.remoteAddress,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  });
}
