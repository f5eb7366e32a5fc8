import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_input_required_result_request_state`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_request_state'] = async (
  _input,
  ctx,
) => {
  const state = ctx.requestState<{ step: string }>();
  const answer = ctx.inputResponse('confirm');
  if (state?.step !== 'confirm' || answer.kind !== 'elicit') {
    return ctx.ask({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: 'Please confirm',
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          },
        }),
      },
      requestState: await ctx.signState({ step: 'confirm' }),
    });
  }
  return `state-ok: confirmed=${JSON.stringify(answer.content?.ok ?? false)}`;
};
