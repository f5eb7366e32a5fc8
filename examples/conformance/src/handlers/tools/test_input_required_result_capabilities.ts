import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';
import { NAME_SCHEMA } from '../../fixtures.js';

/** Tool `test_input_required_result_capabilities`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_capabilities'] = async (
  _input,
  ctx,
) => {
  const caps = ctx.clientCapabilities;
  const asked = ctx.inputResponse('ask');
  if (asked.kind === 'missing') {
    // Ask only for what the client declared.
    if (caps.elicitation) {
      return ctx.ask({
        inputRequests: {
          ask: inputRequired.elicit({
            message: 'What is your name?',
            requestedSchema: NAME_SCHEMA,
          }),
        },
      });
    }
    if (caps.sampling) {
      return ctx.ask({
        inputRequests: {
          ask: inputRequired.createMessage({
            messages: [
              {
                role: 'user',
                content: { type: 'text', text: 'What is your name?' },
              },
            ],
            maxTokens: 50,
          }),
        },
      });
    }
    if (caps.roots) return ctx.ask({ inputRequests: { ask: inputRequired.listRoots() } });
    return 'the client can answer nothing';
  }
  return `answered with ${asked.kind}`;
};
