import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_simple_text`: a conformance fixture. */
export const handler: ToolHandlers['test_simple_text'] = async () =>
  'This is a simple text response for testing.';
