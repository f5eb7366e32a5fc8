import type { PromptHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Prompt `test_input_required_result_prompt`: asks for context first (input_required works on prompts/get too). */
export const get: PromptHandlers['test_input_required_result_prompt']['get'] = async (
  _args,
  ctx,
) => {
  const answer = ctx.accepted<{ context: string }>('user_context');
  if (typeof answer?.context !== 'string') {
    return ctx.ask({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        }),
      },
    });
  }
  return `Use this context: ${answer.context}`;
};
