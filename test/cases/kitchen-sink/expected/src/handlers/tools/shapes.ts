import type { ToolHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Tool `shapes`: Uses shared and recursive schemas
 *
 * `input` is a `ShapesInput` (src/generated/types.ts), already validated against the tool's input schema.
 * Return a `ShapesOutput`: it is validated, then sent as structuredContent and as JSON text.
 * Throw to answer with an error result (isError: true) carrying the message.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const handler: ToolHandlers['shapes'] = async (input, ctx) => {
  throw new NotImplementedError('src/handlers/tools/shapes.ts');
};
