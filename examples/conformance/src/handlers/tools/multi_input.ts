import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `multi_input`: two questions at once; the task waits until both are answered. */
export const handler: ToolHandlers['multi_input'] = (_input, ctx) => {
  const first = ctx.accepted<{ name: string }>('first');
  const second = ctx.accepted<{ name: string }>('second');
  if (!first || !second) {
    return ctx.ask({
      inputRequests: {
        first: inputRequired.elicit({ message: 'First name?', requestedSchema: NAME_SCHEMA }),
        second: inputRequired.elicit({ message: 'Second name?', requestedSchema: NAME_SCHEMA }),
      },
    });
  }
  return `Got ${first.name} and ${second.name}`;
};
