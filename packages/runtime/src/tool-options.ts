// How each tool's calls run and are logged, as the manifest says, kept per instance so the request
// handlers (the request log, the limits) can look a call's tool up by name.

import type { McpServer } from '@modelcontextprotocol/server';
import type { Limiter } from './limits.js';

/** How a tool's calls run and are logged, as the manifest says. */
export interface ToolOptions {
  /** Past this many milliseconds the handler's `ctx.signal` aborts and the caller gets an error result. */
  timeoutMs?: number;
  /** The request log shows the call's arguments (`log: arguments`); by default it never does. */
  logArguments?: boolean;
  /** The limiters a call must pass, the server's then the tool's (./limits.ts), made once per process. */
  limits?: Limiter[];
}

// The calls whose time limit ran out (their SDK context), for the request log's `timeout`.
const timedOut = new WeakSet<object>();

/** Marks the call of `ctx` (its SDK context) as stopped by its tool's `timeoutMs`. */
export function markTimedOut(ctx: object): void {
  timedOut.add(ctx);
}

/** Whether the call of `ctx` was stopped by its tool's `timeoutMs`. */
export function wasTimedOut(ctx: unknown): boolean {
  return typeof ctx === 'object' && ctx !== null && timedOut.has(ctx);
}

const byServer = new WeakMap<McpServer, Map<string, ToolOptions>>();

export function rememberOptions(server: McpServer, name: string, options: ToolOptions): void {
  const known = byServer.get(server) ?? new Map<string, ToolOptions>();
  byServer.set(server, known.set(name, options));
}

/** The options `name` was registered with on `server`, if any. */
export function optionsOf(server: McpServer, name: string): ToolOptions | undefined {
  return byServer.get(server)?.get(name);
}

/**
 * Admits a tools/call through its tool's limiters (the server's, then its own); resolves with the
 * release of every slot it holds. A refusal (LimitError, -32000 with `retryAfterMs`) is thrown.
 */
export async function admitCall(
  server: McpServer,
  name: unknown,
  principal: string | undefined,
  signal: AbortSignal | undefined,
): Promise<(() => void) | undefined> {
  const limits = typeof name === 'string' ? optionsOf(server, name)?.limits : undefined;
  if (!limits?.length) return undefined;
  const releases: (() => void)[] = [];
  try {
    for (const l of limits) releases.push(await l.admit(principal, signal));
  } catch (error) {
    for (const release of releases) release();
    throw error;
  }
  return () => {
    for (const release of releases) release();
  };
}
