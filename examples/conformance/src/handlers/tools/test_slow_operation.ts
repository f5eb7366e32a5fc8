import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `test_slow_operation`: ctx.signal aborts when the client cancels (or goes away). */
export const handler: ToolHandlers['test_slow_operation'] = async (_input, ctx) => {
  await sleep(10_000, ctx.signal);
  return 'finished without being cancelled';
};
