import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `test_streaming_elicitation`: a conformance fixture. */
export const handler: ToolHandlers['test_streaming_elicitation'] = async (_input, ctx) => {
  const answer = ctx.accepted<{ name: string }>('user_name');
  if (!answer) {
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
