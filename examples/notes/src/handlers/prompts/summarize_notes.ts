import type { PromptHandlers } from '../../generated/handlers.js';
import { findNotes, tagsInUse } from '../../store.js';

/** What each style the manifest offers asks for; any other style is passed on as written. */
// A Map, not an object literal, so that a style such as "toString" cannot hit Object.prototype.
const STYLES = new Map([
  ['bullets', 'as a bulleted list, one bullet per theme, at most 5 bullets'],
  ['paragraph', 'as one short paragraph'],
  ['tweet', 'as a single tweet of at most 280 characters'],
]);

/**
 * Prompt `summarize_notes` (Summarize notes): Ask the model to summarize every note with a tag.
 * The notes go into the prompt, oldest first, so the model needs no tool call to answer.
 */
export const get: PromptHandlers['summarize_notes']['get'] = async ({ tag, style = 'bullets' }) => {
  // Prompt arguments are free text, unlike the tool's validated Tag: accept "#Work" for "work".
  const wanted = tag.trim().replace(/^#/, '').toLowerCase();
  const notes = findNotes({ tag: wanted }).reverse();
  if (notes.length === 0) {
    // Still a usable prompt: the model can say so rather than the client showing an error.
    return `I have no notes tagged #${wanted} yet. Tell me so, and offer to create one.`;
  }
  const how = STYLES.get(style) ?? `in this style: ${style}`;
  const which = notes.length === 1 ? 'my note' : `my ${notes.length} notes`;
  return [
    `Summarize ${which} tagged #${wanted} ${how}. Mention the ids of the notes you draw on.`,
    ...notes.map((note) => `## ${note.title} (${note.id}, ${note.createdAt})\n\n${note.body}`),
  ].join('\n\n');
};

/** Completion of `tag`: the tags in use that start with what was typed. */
export const complete: PromptHandlers['summarize_notes']['complete'] = {
  tag: async (value) => tagsInUse().filter((tag) => tag.startsWith(value.toLowerCase())),
};
