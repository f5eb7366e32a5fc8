import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `greet`: the tasks scenarios' synchronous tool. */
export const handler: ToolHandlers['greet'] = ({ name }) => `Hello, ${name}!`;
