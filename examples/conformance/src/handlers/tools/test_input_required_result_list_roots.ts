import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

/** Tool `test_input_required_result_list_roots`: a conformance fixture. */
export const handler: ToolHandlers['test_input_required_result_list_roots'] = async (
  _input,
  ctx,
) => {
  const answer = ctx.inputResponse('client_roots');
  if (answer.kind !== 'roots') {
    return ctx.ask({
      inputRequests: { client_roots: inputRequired.listRoots() },
    });
  }
  return `Roots: ${answer.roots.map((root) => root.uri).join(', ') || '(none)'}`;
};
