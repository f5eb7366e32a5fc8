import { NotImplementedError } from '@mcpgen/runtime';

import type { TemplateHandlers } from '../../generated/handlers.js';

/**
 * Resource template `entry`: An entry of the knowledge base by its id
 *
 * URI template: kb://entries/{id}. `params` is a `EntryParams`: the URI's variables, decoded and validated.
 * Return the contents as a string, as bytes, or as a list of contents.
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
export const read: TemplateHandlers['entry']['read'] = async (params, uri, ctx) => {
  // Nothing behind the URI? `throw notFound(uri)` (from @mcpgen/runtime): the client
  // gets "resource not found". An empty array is answered the same way, as a mistake.
  throw new NotImplementedError('src/handlers/templates/entry.ts');
};
