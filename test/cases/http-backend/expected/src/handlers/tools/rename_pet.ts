import type { ToolHandlers } from '../../generated/handlers.js';

/**
 * Tool `rename_pet`: Renames a pet, with a handler that checks the answer
 *
 * `input` is a `RenamePetInput` (src/generated/types.ts), already validated against the tool's input schema.
 * Return a string (one text block) or content blocks; or toolResult({...}) for full control.
 * Throw to answer with an error result (isError: true) carrying the message.
 * `await ctx.http()` makes the declared call (PATCH /pets/{petId} on API `petstore`) with the
 * tool's input (or `ctx.http({ input })`, `ctx.http({ path, method, query, body })`) and resolves with the
 * response whatever its status: { ok, status, contentType, data, headers }.
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
export const handler: ToolHandlers['rename_pet'] = async (input, ctx) => {
  // The declared call with the tool's input; change what it sends, or what it returns, here.
  const res = await ctx.http({ input });
  if (!res.ok) throw new Error(`the API answered ${res.status} ${res.statusText}`);
  return typeof res.data === 'string' ? res.data : JSON.stringify(res.data);
};
