import type { ResourceHandlers } from '../../generated/handlers.js';
import { listNotes, tagCounts } from '../../store.js';

/** Resource `stats` (Statistics): counts of notes and tags, as JSON. */
export const read: ResourceHandlers['stats'] = async () => {
  const notes = listNotes();
  const byTag = tagCounts();
  const stats = {
    notes: notes.length,
    untagged: notes.filter((note) => note.tags.length === 0).length,
    tags: byTag.size,
    byTag: Object.fromEntries(byTag),
  };
  return JSON.stringify(stats, null, 2);
};
