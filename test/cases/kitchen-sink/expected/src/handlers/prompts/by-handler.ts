import type { PromptHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Prompt `by-handler`: Rendered by code
 *
 * Return the prompt's messages, or a string for one user text message. `args` is a `ByHandlerArgs`.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const get: PromptHandlers['by-handler']['get'] = async (args, ctx) => {
  throw new NotImplementedError('src/handlers/prompts/by-handler.ts');
};

/** Completion of the arguments: `context.arguments` holds those the user already filled in. */
export const complete: PromptHandlers['by-handler']['complete'] = {
  when: async (value, context) => [],
};
