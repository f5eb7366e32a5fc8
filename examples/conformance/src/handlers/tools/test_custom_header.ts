import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_custom_header`: a conformance fixture. */
export const handler: ToolHandlers['test_custom_header'] = async ({ region }) =>
  `Region: ${region ?? 'none'}`;
