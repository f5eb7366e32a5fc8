import { ResourceNotFoundError } from '@modelcontextprotocol/server';

import type { TemplateHandlers } from '../../generated/handlers.js';
import { noteToMarkdown, noteUri } from '../../markdown.js';
import { getNote, listNotes } from '../../store.js';

/** Resource template `note` (notes://note/{id}): the full text of one note, as Markdown. */
export const read: TemplateHandlers['note']['read'] = async ({ id }, uri) => {
  const note = getNote(id);
  // The SDK's own error for a missing resource, so clients see the standard error code.
  if (!note) throw new ResourceNotFoundError(uri.href);
  return noteToMarkdown(note);
};

/** Every note, so that resources/list shows them. */
export const list: TemplateHandlers['note']['list'] = async () =>
  listNotes().map((note) => ({
    uri: noteUri(note.id),
    name: note.id,
    title: note.title,
    mimeType: 'text/markdown',
  }));

/** Completion of `id`: the ids of existing notes that start with what was typed. */
export const complete: TemplateHandlers['note']['complete'] = {
  id: async (value) =>
    listNotes()
      .map((note) => note.id)
      .filter((id) => id.startsWith(value.toLowerCase())),
};
