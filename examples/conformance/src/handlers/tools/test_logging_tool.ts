import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_logging_tool`: a conformance fixture. */
export const handler: ToolHandlers['test_logging_tool'] = async (_input, ctx) => {
  await ctx.log('info', 'test_logging_tool ran');
  return 'logged';
};
