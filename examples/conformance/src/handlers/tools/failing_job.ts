import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `failing_job`: a tool error (completed task, `isError: true`), not a failed task. */
export const handler: ToolHandlers['failing_job'] = async (_input, ctx) => {
  await sleep(1000, ctx.signal);
  throw new Error('the job failed');
};
