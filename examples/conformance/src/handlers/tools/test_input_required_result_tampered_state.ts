import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_input_required_result_tampered_state`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_tampered_state'] = async (
  _input,
  ctx,
) => {
  // A tampered requestState never reaches this code: the SDK verifies it first (-32602).
  if (ctx.requestState() === undefined) {
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
  return 'state-ok';
};
