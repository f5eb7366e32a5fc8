import type { ResourceHandlers } from '../../generated/handlers.js';
import { escapeLinkText, noteUri } from '../../markdown.js';
import { listNotes } from '../../store.js';

/** Resource `index` (All notes): the title and id of every note, as a Markdown list. */
export const read: ResourceHandlers['index'] = async () => {
  const notes = listNotes();
  if (notes.length === 0) return '# Notes\n\nNo notes yet: create one with the create_note tool.\n';
  const lines = notes.map((note) => {
    const tags = note.tags.map((tag) => ` #${tag}`).join('');
    return `- [${escapeLinkText(note.title)}](${noteUri(note.id)}) \`${note.id}\`${tags}`;
  });
  return `# Notes\n\n${lines.join('\n')}\n`;
};
