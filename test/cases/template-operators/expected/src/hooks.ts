import type { RequestHooks } from '@mcpgen/runtime';

/**
 * Your code around every request the server answers (audit logs, custom checks), so it needs no
 * edit of generated code. This file is yours: mcpgen created it once and never changes it.
 *
 * `before` runs first, with the method, the entry's name, the caller (`principal`, over HTTP with
 * auth), the params and the SDK context; throw to refuse the request (a ProtocolError from
 * @modelcontextprotocol/server chooses the code the client gets). `after` runs once the request is
 * answered or has failed, with how long it took and the result or the error.
 */
export const hooks: RequestHooks = {
  // before: ({ method, name, principal }) => {},
  // after: ({ method, name, durationMs, outcome }) => {},
};
