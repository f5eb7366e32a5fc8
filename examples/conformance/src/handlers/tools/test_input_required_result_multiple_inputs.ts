import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `test_input_required_result_multiple_inputs`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_multiple_inputs'] = async (
  _input,
  ctx,
) => {
  const name = ctx.accepted<{ name: string }>('user_name');
  const greeting = ctx.inputResponse('greeting');
  const roots = ctx.inputResponse('client_roots');
  if (
    !name ||
    greeting.kind !== 'sampling' ||
    roots.kind !== 'roots' ||
    ctx.requestState() === undefined
  ) {
    return ctx.ask({
      inputRequests: {
        user_name: inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: NAME_SCHEMA,
        }),
        greeting: inputRequired.createMessage({
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: 'Generate a greeting' },
            },
          ],
          maxTokens: 50,
        }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await ctx.signState({ step: 'all' }),
    });
  }
  const text = Array.isArray(greeting.result.content)
    ? ''
    : greeting.result.content.type === 'text'
      ? greeting.result.content.text
      : '';
  return `Hello ${name.name}: ${text} (${roots.roots.length} roots)`;
};
