/**
 * A fast path for the YAML most manifests are made of: block mappings and lists of one-line plain or
 * quoted scalars and one-line flow collections (`{ type: string }`, `[a, b]`, nested), with comments
 * between entries. It builds the data and the source range of every node in one pass, about ten
 * times faster than composing a full yaml Document. Anything outside that subset, or anything it is
 * not sure about (comments where yaml would extend a range over them, flow collections over several
 * lines or with empty entries, trailing commas or implicit pairs, block scalars, anchors, aliases,
 * tags, duplicate keys, multi-line scalars, odd indentation…), makes it decline: the caller then parses with the yaml
 * package, which also produces every YAML diagnostic. So the fast path never reports anything
 * itself; test/quick-yaml.test.ts checks that whenever it accepts, its data and ranges are those the
 * yaml package gives.
 */

import { MAX_NESTING } from './nesting.js';

/** How a node is written: the quoting of a scalar matters to ranges inside strings. */
export const Style = { Plain: 0, Single: 1, Double: 2, Collection: 3 } as const;

/**
 * Where the nodes are written, in typed arrays indexed by node id (pre-order: a node, then its
 * children in order). A large manifest has a few hundred thousand nodes; objects for each would
 * cost more garbage collection than the whole parse. A node's children are found through the data
 * (Object.keys order is insertion order: integer-like keys, which JS objects reorder, are declined).
 */
export interface QuickPositions {
  start: Int32Array;
  end: Int32Array;
  /** Key range when the node is a mapping's value; -1 otherwise. */
  keyStart: Int32Array;
  keyEnd: Int32Array;
  /** Number of nodes in the subtree, the node included: the next sibling is at id + size. */
  size: Int32Array;
  style: Uint8Array;
}

export interface QuickParse {
  data: Record<string, unknown>;
  positions: QuickPositions;
  /** Line starts (lineStarts()), for turning offsets into lines and columns. */
  lines: Int32Array;
}

