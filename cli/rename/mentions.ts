/**
 * The manifest's own text that names the entry: the server's instructions, titles, descriptions,
 * prompt messages and static resource text, where the model reads the old name after a rename.
 * rename lists them and leaves them as written: prose is the user's to reword.
 */
import type { Node } from 'yaml';
import { yamlLib } from '../load/yaml-lib.js';

/** The keys whose string values are text for the model (at any depth: a property's description too). */
const PROSE = new Set(['instructions', 'title', 'description', 'text']);

export interface Mention {
  /** 1-based, in the manifest's text. */
  line: number;
  column: number;
  /** Where in the manifest, as `server.instructions`, `prompts.quick_note.messages[0].text`. */
  at: string;
}

/** Each place in `source` where a prose value names `name` as a word. */
export function mentionsOf(source: string, name: string): Mention[] {
  const { LineCounter, isMap, isScalar, isSeq, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lc, uniqueKeys: false });
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A word: not inside another name, a URI, a path or a `{placeholder}` (a `\n` escape before it is a break).
  const word = new RegExp(`(?:(?<=\\\\[ntr])|(?<![\\w\\-./:{]))${escaped}(?![\\w\\-}]|[./:][\\w/])`, 'g');
  const found: Mention[] = [];
  const walk = (node: Node | null | undefined, at: string) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : null;
        if (key === null) continue;
        const child = at ? `${at}${/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}` : key;
        const value = pair.value as Node | null;
        if (PROSE.has(key) && isScalar(value) && typeof value.value === 'string' && value.range) {
          const [start, end] = value.range;
          for (const m of source.slice(start, end).matchAll(word)) {
            const pos = lc.linePos(start + m.index);
            found.push({ line: pos.line, column: pos.col, at: child });
          }
        } else walk(value, child);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, `${at}[${i}]`));
  };
  walk(doc.contents as Node | null, '');
  return found;
}
