import type { ToolHandlers } from '../../generated/handlers.js';
import { deleteNote } from '../../store.js';

/** Tool `delete_note` (Delete note): Delete a note by id. */
export const handler: ToolHandlers['delete_note'] = async ({ id }) => {
  const note = deleteNote(id);
  // Thrown, so that the client gets an isError result it can show the model.
  if (!note) throw new Error(`No note with id ${id}; search_notes finds the ids of notes`);
  return `Deleted note ${id} (${note.title}).`;
};
