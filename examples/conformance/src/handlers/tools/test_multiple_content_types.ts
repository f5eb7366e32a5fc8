import type { ToolHandlers } from '../../generated/handlers.js';
import { content } from '@mcpgen/runtime';
import { PNG_1X1 } from '../../fixtures.js';

/** Tool `test_multiple_content_types`: a conformance fixture. */
export const handler: ToolHandlers['test_multiple_content_types'] = async () => [
  content.text('Multiple content types test:'),
  content.image(PNG_1X1, 'image/png'),
  content.resource(
    'test://mixed-content-resource',
    JSON.stringify({ test: 'data', value: 123 }),
    'application/json',
  ),
];
