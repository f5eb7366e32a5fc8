import type { ResourceHandlers } from '../../generated/handlers.js';
import { NotImplementedError } from '../../generated/runtime.js';

/**
 * Resource `dynamic`: Served by a handler
 *
 * Return the contents of sink://dynamic as a string (sent as text/plain), as bytes (sent as a base64 blob), or as a list of contents.
 * `ctx` has signal (cancellation), progress(done, total?, message?), log(level, data), authInfo and sessionId.
 */
export const read: ResourceHandlers['dynamic'] = async (uri, ctx) => {
  throw new NotImplementedError('src/handlers/resources/dynamic.ts');
};
