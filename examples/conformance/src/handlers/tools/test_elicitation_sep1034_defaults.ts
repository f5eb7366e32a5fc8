import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_elicitation_sep1034_defaults`: a conformance fixture. */
export const handler: ToolHandlers['test_elicitation_sep1034_defaults'] = async (_input, ctx) => {
  const answer = ctx.inputResponse('form');
  if (answer.kind !== 'elicit') {
    return ctx.ask({
      inputRequests: {
        form: inputRequired.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: {
                type: 'string',
                description: 'User name',
                default: 'John Doe',
              },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: {
                type: 'number',
                description: 'User score',
                default: 95.5,
              },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: {
                type: 'boolean',
                description: 'Verification status',
                default: true,
              },
            },
            required: [],
          },
        }),
      },
    });
  }
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
};
