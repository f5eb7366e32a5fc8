import type { PromptHandlers } from '../../generated/handlers.js';
import { content } from '@mcpgen/runtime';

/** Prompt `test_prompt_with_embedded_resource`. */
export const get: PromptHandlers['test_prompt_with_embedded_resource']['get'] = async ({
  resourceUri,
}) => [
  {
    role: 'user',
    content: content.resource(resourceUri, 'Embedded resource content for testing.', 'text/plain'),
  },
  {
    role: 'user',
    content: content.text('Please process the embedded resource above.'),
  },
];
