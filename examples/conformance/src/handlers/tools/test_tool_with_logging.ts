import type { ToolHandlers } from '../../generated/handlers.js';
import { sleep } from '../../fixtures.js';

/** Tool `test_tool_with_logging`: a conformance fixture. */
export const handler: ToolHandlers['test_tool_with_logging'] = async (_input, ctx) => {
  await ctx.log('info', 'Tool execution started');
  await sleep(50, ctx.signal);
  await ctx.log('info', 'Tool processing data');
  await sleep(50, ctx.signal);
  await ctx.log('info', 'Tool execution completed');
  return 'Tool with logging executed successfully';
};
