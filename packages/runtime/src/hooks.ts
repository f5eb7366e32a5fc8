// A team's own code around every request (audit logs, custom checks), from the project's
// src/hooks.ts: `before` runs first and may refuse the request by throwing; `after` runs once it
// is answered, and what it throws is logged, never sent.

import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { principalOf } from './request-state.js';
import { log } from './request-log.js';
import { decorate } from './sdk-handlers.js';

/** The request a hook sees. */
export interface HookRequest {
  method: string;
  /** The tool, prompt, resource or template the request names (its name or URI). */
  name?: string;
  /** The caller: the token's principal (HTTP with auth), else undefined. */
  principal?: string;
  params: Record<string, unknown>;
  ctx: ServerContext;
}

/** How it went: the result, or the error the client gets. */
export interface HookOutcome extends HookRequest {
  durationMs: number;
  outcome: 'ok' | 'error';
  result?: unknown;
  error?: unknown;
}

export interface RequestHooks {
  /** Before the request's handler; throw (a ProtocolError for a code of your choice) to refuse it. */
  before?(request: HookRequest): void | Promise<void>;
  /** After it is answered or has failed. */
  after?(outcome: HookOutcome): void | Promise<void>;
}

// Every request McpServer answers through a handler of its own.
const METHODS = [
  'tools/call',
  'tools/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'prompts/list',
  'completion/complete',
  'logging/setLevel',
];

/** Runs `hooks` around every request `server` answers; installed before its handlers are. Nothing without hooks. */
export function installHooks(server: McpServer, hooks: RequestHooks): void {
  const { before, after } = hooks;
  if (!before && !after) return;
  for (const method of METHODS)
    decorate(server, method, (next) => async (request, ctx) => {
      const params = request.params ?? {};
      const name =
        typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
      const principal = principalOf((ctx as Partial<ServerContext>).http?.authInfo);
      const seen: HookRequest = {
        method: request.method,
        ...(name !== undefined ? { name } : {}),
        ...(principal !== undefined ? { principal } : {}),
        params,
        ctx,
      };
      const started = performance.now();
      const done = async (outcome: Pick<HookOutcome, 'outcome' | 'result' | 'error'>) => {
        if (!after) return;
        try {
          await after({ ...seen, ...outcome, durationMs: performance.now() - started });
        } catch (error) {
          log('error', 'hook after failed', { method: request.method, error: (error as Error).stack ?? String(error) });
        }
      };
      try {
        if (before) await before(seen);
        const result = await next(request, ctx);
        await done({ outcome: 'ok', result });
        return result;
      } catch (error) {
        await done({ outcome: 'error', error });
        throw error;
      }
    });
}
