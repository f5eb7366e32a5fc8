import type { CST, YAMLError } from 'yaml';
import { yamlLib } from './yaml-lib.js';

/**
 * A bracket or quote that opens and never closes. The YAML parser reports such a mistake where it
 * gives up, lines later and often several ways (every block line after an unclosed `[` is "not
 * allowed within flow collections"); the user needs the place it opened.
 */
export interface Unclosed {
  /** Offset of the opening `[`, `{`, `"` or `'`, or of a `]`, `}` that closes nothing. */
  offset: number;
  char: '[' | '{' | '"' | "'" | ']' | '}';
  /** The wrong bracket that ends a flow collection (`[1, 2}`), when one does. */
  closedBy?: { offset: number; char: string };
}

/**
 * The openers to report in a document's tokens, by offset (none, one, or a bracket and a quote).
 * A bracket whose text holds another problem (an unclosed quote, a wrong closing bracket, an
 * unclosed bracket inside it) is left unclosed by that one: the quote swallowed its closer, or the
 * inner collection took it. The first opener left is reported, and an unclosed quote after it: the
 * quote is a mistake of its own, since no bracket before it can end a string.
 */
export function findUnclosed(tokens: readonly CST.Token[]): Unclosed[] {
  const { CST: cst } = yamlLib();
  const found: (Unclosed & { end: number })[] = [];
  let quote: Unclosed | undefined;
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token) return;
    switch (token.type) {
      case 'document':
        walk(token.value);
        return;
      case 'double-quoted-scalar':
      case 'single-quoted-scalar': {
        // The test the composer makes before it reports a missing closing quote.
        const q = token.type === 'double-quoted-scalar' ? '"' : "'";
        if ((token.source.length === 1 || !token.source.endsWith(q)) && !quote)
          quote = { offset: token.offset, char: q };
        return;
      }
      case 'block-map':
      case 'block-seq':
        for (const item of token.items) visitItem(item);
        return;
      case 'flow-collection': {
        const open = token.start.source === '[' ? '[' : '{';
        const close = token.end.find((t) => t.type === 'flow-seq-end' || t.type === 'flow-map-end');
        if (!close || close.source !== (open === '[' ? ']' : '}')) {
          const end = token.offset + cst.stringify(token).length;
          const closedBy = close ? { closedBy: { offset: close.offset, char: close.source } } : {};
          found.push({ offset: token.start.offset, char: open, end, ...closedBy });
        }
        for (const item of token.items) visitItem(item);
        return;
      }
      default:
    }
  };
  const visitItem = (item: { key?: CST.Token | null; value?: CST.Token | null }): void => {
    walk(item.key);
    walk(item.value);
  };
  for (const token of tokens) walk(token);
  const openers = [...found.map((f) => f.offset), ...(quote ? [quote.offset] : [])];
  const holdsAnother = (b: { offset: number; end: number }): boolean => openers.some((o) => o > b.offset && o < b.end);
  const bracket = found.find((b) => !holdsAnother(b));
  const first = bracket && (!quote || bracket.offset < quote.offset) ? [strip(bracket)] : [];
  return quote ? [...first, quote] : first;
}

function strip({ end: _end, ...u }: Unclosed & { end: number }): Unclosed {
  return u;
}

/** A `]` or `}` that closes nothing: after it the parser finds every later token unexpected. */
export function findStrayCloser(errors: readonly YAMLError[]): Unclosed | undefined {
  for (const e of errors) {
    const m = e.code === 'UNEXPECTED_TOKEN' ? /^Unexpected flow-(seq|map)-end token/.exec(e.message) : null;
    if (m) return { offset: e.pos[0], char: m[1] === 'seq' ? ']' : '}' };
  }
  return undefined;
}

/** The message and hint for an unclosed opener; `where` names a position (`line 3, column 9`). */
export function describeUnclosed(u: Unclosed, where: (offset: number) => string): { message: string; hint: string } {
  const later = 'YAML errors after it are not reported: they may only follow from it';
  if (u.char === '"' || u.char === "'") {
    const inside = u.char === '"' ? 'write a `"` inside it as `\\"`' : "write a `'` inside it as `''`";
    return {
      message: `unclosed \`${u.char}\`: the string started here has no closing \`${u.char}\``,
      hint: `close the quote (${inside}); ${later}`,
    };
  }
  if (u.char === ']' || u.char === '}') {
    const open = u.char === ']' ? '[' : '{';
    return {
      message: `\`${u.char}\` closes nothing: no \`${open}\` is open here`,
      hint: `remove it, or add the \`${open}\` it is meant to close; ${later}`,
    };
  }
  const list = u.char === '[';
  const [close, what] = list ? [']', 'list'] : ['}', 'mapping'];
  if (u.closedBy) {
    return {
      message: `\`${u.char}\` is closed by \`${u.closedBy.char}\` at ${where(u.closedBy.offset)}: a ${what} opened with \`${u.char}\` ends with \`${close}\``,
      hint: `write \`${close}\` where the ${what} ends; ${later}`,
    };
  }
  const block = list ? 'one `- item` per line' : 'indented `key: value` lines';
  return {
    message: `unclosed \`${u.char}\`: the ${what} opened here has no closing \`${close}\``,
    hint: `add \`${close}\` after its last ${list ? 'item' : 'entry'}, or remove the \`${u.char}\` and write the ${what} as ${block}; ${later}`,
  };
}
