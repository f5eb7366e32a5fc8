import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_trigger_tool_change`: a conformance fixture. */
export const handler: ToolHandlers['test_trigger_tool_change'] = async (_input, ctx) => {
  ctx.notify.toolsChanged();
  return 'tool list change published';
};
