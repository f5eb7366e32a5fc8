import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_missing_capability`: a conformance fixture. */
export const handler: ToolHandlers['test_missing_capability'] = async (_input, ctx) => {
  // The SDK checks embedded requests against the client's capabilities: without sampling, -32021.
  const answer = ctx.inputResponse('llm');
  if (answer.kind !== 'sampling') {
    return ctx.ask({
      inputRequests: {
        llm: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
          maxTokens: 20,
        }),
      },
    });
  }
  return 'sampling completed';
};
