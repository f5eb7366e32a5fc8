import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `confirm_delete`: as a task, the question shows in tasks/get and tasks/update answers it. */
export const handler: ToolHandlers['confirm_delete'] = ({ filename }, ctx) => {
  const answer = ctx.inputResponse('confirm');
  if (answer.kind !== 'elicit') {
    return ctx.ask({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `Delete ${filename}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        }),
      },
    });
  }
  return answer.action === 'accept' && answer.content?.confirm === true
    ? `Deleted ${filename}`
    : `Kept ${filename}`;
};
