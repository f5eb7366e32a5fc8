// What the transports serve: the generated server module, as one value.

import type { McpRequestContext, McpServer } from '@modelcontextprotocol/server';

import type { ServerInfo } from './runtime.js';

/**
 * A generated server: its identity, the factory of its instances and what the transports need to
 * know of its manifest. `src/generated/server.ts` exports one as `app`.
 */
export interface ServerApp {
  /** What initialize (and server/discover) shows of the server; its name prefixes log lines. */
  readonly info: ServerInfo;
  /** A server instance for one connection, session or 2026-07-28 request. */
  createServer(ctx?: McpRequestContext): McpServer;
  /** The resource URIs declared with `subscribe: true` (resources/subscribe, subscriptions/listen). */
  readonly subscribable: ReadonlySet<string>;
  /** Some tool may run as a task (the tasks extension): the transports read its listen keys. */
  readonly tasks?: boolean | undefined;
}

let name = 'mcp-server';

/** Names the server in the runtime's log lines (the transports do, when they start). */
export function nameLogs(app: ServerApp): void {
  name = app.info.name;
}

/** Logs a line on stderr, prefixed with the server's name (stdout may carry the protocol). */
export function logError(message: string): void {
  console.error(`${name}: ${message}`);
}
