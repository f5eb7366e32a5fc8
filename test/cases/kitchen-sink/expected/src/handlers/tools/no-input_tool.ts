import type { ToolHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Tool `no-input.tool`: A tool with no input schema and a dotted name
 *
 * The tool takes no input.
 * Return a string (one text block) or content blocks; or toolResult({...}) for full control.
 * Throw to answer with an error result (isError: true) carrying the message.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const handler: ToolHandlers['no-input.tool'] = async (input, ctx) => {
  throw new NotImplementedError('src/handlers/tools/no-input_tool.ts');
};
