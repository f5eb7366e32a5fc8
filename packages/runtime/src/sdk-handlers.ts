// The SDK's request handlers, decorated as they are installed. McpServer keeps the handlers it
// installs to itself, and installs each through Server.setRequestHandler, which is public: the
// decorators sit there, so each wraps the SDK's handler once, inside the SDK's own checks.

import type { McpServer, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';

import { answerAsSpecified } from './answers.js';

/** A request handler as McpServer installs it: the request as it arrived, and the SDK context. */
export type RequestHandler = (
  request: { method: string; params?: Record<string, unknown> },
  ctx: ServerContext,
) => unknown;

/** Makes the handler a method gets from the one the SDK installs for it. */
export type Decorator = (next: RequestHandler) => RequestHandler;

/** Installs a handler as the SDK's own Server.setRequestHandler does (any of its forms). */
export type Install = (method: string, ...rest: unknown[]) => void;

interface Hooks {
  decorators: Map<string, Decorator[]>;
  installers: Map<string, (handler: RequestHandler, install: Install) => void>;
}

const hooked = new WeakMap<McpServer, Hooks>();

function hooksOf(server: McpServer): Hooks {
  const known = hooked.get(server);
  if (known) return known;
  const hooks: Hooks = { decorators: new Map(), installers: new Map() };
  hooked.set(server, hooks);
  answerAsSpecified(server);
  const low = server.server;
  const install = low.setRequestHandler.bind(low) as Install;
  low.setRequestHandler = ((method: string, ...rest: unknown[]) => {
    // The three-argument form (schemas, then a handler of parsed params) is not McpServer's.
    if (rest.length !== 1 || typeof rest[0] !== 'function') return install(method, ...rest);
    const wraps = hooks.decorators.get(method) ?? [];
    const handler = wraps.reduce((next, wrap) => wrap(next), rest[0] as RequestHandler);
    const installer = hooks.installers.get(method);
    if (installer) installer(handler, install);
    else install(method, handler);
  }) as typeof low.setRequestHandler;
  return hooks;
}

/**
 * Decorates every handler `server` installs for `method` from now on (the first decorator given
 * is the innermost). McpServer installs its handlers with its first entry of a kind, so this is
 * called before anything is registered (see {@link installHandlers}).
 */
export function decorate(server: McpServer, method: string, decorator: Decorator): void {
  const { decorators } = hooksOf(server);
  decorators.set(method, [...(decorators.get(method) ?? []), decorator]);
}

/** Installs the SDK's (decorated) handler for `method` another way: e.g. with a params schema. */
export function installAs(
  server: McpServer,
  method: string,
  installer: (handler: RequestHandler, install: Install) => void,
): void {
  hooksOf(server).installers.set(method, installer);
}

const PLACEHOLDER = 'mcpgen-placeholder';

/**
 * Declares the capabilities whose handlers the SDK installs (logging, and the entry kinds), so that
 * it installs them now, through the decorators, as its constructor would: the Server installs
 * logging/setLevel when logging is declared, McpServer the handlers of an entry kind with its
 * first entry, so one is registered and removed at once. The instance is not connected yet: no
 * client hears of it.
 */
export function installHandlers(
  server: McpServer,
  capabilities: Pick<ServerCapabilities, 'logging' | 'tools' | 'resources' | 'prompts'>,
): void {
  server.server.registerCapabilities(capabilities);
  if (capabilities.tools) server.registerTool(PLACEHOLDER, {}, () => ({ content: [] })).remove();
  if (capabilities.resources) {
    const read = () => ({ contents: [] });
    server.registerResource(PLACEHOLDER, `${PLACEHOLDER}:`, {}, read).remove();
  }
  if (capabilities.prompts) {
    server.registerPrompt(PLACEHOLDER, {}, () => ({ messages: [] })).remove();
  }
}
