/**
 * A one-pass estimate of how deep the YAML text nests, made before the yaml package sees it: its
 * parser takes time quadratic in the depth (a million nested `[` is ten seconds) and its composer
 * recurses. The estimate follows block collections by indentation (`key:`, `- `, `? `, compact
 * `- - x`) and flow collections by brackets, and skips what cannot nest: quoted scalars (also over
 * several lines), block scalars, plain scalars with their continuation lines, comments. It may be a
 * level off on odd YAML (a flow mapping used as a key, `[a: 1]` pairs); the caller applies the
 * exact limit on the parsed tokens and uses this one only far beyond it.
 */

const SEQ = 1;
const MAP = 2;

export interface NestingScan {
  /** Offset where the estimated depth first went past `limit`. */
  at: number;
}

/**
 * The offset where the estimated depth first passed `limit`, when it went on to pass `guard`
 * (≥ limit); undefined otherwise. Stops at `guard`: the rest of the text need not be read.
 */
export function scanNesting(source: string, limit: number, guard: number): NestingScan | undefined {
  return new Scanner(source, limit, guard).run();
}

class Scanner {
  private readonly s: string;
  private readonly n: number;
  /** Columns and kinds of the open block collections, outermost first. */
  private cols: number[] = [];
  private kinds: number[] = [];
  private flow = 0;
  private crossed = -1;
  private stop = false;
  /** Lines more indented than this column continue a block scalar (kind 1) or plain scalar (kind 2). */
  private skipAbove = -1;
  private skipping = 0;
  private lineStart = 0;

  constructor(
    source: string,
    private readonly limit: number,
    private readonly guard: number,
  ) {
    this.s = source;
    this.n = source.length;
  }

  run(): NestingScan | undefined {
    let p = 0;
    while (p < this.n && !this.stop) {
      this.lineStart = p;
      const eol = this.eol(p);
      let q = p;
      while (q < eol && this.s.charCodeAt(q) === 32) q++;
      const indent = q - p;
      const blank = q >= eol || (this.isSpace(this.s.charCodeAt(q)) && this.restBlank(q, eol));
      if (this.skipping) {
        const comment = this.s.charCodeAt(q) === 35; /* # */
        if (blank || (indent > this.skipAbove && !(this.skipping === 2 && comment))) {
          p = eol + 1;
          continue;
        }
        this.skipping = 0;
      }
      if (blank || this.s.charCodeAt(q) === 35 /* # */) {
        p = eol + 1;
        continue;
      }
      if (indent === 0 && this.documentMarker(q)) {
        this.cols = [];
        this.kinds = [];
        q += 3;
        q = this.skipSep(q, eol);
        if (q >= eol) {
          p = eol + 1;
          continue;
        }
      } else if (indent === 0 && this.s.charCodeAt(q) === 37 /* % */) {
        p = eol + 1; // a directive
        continue;
      }
      while (this.cols.length > 0 && this.cols[this.cols.length - 1]! > indent) this.pop();
      p = this.node(q);
      // A flow collection or quoted scalar may have ended in the middle of a line: the rest is done.
      p = this.eol(p) + 1;
    }
    return this.stop ? { at: this.crossed } : undefined;
  }

  /** A block node starting at `p` (its first character, not a space); returns where scanning stopped. */
  private node(p: number): number {
    const eol = this.eol(p);
    for (;;) {
      if (p >= eol || this.stop) return p;
      const c = this.s.charCodeAt(p);
      const col = p - this.lineStart;
      if ((c === 45 /* - */ || c === 63 /* ? */ || c === 58) /* : */ && this.sepOrEnd(p + 1, eol)) {
        this.open(c === 45 ? SEQ : MAP, col, p);
        p = this.skipSep(p + 1, eol);
        continue;
      }
      if (c === 38 /* & */ || c === 33 /* ! */) {
        p = this.skipSep(this.tokenEnd(p, eol), eol); // an anchor or tag before the node
        continue;
      }
      if (c === 35 /* # */) return eol;
      if (c === 34 /* " */ || c === 39 /* ' */) {
        const end = this.quotedEnd(p);
        if (end <= eol) {
          const colon = this.skipSep(end, eol);
          if (this.s.charCodeAt(colon) === 58 && this.sepOrEnd(colon + 1, eol)) {
            this.open(MAP, col, p);
            return this.value(colon + 1);
          }
          return end;
        }
        return end; // a quoted scalar over several lines
      }
      if (c === 91 /* [ */ || c === 123 /* { */) return this.flowCollection(p);
      if (c === 124 /* | */ || c === 62 /* > */) return this.blockScalar(eol);
      const colon = this.keyColon(p, eol);
      if (colon >= 0) {
        this.open(MAP, col, p);
        return this.value(colon + 1);
      }
      return this.plain(eol);
    }
  }

  /** The value after an implicit key's colon at `p - 1`: on this line, or (nothing here) the lines below. */
  private value(p: number): number {
    const eol = this.eol(p);
    for (;;) {
      p = this.skipSep(p, eol);
      if (p >= eol) return p;
      const c = this.s.charCodeAt(p);
      if (c === 35 /* # */) return eol;
      if (c === 38 || c === 33) {
        p = this.tokenEnd(p, eol);
        continue;
      }
      if (c === 91 || c === 123) return this.flowCollection(p);
      if (c === 34 || c === 39) return this.quotedEnd(p);
      if (c === 124 || c === 62) return this.blockScalar(eol);
      return this.plain(eol);
    }
  }

  /** A plain scalar: the lines below more indented than its collection continue it. */
  private plain(eol: number): number {
    this.skipping = 2;
    this.skipAbove = this.innermost();
    return eol;
  }

