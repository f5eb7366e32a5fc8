// What the transports serve: the generated server module, as one value.

import type { McpRequestContext, McpServer } from '@modelcontextprotocol/server';

import type { TaskTransport } from './listen-topics.js';
import type { ServerInfo } from './runtime.js';
import { checkRequestStateKey } from './request-state.js';
import { log } from './request-log.js';
import { checkSettings } from './settings.js';
import { RUNTIME_VERSION } from './version.js';

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
  /**
   * Some tool may run as a task: the tasks extension's part in the transports (`taskTransport` of
   * `@mcpgen/runtime/tasks`), given by the server so that one without tasks never loads it.
   */
  readonly tasks?: TaskTransport | undefined;
  /** The runtime versions the generated code works with (`^x.y.z`); checked when a transport starts. */
  readonly runtime?: string | undefined;
  /**
   * Reads what the server needs from the environment before it serves (the base URLs and
   * credentials of `apis`): throws saying what is missing, so the server does not start.
   */
  readonly prepare?: (() => void) | undefined;
}

let name = 'mcp-server';

/**
 * Readies the runtime for `app` (the transports call it when they start): names the server in log
 * lines, and refuses a runtime outside the range the generated code names, saying what to do, and
 * a setting of the environment with a value it does not take.
 */
export function startApp(app: ServerApp): void {
  name = app.info.name;
  if (app.runtime !== undefined && !satisfies(RUNTIME_VERSION, app.runtime)) {
    throw new Error(
      `the generated code needs @mcpgen/runtime ${app.runtime}, and ${RUNTIME_VERSION} is installed: run npm install, or regenerate with the mcpgen of this runtime`,
    );
  }
  checkSettings();
  checkRequestStateKey();
  app.prepare?.();
}

/** Whether `version` is in a `^x.y.z` range: same major (same minor for 0.x), not older. */
function satisfies(version: string, range: string): boolean {
  const want = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  const have = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!want || !have) return true; // another form of range is the user's call
  const [w, h] = [want.slice(1).map(Number), have.slice(1).map(Number)] as [number[], number[]];
  if (h[0] !== w[0] || (w[0] === 0 && h[1] !== w[1])) return false;
  for (let i = 0; i < 3; i++) if (h[i] !== w[i]) return h[i]! > w[i]!;
  return true;
}

/** Logs an error of the running server: a JSON line at `error` on stderr, as the request log's. */
export function logError(message: string, fields: Record<string, unknown> = {}): void {
  log('error', message, fields);
}

/** A line for whoever starts the server: plain text on stderr, prefixed with its name. */
export function sayAtStart(message: string): void {
  console.error(`${name}: ${message}`);
}
