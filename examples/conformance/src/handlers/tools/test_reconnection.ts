import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `test_reconnection`: a conformance fixture. */
export const handler: ToolHandlers['test_reconnection'] = async (_input, ctx) => {
  // SEP-1699: close this request's SSE stream; the client reconnects with Last-Event-ID and gets
  // the result from the session's event store.
  ctx.closeStream();
  await sleep(200, ctx.signal);
  return 'Reconnection test completed';
};
