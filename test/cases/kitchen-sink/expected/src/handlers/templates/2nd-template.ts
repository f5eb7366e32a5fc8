import type { TemplateHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Resource template `2nd-template`.
 *
 * URI template: sink://second/{name}. `params` is a `_2NdTemplateParams`: the URI's variables, decoded and validated.
 * Return the contents as a string, as bytes, or as a list of contents.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const read: TemplateHandlers['2nd-template']['read'] = async (params, uri, ctx) => {
  throw new NotImplementedError('src/handlers/templates/2nd-template.ts');
};