/** 1 at the char codes of `chars` (all ASCII): a lookup per character without making a string of it. */
function charTable(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

/** Thrown (and caught in quickParseYaml) when the input leaves the subset. */
const DECLINE = Symbol('decline');

// Tabs, CR and control characters have rules of their own; the yaml package handles them.
const UNSUPPORTED_CHARS =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters a plain scalar cannot start with (YAML 1.2 c-indicator), plus `-?:` handled by the caller. */
const INDICATORS = charTable('-?:,[]{}#&*!|>\'"%@`');
/** Flow indicators: inside `{…}` and `[…]` they end a plain scalar. */
const FLOW = charTable(',[]{}');
/** Keys of a mapping that build JS objects differently (merge keys, prototypes). */
const SPECIAL_KEYS = new Set(['<<', '__proto__']);
/** Array-index-like keys, which JS objects list first whatever the order they were written in. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

/** A key the fast path leaves to yaml (checked by its first character before any regex: there is one per line). */
function isSpecialKey(name: string): boolean {
  const c = name.charCodeAt(0);
  if (c >= 48 && c <= 57) return INDEX_LIKE.test(name); // 0-9
  return (c === 60 /* < */ || c === 95) /* _ */ && SPECIAL_KEYS.has(name);
}

/** yaml refuses implicit keys longer than 1024 characters. */
const MAX_KEY = 1000;

/** Data and node ranges of `source`, or undefined when the fast path does not handle it. */
export function quickParseYaml(source: string): QuickParse | undefined {
  if (UNSUPPORTED_CHARS.test(source)) return undefined;
  try {
    return new QuickParser(source).document();
  } catch (err) {
    if (err === DECLINE) return undefined;
    throw err;
  }
}

function decline(): never {
  throw DECLINE;
}

class QuickParser {
  private readonly source: string;
  /** Offset of each line's start, and one past the end (so line i ends at starts[i + 1] - 1). */
  readonly starts: Int32Array;
  private readonly count: number;
  /** The current line's text, sliced once: lines are not kept (a large manifest has a hundred thousand). */
  private lineIndex = -1;
  private lineText = '';
  private lineIndent = 0;
  /** Current line. */
  private i = 0;
  /** Largest indentation of the comment lines passed since the last content line, or -1. */
  private comments = -1;
  /** The last value was a flow collection followed by comment lines more indented than its parent (see ended()). */
  private flowComments = false;
  private pos: QuickPositions;
  /** Where a parent collection's range ends when the node is its last child (a same-line comment included, as in yaml). */
  private tail: Int32Array;
  private next = 0;
  /** The data of the node parsed last. */
  private out: unknown;
  /** Set by key(): the key's value, its range, and the column after its colon. */
  private keyName = '';
  private keyStart = 0;
  private keyEnd = 0;
  private keyAfter = 0;
  /** Collections open around the current node: deeper than MAX_NESTING is left to yaml's path, which reports it. */
  private depth = 0;

  constructor(source: string) {
    this.source = source;
    this.starts = lineStarts(source);
    this.count = this.starts.length - 1;
    // A line holds at most three nodes (`- key: value` opening a list: the list, the item mapping, the value).
    const n = 3 * this.count + 1;
    this.pos = {
      start: new Int32Array(n),
      end: new Int32Array(n),
      keyStart: new Int32Array(n).fill(-1),
      keyEnd: new Int32Array(n).fill(-1),
      size: new Int32Array(n),
      style: new Uint8Array(n),
    };
    this.tail = new Int32Array(n);
  }

  document(): QuickParse {
    // Comments and blank lines before the first key (a modeline) belong to no node.
    for (; this.i < this.count; this.i++) {
      const t = this.line(this.i).trimStart();
      if (t !== '' && !t.startsWith('#')) break;
    }
    if (this.i >= this.count || this.indent() !== 0) decline();
    this.map(0, 0);
    this.skipBlank();
    if (this.i < this.count) decline();
    return { data: this.out as Record<string, unknown>, positions: this.pos, lines: this.starts };
  }

  private line(i: number): string {
    if (i !== this.lineIndex) {
      this.lineIndex = i;
      this.lineText = this.source.slice(this.starts[i]!, this.starts[i + 1]! - 1);
      this.lineIndent = indentOf(this.lineText);
    }
    return this.lineText;
  }

  /** Indentation of the current line. */
  private indent(): number {
    this.line(this.i);
    return this.lineIndent;
  }

  private node(style: number, start: number, end: number, tail: number): number {
    if (this.next === this.tail.length) this.grow();
    const id = this.next++;
    this.pos.style[id] = style;
    this.pos.start[id] = start;
    this.pos.end[id] = end;
    this.pos.size[id] = 1;
    this.tail[id] = tail;
    return id;
  }

  /** Room for more nodes: block lines hold at most three, but a flow collection on one line may hold any number. */
  private grow(): void {
    const n = this.tail.length * 2;
    const more = <T extends Int32Array | Uint8Array>(a: T, fill = 0): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      if (fill !== 0) b.fill(fill, a.length);
      return b;
    };
    const p = this.pos;
    this.pos = {
      start: more(p.start),
      end: more(p.end),
      keyStart: more(p.keyStart, -1),
      keyEnd: more(p.keyEnd, -1),
      size: more(p.size),
      style: more(p.style),
    };
    this.tail = more(this.tail);
  }

  /** Move to the next line with content, noting the comment lines passed (see ended()). */
  private skipBlank(): void {
    for (; this.i < this.count; this.i++) {
      const line = this.line(this.i);
      const n = this.indent();
      if (n === line.length) continue;
      if (line.charCodeAt(n) === 35 /* # */) {
        this.comments = Math.max(this.comments, n);
        continue;
      }
      if (n === 0 && (line.startsWith('---') || line.startsWith('...'))) decline(); // document markers
      return;
    }
  }

  /**
   * A collection at `indent` ends with comment lines before the next content (or the end). yaml
   * keeps them in that collection, so its range would run over them, unless the collection is at
   * column 0 or every one of them is less indented (then they go to the parent, which decides in
   * turn). The first case is left to yaml; comments between entries of one collection are harmless.
   */
  private ended(indent: number): void {
    if (this.comments >= indent && indent !== 0) decline();
    // A flow collection's range runs over such comments even at column 0, and so its parent's.
    if (this.flowComments) decline();
  }

  /** A block node whose first line is the current one, at `indent`. */
  private block(indent: number): number {
    const line = this.line(this.i);
    return isSeqItem(line, indent) ? this.seq(indent) : this.map(indent, indent);
  }

  /** A block mapping at `indent`; its first key is at column `col` of the current line (after `- ` in a list). */
  private map(indent: number, col: number): number {
    this.enter();
    const id = this.node(Style.Collection, 0, 0, 0);
    const data: Record<string, unknown> = {};
    let last = id;
    for (;;) {
      const line = this.line(this.i);
      const base = this.starts[this.i]!;
      if (!this.key(line, col, base)) decline();
      const name = this.keyName;
      if (Object.hasOwn(data, name) || isSpecialKey(name)) decline();
      if (last === id) this.pos.start[id] = this.keyStart;
      const keyStart = this.keyStart;
      const keyEnd = this.keyEnd;
      last = this.value(line, this.keyAfter, base, indent);
      this.pos.keyStart[last] = keyStart;
      this.pos.keyEnd[last] = keyEnd;
      data[name] = this.out;
      this.skipBlank();
      const ni = this.i < this.count ? this.indent() : -1;
      if (ni < indent) {
        this.ended(indent);
        break;
      }
      if (ni > indent || isSeqItem(this.line(this.i), ni)) decline();
      this.comments = -1;
      this.flowComments = false;
      col = indent;
    }
    return this.close(id, last, data);
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) decline();
  }

  /** Ends a collection: its range ends where its last child's does, with that child's comment. */
  private close(id: number, last: number, data: unknown): number {
    this.depth--;
    this.pos.end[id] = this.tail[id] = this.tail[last]!;
    this.pos.size[id] = this.next - id;
    this.out = data;
    return id;
  }

  /** A block list at `indent` (its `-` in that column). */
  private seq(indent: number): number {
    this.enter();
    const id = this.node(Style.Collection, this.starts[this.i]! + indent, 0, 0);
    const data: unknown[] = [];
    let last = id;
    for (;;) {
      const line = this.line(this.i);
      const base = this.starts[this.i]!;
      let col = indent + 1;
      while (line.charCodeAt(col) === 32) col++;
      if (col >= line.length) {
        // `-` alone: the item is the block below.
        this.i++;
        this.skipBlank();
        if (this.comments >= 0 || this.i >= this.count || this.indent() <= indent) decline();
        last = this.block(this.indent());
      } else if (isSeqItem(line, col)) {
        decline(); // `- - x`: a list in a list item
      } else if (line.charCodeAt(col) === 123 /* { */ || line.charCodeAt(col) === 91 /* [ */) {
        last = this.scalarLine(line, col, base, indent); // `- { a: 1 }`, `- [a, b]`
      } else if (this.key(line, col, base)) {
        last = this.map(col, col);
      } else {
        last = this.scalarLine(line, col, base, indent);
      }
      data.push(this.out);
      this.skipBlank();
      const ni = this.i < this.count ? this.indent() : -1;
      // Less indented, or a key of the mapping this list is the value of (`key:\n- a\nnext: b`).
      if (ni < indent || (ni === indent && !isSeqItem(this.line(this.i), ni))) {
        this.ended(indent);
        break;
      }
      if (ni > indent) decline();
      this.comments = -1;
      this.flowComments = false;
    }
    return this.close(id, last, data);
  }

  /** The value after `key:` (from column `col` of the current line) of a mapping at `indent`. */
  private value(line: string, col: number, base: number, indent: number): number {
    while (line.charCodeAt(col) === 32) col++;
    if (col < line.length) return this.scalarLine(line, col, base, indent);
    // Nothing after the colon: a block below, more indented, or a list in the same column.
    this.i++;
    this.skipBlank();
    if (this.i >= this.count) decline(); // an empty value: yaml places its empty node itself
    this.comments = -1; // comments between a key and its value are outside both
    const next = this.line(this.i);
    const ni = this.indent();
    if (ni > indent) return this.block(ni);
    if (ni === indent && isSeqItem(next, ni)) return this.seq(ni);
    return decline();
  }

  /** A one-line scalar or flow collection from column `col` to the end of the line (or a comment); the line must end there. */
  private scalarLine(line: string, col: number, base: number, indent: number): number {
    const c = line[col]!;
    const start = base + col;
    let id: number;
    if (c === '{' || c === '[') {
      id = this.next;
      const after = this.flow(line, col, base);
      this.tail[id] = lineTail(line, after, base, base + after);
    } else if (c === '"' || c === "'") {
      const value = quoted(line, col);
      if (value === undefined) decline();
      const end = base + quotedAfter;
      id = this.node(c === '"' ? Style.Double : Style.Single, start, end, lineTail(line, quotedAfter, base, end));
      this.out = value;
    } else {
      // `-1` is a number, `-x` text; `- x` would be a list item, and other indicators mean something else.
      if (INDICATORS[line.charCodeAt(col)] && !(c === '-' && col + 1 < line.length && line[col + 1] !== ' ')) decline();
      const hash = line.indexOf(' #', col);
      const text = (hash < 0 ? line.slice(col) : line.slice(col, hash)).trimEnd();
      if (text.includes(': ') || text.endsWith(':')) decline();
      const end = start + text.length;
      id = this.node(Style.Plain, start, end, hash < 0 ? end : base + line.trimEnd().length);
      this.out = resolvePlain(text);
    }
    this.i++;
    // A more indented line after a scalar would continue it (a multi-line scalar) or be an error.
    this.skipBlank();
    if (this.i < this.count && this.indent() > indent) decline();
    this.flowComments = this.comments > indent && this.pos.style[id] === Style.Collection;
    return id;
  }

  /**
   * A flow collection opening at column `col` (`{` or `[`) and closing on the same line; returns
   * the column after its closer. Entries are `key: value` (a space after the colon) in mappings and
   * values in lists; values are plain or quoted scalars or flow collections. Empty entries, trailing
   * commas, implicit pairs (`[a: 1]`), keys without a value and comments inside are left to yaml.
   */
  private flow(line: string, col: number, base: number): number {
    const close = line.charCodeAt(col) === 123 /* { */ ? 125 /* } */ : 93; /* ] */
    this.enter();
    const id = this.node(Style.Collection, base + col, 0, 0);
    const map: Record<string, unknown> | undefined = close === 125 ? {} : undefined;
    const list: unknown[] | undefined = map ? undefined : [];
    let k = skipSpaces(line, col + 1);
    if (line.charCodeAt(k) !== close) {
      for (;;) {
        if (map) {
          k = this.flowKey(line, k, base);
          const name = this.keyName;
          if (Object.hasOwn(map, name) || isSpecialKey(name)) decline();
          const keyStart = this.keyStart;
          const keyEnd = this.keyEnd;
          const child = this.next;
          k = this.flowValue(line, skipSpaces(line, k), base);
          this.pos.keyStart[child] = keyStart;
          this.pos.keyEnd[child] = keyEnd;
          map[name] = this.out;
        } else {
          k = this.flowValue(line, k, base);
          list!.push(this.out);
        }
        k = skipSpaces(line, k);
        const ch = line.charCodeAt(k);
        if (ch === close) break;
        if (ch !== 44 /* , */) decline();
        k = skipSpaces(line, k + 1);
        if (line.charCodeAt(k) === close) decline(); // a trailing comma
      }
    }
    k++;
    this.depth--;
    this.pos.end[id] = this.tail[id] = base + k;
    this.pos.size[id] = this.next - id;
    this.out = map ?? list;
    return k;
  }

  /** A value inside a flow collection, at column `col`; returns the column after it (sets out). */
  private flowValue(line: string, col: number, base: number): number {
    const c = line.charCodeAt(col);
    if (c === 123 /* { */ || c === 91 /* [ */) return this.flow(line, col, base);
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const value = quoted(line, col);
      if (value === undefined) decline();
      const end = base + quotedAfter;
      this.node(c === 34 ? Style.Double : Style.Single, base + col, end, end);
      this.out = value;
      return quotedAfter;
    }
    const end = flowPlainEnd(line, col);
    const text = line.slice(col, end);
    this.node(Style.Plain, base + col, base + end, base + end);
    this.out = resolvePlain(text);
    return end;
  }

  /** A key inside a flow mapping at column `col`, then `: ` (sets key*); returns the column after the colon. */
  private flowKey(line: string, col: number, base: number): number {
    const c = line.charCodeAt(col);
    let end: number;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const value = quoted(line, col);
      if (value === undefined) decline();
      this.keyName = value;
      end = quotedAfter;
    } else {
      end = flowPlainEnd(line, col);
      const text = line.slice(col, end);
      if (typeof resolvePlain(text) !== 'string') decline();
      this.keyName = text;
    }
    if (line.charCodeAt(end) !== 58 /* : */ || line.charCodeAt(end + 1) !== 32 || end - col > MAX_KEY) decline();
    this.keyStart = base + col;
    this.keyEnd = base + end;
    return end + 1;
  }

  /** A key at column `col`: a plain or quoted scalar followed by `:` and a space or the end of the line (sets key*). */
  private key(line: string, col: number, base: number): boolean {
    const c = line[col];
    if (c === undefined) return false;
    if (c === '"' || c === "'") {
      const value = quoted(line, col);
      if (value === undefined) return false;
      let at = quotedAfter;
      while (line.charCodeAt(at) === 32) at++;
      if (line[at] !== ':' || !(at + 1 === line.length || line[at + 1] === ' ')) return false;
      if (at - col > MAX_KEY) decline();
      this.keyName = value;
      this.keyStart = base + col;
      this.keyEnd = base + quotedAfter;
      this.keyAfter = at + 1;
      return true;
    }
    let colon = line.indexOf(':', col);
    while (colon >= 0 && !(colon + 1 === line.length || line[colon + 1] === ' ')) colon = line.indexOf(':', colon + 1);
    if (colon < 0) return false;
    const text = line.slice(col, colon).trimEnd();
    // A comment before the colon, an indicator, or a key that is not a string (`1:`, `null:`): not for the fast path.
    if (text === '' || INDICATORS[line.charCodeAt(col)] || text.includes(' #') || colon - col > MAX_KEY) decline();
    if (typeof resolvePlain(text) !== 'string') decline();
    this.keyName = text;
    this.keyStart = base + col;
    this.keyEnd = base + col + text.length;
    this.keyAfter = colon + 1;
    return true;
  }
}

