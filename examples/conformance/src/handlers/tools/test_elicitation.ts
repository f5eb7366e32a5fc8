import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_elicitation`: a conformance fixture. */
export const handler: ToolHandlers['test_elicitation'] = async ({ message }, ctx) => {
  const answer = ctx.inputResponse('user');
  if (answer.kind !== 'elicit') {
    return ctx.ask({
      inputRequests: {
        user: inputRequired.elicit({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        }),
      },
    });
  }
  return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
};
