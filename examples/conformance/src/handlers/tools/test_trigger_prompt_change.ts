import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_trigger_prompt_change`: a conformance fixture. */
export const handler: ToolHandlers['test_trigger_prompt_change'] = async (_input, ctx) => {
  ctx.notify.promptsChanged();
  return 'prompt list change published';
};
