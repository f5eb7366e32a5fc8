import type { Note } from './generated/types.js';

/** Escapes the characters that would end or nest a Markdown link text. */
export const escapeLinkText = (text: string): string => text.replace(/[\\[\]]/g, '\\$&');

export const noteUri = (id: string): string => `notes://note/${id}`;

/** One note as Markdown: the title as a heading, then the body, tags and creation time. */
export function noteToMarkdown(note: Note): string {
  const tags = note.tags.length > 0 ? note.tags.map((tag) => `#${tag}`).join(' ') : 'none';
  return [
    `# ${note.title}`,
    '',
    note.body,
    '',
    `- Id: ${note.id}`,
    `- Tags: ${tags}`,
    `- Created: ${note.createdAt}`,
    '',
  ].join('\n');
}
