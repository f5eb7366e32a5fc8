import type { ToolHandlers } from '../../generated/handlers.js';
import { content } from '@mcpgen/runtime';

/** Tool `test_embedded_resource`: a conformance fixture. */
export const handler: ToolHandlers['test_embedded_resource'] = async () => [
  content.resource(
    'test://embedded-resource',
    'This is an embedded resource content.',
    'text/plain',
  ),
];
