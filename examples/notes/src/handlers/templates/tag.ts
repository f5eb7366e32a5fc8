import type { TemplateHandlers } from '../../generated/handlers.js';
import { findNotes, tagsInUse } from '../../store.js';

/**
 * Resource template `tag` (notes://tag/{tag}): the notes with a tag, newest first, as a JSON
 * array. A tag that no note has (yet) reads as an empty array rather than as an error.
 */
export const read: TemplateHandlers['tag']['read'] = async ({ tag }) =>
  JSON.stringify(findNotes({ tag }), null, 2);

/** Completion of `tag`: the tags in use that start with what was typed. */
export const complete: TemplateHandlers['tag']['complete'] = {
  tag: async (value) => tagsInUse().filter((tag) => tag.startsWith(value.toLowerCase())),
};
