import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `test_input_required_result_elicitation`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_elicitation'] = async (
  _input,
  ctx,
) => {
  const answer = ctx.accepted<{ name: string }>('user_name');
  if (typeof answer?.name !== 'string') {
    return ctx.ask({
      inputRequests: {
        user_name: inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: NAME_SCHEMA,
        }),
      },
    });
  }
  return `Hello, ${answer.name}!`;
};
