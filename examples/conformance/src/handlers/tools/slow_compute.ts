import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `slow_compute`: a task for a client that supports tasks; tasks/cancel aborts the sleep. */
export const handler: ToolHandlers['slow_compute'] = async ({ seconds, label }, ctx) => {
  await ctx.progress(0, seconds, `computing ${label ?? ''}`.trim());
  await sleep(seconds * 1000, ctx.signal);
  return `computed ${label ?? 'result'} after ${seconds}s${ctx.task ? ` in task ${ctx.task.id}` : ''}`;
};
