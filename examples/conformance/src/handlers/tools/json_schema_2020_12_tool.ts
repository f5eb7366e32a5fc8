import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `json_schema_2020_12_tool`: a conformance fixture. */
export const handler: ToolHandlers['json_schema_2020_12_tool'] = async (input) =>
  `Received: ${JSON.stringify(input)}`;
