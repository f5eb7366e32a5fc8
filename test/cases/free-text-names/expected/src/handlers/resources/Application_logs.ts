import type { ResourceHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Resource `Application logs`: The application's log file, newest entry last
 *
 * Return the contents of logs://app as a string (sent as text/plain), as bytes (sent as a base64 blob), or as a list of contents.
 * `ctx` (src/generated/handlers.ts, HandlerContext): signal (cancellation), progress(done, total?, message?),
 * log(level, data), authInfo, sessionId, clientCapabilities, notify.resourceUpdated(uri) / toolsChanged() …,
 * and asking the client on every protocol era: `return ctx.ask({ inputRequests: { key: inputRequired.elicit({...}) } })`
 * (also inputRequired.createMessage / listRoots, from runtime.js), then ctx.accepted(key) / ctx.inputResponse(key)
 * when the handler runs again; ctx.signState(payload) → requestState, read back with ctx.requestState().
 * A request the client could not fulfil reads { kind: 'error', code, message } (-32601: roots not supported;
 * -32602: elicited content not matching the schema, never given to accepted()): fall back there.
 * Roots changing while connected (2025): onRootsChanged(({ sessionId, listRoots }) => …) from input.js.
 * Content blocks: content.text / image / audio / resourceLink / resource / blob (runtime.js).
 */
export const read: ResourceHandlers['Application logs'] = async (uri, ctx) => {
  // Nothing behind the URI? `throw notFound(uri)` (from ../../generated/runtime.js): the client
  // gets "resource not found". An empty array is answered the same way, as a mistake.
  throw new NotImplementedError('src/handlers/resources/Application_logs.ts');
};