/** Where a one-line value ending at column `after` ends with its comment; only spaces or a comment may follow it. */
function lineTail(line: string, after: number, base: number, end: number): number {
  let k = after;
  while (line.charCodeAt(k) === 32) k++;
  if (k === line.length) return end;
  if (line.charCodeAt(k) !== 35 /* # */ || k === after) decline();
  return base + line.trimEnd().length;
}

/**
 * End (exclusive, trailing spaces dropped) of a plain scalar inside a flow collection starting at
 * column `col`, as yaml's lexer ends it: at a flow indicator, at `:` before a space or an indicator,
 * at the end of the line. It must start with a character that can start a plain scalar; a comment
 * inside a flow collection makes the fast path decline.
 */
function flowPlainEnd(line: string, col: number): number {
  const c = line.charCodeAt(col);
  if (col >= line.length) decline();
  if (INDICATORS[c]) {
    // `-1`, `-x`: a plain scalar; `-` before a space, an indicator or the end is not.
    const n = line.charCodeAt(col + 1);
    if (c !== 45 /* - */ || col + 1 >= line.length || n === 32 || FLOW[n]) decline();
  }
  let end = col;
  for (let i = col; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (ch === 58 /* : */) {
      const n = line.charCodeAt(i + 1);
      if (i + 1 >= line.length || n === 32 || FLOW[n]) break;
      end = i + 1;
    } else if (ch === 32) {
      const n = line.charCodeAt(i + 1);
      if (n === 35 /* # */) decline(); // a comment: the collection goes on below
      if (FLOW[n]) break;
    } else if (ch < 128 && FLOW[ch]) {
      break;
    } else {
      end = i + 1;
    }
  }
  return end;
}

