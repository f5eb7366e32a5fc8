import { NotImplementedError } from '@mcpgen/runtime';

import type { PromptHandlers } from '../../generated/handlers.js';

/**
 * Prompt `by-handler`: Rendered by code
 *
 * Return the prompt's messages, or a string for one user text message. `args` is a `ByHandlerArgs`.
 * `ctx` (HandlerContext, from @mcpgen/runtime): signal (cancellation), progress(done, total?, message?),
 * log(level, data), authInfo, sessionId, clientCapabilities, notify.resourceUpdated(uri) / toolsChanged() …,
 * and asking the client on every protocol era: `return ctx.ask({ inputRequests: { key: inputRequired.elicit({...}) } })`
 * (also inputRequired.createMessage / listRoots), then ctx.accepted(key) / ctx.inputResponse(key)
 * when the handler runs again; ctx.signState(payload) → requestState, read back with ctx.requestState().
 * A request the client could not fulfil reads { kind: 'error', code, message } (-32601: roots not supported;
 * -32602: elicited content not matching the schema, never given to accepted()): fall back there.
 * Roots changing while connected (2025): onRootsChanged(({ sessionId, listRoots }) => …).
 * Content blocks: content.text / image / audio / resourceLink / resource / blob. All from @mcpgen/runtime.
 */
export const get: PromptHandlers['by-handler']['get'] = async (args, ctx) => {
  throw new NotImplementedError('src/handlers/prompts/by-handler.ts');
};

/** Completion of the arguments: `context.arguments` holds those the user already filled in. */
export const complete: PromptHandlers['by-handler']['complete'] = {
  when: async (value, context) => [],
};
