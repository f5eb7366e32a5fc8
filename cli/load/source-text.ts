import type { Range } from './types.js';

/** Offsets of the manifest text → 1-based lines and UTF-16 columns (as editors count). */
export class SourceText {
  /** @param lineStarts offsets where lines start, when already known (the quick parse counts them). */
  constructor(
    readonly source: string,
    private lineStarts?: Int32Array | number[],
  ) {}

  /** Range of an absolute source span [start, end), clamped to the source. */
  span(start: number, end: number): Range {
    const s = clamp(start, this.source.length);
    let e = Math.max(s, clamp(end, this.source.length));
    // A block node's end includes the newline (and indentation) that ends it; editors expect the range on the text.
    while (e > s && isSpace(this.source.charCodeAt(e - 1))) e--;
    const a = this.position(s);
    const b = this.position(e);
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  }

  /**
   * 1-based line and column of an offset, counted on the source itself: the parser's LineCounter
   * only knows the newlines of tokens it lexed, which after a syntax error is not all of them.
   */
  position(offset: number): { line: number; col: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = this.source.indexOf('\n'); i >= 0; i = this.source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  }
}

/** `/\s/` without a string per character: ASCII whitespace directly, the rest (NBSP, U+2028…) by the regex. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(String.fromCharCode(c));
}

function clamp(n: number, max: number): number {
  return Number.isFinite(n) ? Math.min(Math.max(0, n), max) : 0;
}

/** A scalar as written: where, how quoted, and its value. */
export interface WrittenScalar {
  start: number;
  end: number;
  plain: boolean;
  quoted: boolean;
  value: string;
}

/**
 * Range of the characters [start, end) of a string value — the exact spot of a bad character in a
 * URI template or of a `{{placeholder}}` — when the source shows the value verbatim (plain or quoted
 * without escapes) or the snippet occurs in it unchanged; undefined when it cannot be found.
 */
export function rangeInScalar(text: SourceText, node: WrittenScalar, start: number, end: number): Range | undefined {
  const value = node.value;
  const raw = text.source.slice(node.start, node.end);
  if ((node.plain && raw === value) || (node.quoted && raw.slice(1, -1) === value)) {
    const base = node.start + (node.quoted ? 1 : 0);
    return text.span(base + start, base + end);
  }
  const needle = value.slice(start, end);
  if (needle.length > 0 && !needle.includes('\n')) {
    const nth = countOccurrences(value.slice(0, start), needle);
    let at = node.quoted ? 1 : 0;
    for (let k = 0; at >= 0 && k <= nth; k++) at = raw.indexOf(needle, k === 0 ? at : at + needle.length);
    if (at >= 0) return text.span(node.start + at, node.start + at + needle.length);
  }
  return undefined;
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}
