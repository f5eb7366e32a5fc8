import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Scalar,
  type Document,
  type LineCounter,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import type { JsonPath } from '../manifest/json-path.js';
import type { LoadedManifest, LocateOptions, Range } from './types.js';

/** Resolves JSON paths of the loaded data back to YAML source ranges. */
export class Locator {
  constructor(
    private readonly doc: Document,
    private readonly lc: LineCounter,
    private readonly source: string,
  ) {}

  private lineStarts?: number[];

  /** Range of an absolute source span [start, end), clamped to the source. */
  span(start: number, end: number): Range {
    const s = clamp(start, this.source.length);
    let e = Math.max(s, clamp(end, this.source.length));
    // A block node's end includes the newline (and indentation) that ends it; editors expect the range on the text.
    while (e > s && /\s/.test(this.source[e - 1]!)) e--;
    const a = this.position(s);
    const b = this.position(e);
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  }

  /**
   * 1-based line and column of an offset, counted on the source itself: the parser's LineCounter
   * only knows the newlines of tokens it lexed, which after a syntax error is not all of them.
   */
  private position(offset: number): { line: number; col: number } {
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

  range(path: JsonPath, opts: LocateOptions = {}): Range {
    const hit = this.find(path);
    const node = opts.key && hit.complete && hit.key ? hit.key : hit.node;
    if (!node?.range) return { line: 1, column: 1, endLine: 1, endColumn: 1 };
    return this.span(node.range[0], node.range[1]);
  }

  /**
   * Range of the characters [start, end) of the string value at `path` — the exact spot of a bad
   * character in a URI template or of a `{{placeholder}}` — when the source shows the value verbatim
   * (plain or quoted without escapes) or the snippet occurs in it unchanged; else the whole value.
   */
  rangeInString(path: JsonPath, start: number, end: number): Range {
    const hit = this.find(path);
    const node = hit.node;
    if (!hit.complete || !isScalar(node) || typeof node.value !== 'string' || !node.range) return this.range(path);
    const value = node.value;
    const raw = this.source.slice(node.range[0], node.range[1]);
    const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
    if ((node.type === Scalar.PLAIN && raw === value) || (quoted && raw.slice(1, -1) === value)) {
      const base = node.range[0] + (quoted ? 1 : 0);
      return this.span(base + start, base + end);
    }
    const needle = value.slice(start, end);
    if (needle.length > 0 && !needle.includes('\n')) {
      const nth = countOccurrences(value.slice(0, start), needle);
      let at = quoted ? 1 : 0;
      for (let k = 0; at >= 0 && k <= nth; k++) at = raw.indexOf(needle, k === 0 ? at : at + needle.length);
      if (at >= 0) return this.span(node.range[0] + at, node.range[0] + at + needle.length);
    }
    return this.range(path);
  }

  /** Walks the YAML tree along `path`, following aliases and merge keys. */
  private find(path: JsonPath): { node: Node | null; key?: Node; complete: boolean } {
    let node = this.doc.contents as Node | null;
    let key: Node | undefined;
    for (const seg of path) {
      const cur = this.deref(node);
      let next: { value: Node | null; key?: Node } | undefined;
      if (isMap(cur)) {
        const pair = this.findPair(cur, String(seg), 0);
        if (pair) next = { value: (pair.value as Node | null) ?? (pair.key as Node), key: pair.key as Node };
      } else if (isSeq(cur) && typeof seg === 'number') {
        const item = cur.items[seg] as Node | undefined;
        if (item) next = { value: item };
      }
      if (!next) return { node, ...(key ? { key } : {}), complete: false };
      node = next.value;
      key = next.key;
    }
    return { node, ...(key ? { key } : {}), complete: true };
  }

  private findPair(map: YAMLMap, key: string, depth: number): Pair | undefined {
    // Own keys win over merged ones (YAML merge semantics); depth guards against alias loops.
    const own = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key && !isMergeKey(p));
    if (own || depth > 20) return own;
    for (const p of map.items) {
      if (!isMergeKey(p)) continue;
      const sources = isSeq(p.value) ? p.value.items : [p.value];
      for (const s of sources) {
        const target = this.deref(s as Node | null);
        const found = isMap(target) ? this.findPair(target, key, depth + 1) : undefined;
        if (found) return found;
      }
    }
    return undefined;
  }

  private deref(node: Node | null): Node | null {
    for (let i = 0; i < 20 && isAlias(node); i++) node = (node.resolve(this.doc) as Node | undefined) ?? null;
    return node;
  }
}

/** With `merge: true` the yaml package parses a `<<` key as Symbol('<<'). */
export function isMergeKey(p: Pair): boolean {
  const v = isScalar(p.key) ? p.key.value : undefined;
  return v === '<<' || (typeof v === 'symbol' && v.description === '<<');
}

function clamp(n: number, max: number): number {
  return Number.isFinite(n) ? Math.min(Math.max(0, n), max) : 0;
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

const locators = new WeakMap<LoadedManifest, Locator>();

export function attachLocator(m: LoadedManifest, locator: Locator): void {
  locators.set(m, locator);
}

/** Precise range inside a string value (see Locator.rangeInString); the whole value for manifests built by hand. */
export function locateInString(m: LoadedManifest, path: JsonPath, start: number, end: number): Range {
  return locators.get(m)?.rangeInString(path, start, end) ?? m.locate(path);
}
