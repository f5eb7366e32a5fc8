import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA, sleep } from '../../fixtures.js';

/**
 * Tool `test_tool_with_task` (`inputBeforeTask`): asking before the first wait answers the
 * tools/call with input_required; the round with the answer becomes the task.
 */
export const handler: ToolHandlers['test_tool_with_task'] = async (_input, ctx) => {
  const answer = ctx.accepted<{ name: string }>('user_name');
  if (typeof answer?.name !== 'string') {
    return ctx.ask({
      inputRequests: {
        user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }),
      },
    });
  }
  await sleep(500, ctx.signal);
  return `Hello, ${answer.name}! (from task ${ctx.task?.id ?? 'none'})`;
};
