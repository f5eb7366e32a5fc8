import type { ToolHandlers } from '../../generated/handlers.js';
import { toolResult } from '@mcpgen/runtime';

/** Tool `test_error_handling`: a conformance fixture. */
export const handler: ToolHandlers['test_error_handling'] = async () =>
  toolResult({
    isError: true,
    content: [
      {
        type: 'text',
        text: 'This tool intentionally returns an error for testing',
      },
    ],
  });