function skipSpaces(line: string, col: number): number {
  while (line.charCodeAt(col) === 32) col++;
  return col;
}

/** Offsets where lines start, plus one past the end of the text. */
export function lineStarts(source: string): Int32Array {
  let n = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) n++;
  const starts = new Int32Array(n + 1);
  let k = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts[k++] = i + 1;
  starts[n] = source.length + 1;
  return starts;
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** `- x` or a lone `-` at column `col`. */
function isSeqItem(line: string, col: number): boolean {
  return line[col] === '-' && (col + 1 === line.length || line[col + 1] === ' ');
}

const ESCAPES: Record<string, string> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  b: '\b',
  e: '\x1b',
  f: '\f',
  a: '\x07',
  v: '\v',
};

/**
 * A quoted scalar that closes on its line (else undefined: multi-line quoted scalars fold lines); `quotedAfter` is the column after it.
 * The value is sliced from the line between escapes (usually one slice): adding it up a character
 * at a time made a chain of hundreds of thousands of concatenated strings on a large manifest,
 * kept alive with the data and flattened again by whoever read it.
 */
let quotedAfter = 0;
function quoted(line: string, col: number): string | undefined {
  const q = line.charCodeAt(col);
  let value = '';
  let from = col + 1; // start of the text not yet added to value
  let k = from;
  for (;;) {
    if (k >= line.length) return undefined;
    const ch = line.charCodeAt(k);
    if (q === 39 /* ' */) {
      if (ch === 39) {
        if (line.charCodeAt(k + 1) === 39) {
          value += line.slice(from, k + 1); // `''` is one quote
          k += 2;
          from = k;
          continue;
        }
        break;
      }
    } else if (ch === 34 /* " */) {
      break;
    } else if (ch === 92 /* \ */) {
      const e = line[k + 1];
      if (e !== undefined && ESCAPES[e] !== undefined) {
        value += line.slice(from, k) + ESCAPES[e];
        k += 2;
        from = k;
        continue;
      }
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(line.slice(k + 2, k + 6))) {
        const cp = parseInt(line.slice(k + 2, k + 6), 16);
        if (cp >= 0xd800 && cp <= 0xdfff) decline(); // surrogate pairs written as escapes
        value += line.slice(from, k) + String.fromCharCode(cp);
        k += 6;
        from = k;
        continue;
      }
      decline();
    }
    k++;
  }
  quotedAfter = k + 1;
  return value === '' ? line.slice(from, k) : value + line.slice(from, k);
}

