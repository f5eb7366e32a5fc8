import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_input_required_result_sampling`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_sampling'] = async (_input, ctx) => {
  const answer = ctx.inputResponse('capital_question');
  if (answer.kind !== 'sampling') {
    return ctx.ask({
      inputRequests: {
        capital_question: inputRequired.createMessage({
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: 'What is the capital of France?',
              },
            },
          ],
          maxTokens: 100,
        }),
      },
    });
  }
  const blocks = Array.isArray(answer.result.content)
    ? answer.result.content
    : [answer.result.content];
  return `The model answered: ${blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('')}`;
};
