/**
 * "Did you mean …?" for misspelled keys and names. Compares case- and separator-insensitively
 * (`uri_template`, `URITemplate` → `uriTemplate`), then by edit distance scaled to the word length.
 */

/** Names people bring from the MCP wire format or other generators. */
const ALIASES: Record<string, string> = {
  inputschema: 'input',
  outputschema: 'output',
  _meta: 'meta',
  args: 'arguments',
  templates: 'resourceTemplates',
  params: 'params',
  contents: 'text',
  content: 'text',
};

export function suggest(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const norm = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');
  const w = norm(word);
  const alias = ALIASES[word.toLowerCase()];
  if (alias && candidates.includes(alias)) return alias;
  const same = candidates.find((c) => norm(c) === w);
  if (same) return same;
  // One- and two-letter names are too short to guess from (`b` is not a typo of `a`).
  const limit = word.length <= 2 ? 0 : word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const nc = norm(c);
    // The distance is at least the difference in length: a word far longer than every candidate
    // (a 2 MB string where a keyword belongs) is never measured, cell by cell.
    if (Math.abs(w.length - nc.length) > limit) continue;
    const d = distance(w, nc);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  if (bestDistance <= limit) return best;
  // A prefix of a long key (`desc` for `description`) is a likely abbreviation.
  if (w.length >= 4) return candidates.find((c) => norm(c).startsWith(w));
  return undefined;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** ` (did you mean `x`?)` or the empty string. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const s = suggest(word, candidates);
  return s && s !== word ? `; did you mean \`${s}\`?` : '';
}
