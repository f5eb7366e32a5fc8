import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `test_tool_with_progress`: a conformance fixture. */
export const handler: ToolHandlers['test_tool_with_progress'] = async (_input, ctx) => {
  for (const done of [0, 50, 100]) {
    await ctx.progress(done, 100, `Completed step ${done / 50 + 1} of 3`);
    if (done < 100) await sleep(50, ctx.signal);
  }
  return 'Tool with progress completed';
};
