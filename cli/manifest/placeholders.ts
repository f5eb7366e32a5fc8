/**
 * `{{name}}` placeholders in declarative prompt messages. The validator and the prompt renderer
 * share this one definition so they can never disagree about what counts as a placeholder.
 * Whitespace inside the braces is allowed: `{{ name }}`.
 */
export interface Placeholder {
  /** Argument name, trimmed. Empty for `{{}}`. */
  name: string;
  /** Offsets of the whole `{{…}}` in the text. */
  start: number;
  end: number;
}

export const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function findPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(PLACEHOLDER_PATTERN)) {
    out.push({ name: m[1] ?? '', start: m.index, end: m.index + m[0].length });
  }
  return out;
}