const MAYBE_NOT_TEXT = charTable('~nNtTfF0123456789+-.');

/** A plain scalar's value under the YAML 1.2 core schema, as the yaml package resolves it (schema/core). */
export function resolvePlain(s: string): unknown {
  // Most scalars are words: only these first characters can start a null, boolean or number.
  if (s !== '' && !MAYBE_NOT_TEXT[s.charCodeAt(0)]) return s;
  // Words starting with n, t or f (`type`, `name`, `format`: every other key) can only be these.
  switch (s.charCodeAt(0)) {
    case 110: // n
    case 78: // N
      return s === 'null' || s === 'Null' || s === 'NULL' ? null : s;
    case 116: // t
    case 84: // T
      return s === 'true' || s === 'True' || s === 'TRUE' ? true : s;
    case 102: // f
    case 70: // F
      return s === 'false' || s === 'False' || s === 'FALSE' ? false : s;
  }
  // Small decimal integers (`maxLength: 200`, a schema's most common number) without a regex:
  // digits only, fewer than 16 of them, so the sum is exact.
  if (s.length > 0 && s.length < 16) {
    let n = 0;
    let k = 0;
    for (; k < s.length; k++) {
      const d = s.charCodeAt(k) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (k === s.length) return n;
  }
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s))
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}
