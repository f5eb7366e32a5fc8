import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `test_input_required_result_multi_round`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_multi_round'] = async (
  _input,
  ctx,
) => {
  const state = ctx.requestState<{ round: number; name?: string }>();
  if (state === undefined) {
    return ctx.ask({
      inputRequests: {
        step1: inputRequired.elicit({
          message: 'Step 1: What is your name?',
          requestedSchema: NAME_SCHEMA,
        }),
      },
      requestState: await ctx.signState({ round: 1 }),
    });
  }
  if (state.round === 1) {
    const name = ctx.accepted<{ name: string }>('step1')?.name ?? 'anonymous';
    return ctx.ask({
      inputRequests: {
        step2: inputRequired.elicit({
          message: 'Step 2: What is your favorite color?',
          requestedSchema: {
            type: 'object',
            properties: { color: { type: 'string' } },
            required: ['color'],
          },
        }),
      },
      requestState: await ctx.signState({ round: 2, name }),
    });
  }
  const color = ctx.accepted<{ color: string }>('step2')?.color ?? 'unknown';
  return `${state.name ?? 'anonymous'} likes ${color}`;
};
