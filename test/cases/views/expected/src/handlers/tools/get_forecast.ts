import { NotImplementedError } from '@mcpgen/runtime';

import type { ToolHandlers } from '../../generated/handlers.js';

/**
 * Tool `get_forecast`: Forecast for a city, shown as a chart where the client renders views
 *
 * `input` is a `GetForecastInput` (src/generated/types.ts), already validated against the tool's input schema.
 * Return a `GetForecastOutput`: it is validated, then sent as structuredContent and as JSON text.
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
export const handler: ToolHandlers['get_forecast'] = async (input, ctx) => {
  throw new NotImplementedError('src/handlers/tools/get_forecast.ts');
};
