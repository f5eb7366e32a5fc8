// DNS-rebinding protection on node:http: the Host and Origin checks, from the validators the
// server package exports (the same checks as `@modelcontextprotocol/node`'s guards, without
// loading that package and the Hono adapter it brings).
import type { IncomingMessage, ServerResponse } from 'node:http';

import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

import { sendRpcError } from './http-wire.js';

/** A request guard: true when the request may go on, else it has been answered 403. */
export type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

const refuse = (res: ServerResponse, result: { ok: boolean; message?: string }) => {
  if (result.ok) return true;
  sendRpcError(res, 403, -32000, result.message ?? 'Forbidden');
  return false;
};

/** Only these Host names (ports aside) get in. */
export const hostHeaderValidation =
  (allowed: string[]): Guard =>
  (req, res) =>
    refuse(res, validateHostHeader(req.headers.host, allowed));

/** A browser's request only from these origins' hostnames (requests without Origin get in). */
export const originValidation =
  (allowed: string[]): Guard =>
  (req, res) =>
    refuse(res, validateOriginHeader(req.headers.origin, allowed));
