import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `protocol_error_job`: a JSON-RPC error, so the task ends `failed` with that error. */
export const handler: ToolHandlers['protocol_error_job'] = async () => {
  throw new ProtocolError(ProtocolErrorCode.InternalError, 'the job crashed');
};
