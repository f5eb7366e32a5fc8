import type { ToolHandlers } from '../../generated/handlers.js';
import { content } from '@mcpgen/runtime';
import { PNG_1X1 } from '../../fixtures.js';

/** Tool `test_image_content`: a conformance fixture. */
export const handler: ToolHandlers['test_image_content'] = async () => [
  content.image(PNG_1X1, 'image/png'),
];
