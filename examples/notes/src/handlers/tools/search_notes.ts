import type { ToolHandlers } from '../../generated/handlers.js';
import { findNotes } from '../../store.js';

/**
 * Tool `search_notes` (Search notes): Find notes whose title or text contains the query,
 * optionally with a tag. Newest first; `total` counts every match, before the limit.
 */
export const handler: ToolHandlers['search_notes'] = async ({ query, tag, limit = 20 }) => {
  // `limit` defaults here: the SDK validates input but does not apply schema defaults.
  const matches = findNotes({ query, tag });
  return { notes: matches.slice(0, limit), total: matches.length };
};
