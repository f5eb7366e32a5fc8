import type { ToolHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Tool `echo`: Echo the text back. Edge cases: *\/ `x` ${y} \n "q" '); process.exit(1); (' </script> {{handlebars}}   line-sep   para-sep 	 tab /* open
 *
 * `input` is a `EchoInput` (src/generated/types.ts), already validated against the tool's input schema.
 * Return a string (one text block) or content blocks; or toolResult({...}) for full control.
 * Throw to answer with an error result (isError: true) carrying the message.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const handler: ToolHandlers['echo'] = async (input, ctx) => {
  throw new NotImplementedError('src/handlers/tools/echo.ts');
};