  private blockScalar(eol: number): number {
    this.skipping = 1;
    this.skipAbove = this.innermost();
    return eol;
  }

  private innermost(): number {
    return this.cols.length > 0 ? this.cols[this.cols.length - 1]! : -1;
  }

  /** A flow collection from its opening bracket at `p` to its closer (over any number of lines). */
  private flowCollection(p: number): number {
    const s = this.s;
    // Whether a quote here starts a quoted scalar (the start of an entry), not a character of a plain one.
    let entryStart = true;
    let afterSpace = true;
    // `"a":"b"`: after a quoted scalar or a closer, a colon is a value indicator even without a space.
    let afterQuoted = false;
    for (; p < this.n; p++) {
      const c = s.charCodeAt(p);
      if (c === 91 || c === 123) {
        this.flow++;
        this.check(p);
        if (this.stop) return p;
        entryStart = true;
      } else if (c === 93 /* ] */ || c === 125 /* } */) {
        this.flow--;
        entryStart = false;
        afterQuoted = true;
        if (this.flow === 0) {
          const eol = this.eol(p);
          const colon = this.skipSep(p + 1, eol);
          // `{ a: 1 }: value` (a flow key) is left to yaml; the rest of the line is its value.
          return s.charCodeAt(colon) === 58 ? this.value(colon + 1) : p + 1;
        }
      } else if (c === 44 /* , */ || (c === 63 /* ? */ && entryStart)) {
        entryStart = true;
        afterQuoted = false;
      } else if (c === 58 /* : */) {
        const next = s.charCodeAt(p + 1);
        if (
          afterQuoted ||
          p + 1 >= this.n ||
          this.isSpace(next) ||
          next === 44 ||
          next === 91 ||
          next === 93 ||
          next === 123 ||
          next === 125
        )
          entryStart = true;
        afterQuoted = false;
      } else if ((c === 34 || c === 39) && entryStart) {
        p = this.quotedEnd(p) - 1;
        entryStart = false;
        afterQuoted = true;
        afterSpace = false;
        continue;
      } else if (c === 35 /* # */ && afterSpace) {
        p = this.eol(p) - 1;
      } else if ((c === 38 || c === 33) && entryStart) {
        p = this.tokenEnd(p, this.n) - 1; // an anchor or tag: the entry starts after it
      } else if (!this.isSpace(c)) {
        entryStart = false;
        afterQuoted = false;
      }
      afterSpace = this.isSpace(c);
    }
    return p;
  }

  private open(kind: number, col: number, at: number): void {
    const cols = this.cols;
    while (cols.length > 0 && cols[cols.length - 1]! > col) this.pop();
    if (cols.length > 0 && cols[cols.length - 1] === col) {
      const top = this.kinds[this.kinds.length - 1];
      if (top === kind) return; // the next entry of the same collection
      // A key in the column of a list ends the list (`key:\n- a\nnext: b`); a list in the column
      // of a mapping is the value of its last key.
      if (kind === MAP) {
        this.pop();
        if (cols.length > 0 && cols[cols.length - 1] === col) return;
      }
    }
    cols.push(col);
    this.kinds.push(kind);
    this.check(at);
  }

  private pop(): void {
    this.cols.pop();
    this.kinds.pop();
  }

  private check(at: number): void {
    const depth = this.cols.length + this.flow;
    if (depth > this.limit && this.crossed < 0) this.crossed = at;
    if (depth > this.guard) this.stop = true;
  }

  /** Offset after a quoted scalar opening at `p` (the end of the text when it is not closed). */
  private quotedEnd(p: number): number {
    const s = this.s;
    if (s.charCodeAt(p) === 39) {
      for (let k = p + 1; k < this.n; k++) {
        if (s.charCodeAt(k) !== 39) continue;
        if (s.charCodeAt(k + 1) === 39) k++;
        else return k + 1;
      }
      return this.n;
    }
    for (let k = p + 1; k < this.n; k++) {
      const c = s.charCodeAt(k);
      if (c === 92 /* \ */) k++;
      else if (c === 34) return k + 1;
    }
    return this.n;
  }

  /** The colon of an implicit key starting at `p` (`: ` or `:` at the end, before any comment), or -1. */
  private keyColon(p: number, eol: number): number {
    const s = this.s;
    for (let k = p; k < eol; k++) {
      const c = s.charCodeAt(k);
      if (c === 58 && this.sepOrEnd(k + 1, eol)) return k;
      if (c === 35 && k > p && this.isSpace(s.charCodeAt(k - 1))) return -1;
    }
    return -1;
  }

  private documentMarker(q: number): boolean {
    const m = this.s.slice(q, q + 3);
    return (m === '---' || m === '...') && this.sepOrEnd(q + 3, this.eol(q));
  }

  private eol(p: number): number {
    const k = this.s.indexOf('\n', p);
    return k < 0 ? this.n : k;
  }

  private tokenEnd(p: number, eol: number): number {
    while (p < eol && !this.isSpace(this.s.charCodeAt(p))) p++;
    return p;
  }

  private skipSep(p: number, eol: number): number {
    while (p < eol && this.isSpace(this.s.charCodeAt(p))) p++;
    return p;
  }

  private sepOrEnd(p: number, eol: number): boolean {
    return p >= eol || this.isSpace(this.s.charCodeAt(p));
  }

  private restBlank(p: number, eol: number): boolean {
    return this.skipSep(p, eol) >= eol;
  }

  /** Space, tab or CR (of a CRLF line end). */
  private isSpace(c: number): boolean {
    return c === 32 || c === 9 || c === 13 || c === 10;
  }
}
