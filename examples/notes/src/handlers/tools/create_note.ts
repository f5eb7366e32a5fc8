import type { ToolHandlers } from '../../generated/handlers.js';
import { createNote } from '../../store.js';

/** Tool `create_note` (Create note): Save a new note and return it. */
export const handler: ToolHandlers['create_note'] = async ({ title, body, tags = [] }) => {
  // `tags` defaults here: the SDK validates input but does not apply the schema's `default: []`.
  return createNote({ title, body, tags });
};
