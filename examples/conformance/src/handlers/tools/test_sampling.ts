import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_sampling`: a conformance fixture. */
export const handler: ToolHandlers['test_sampling'] = async ({ prompt }, ctx) => {
  const answer = ctx.inputResponse('llm');
  if (answer.kind !== 'sampling') {
    return ctx.ask({
      inputRequests: {
        llm: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        }),
      },
    });
  }
  const blocks = Array.isArray(answer.result.content)
    ? answer.result.content
    : [answer.result.content];
  return `LLM response: ${blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('')}`;
};
