import { NotImplementedError } from '@mcpgen/runtime';

import type { ToolHandlers } from '../../generated/handlers.js';

/**
 * Tool `show_radar_history`: Past rain radar frames, played back in a view built from TypeScript
 *
 * The tool takes no input.
 * Return a string (one text block) or content blocks; or toolResult({...}) for full control.
 * Throw to answer with an error result (isError: true) carrying the message.
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
export const handler: ToolHandlers['show_radar_history'] = async (input, ctx) => {
  throw new NotImplementedError('src/handlers/tools/show_radar_history.ts');
};
