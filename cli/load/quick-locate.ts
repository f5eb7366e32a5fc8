import { isRecord, type JsonPath } from '../manifest/json-path.js';
import type { ManifestLocator } from './locators.js';
import { Style, type QuickPositions } from './quick-yaml.js';
import { rangeInScalar, SourceText } from './source-text.js';
import type { LocateOptions, Range } from './types.js';

/** ManifestLocator over the quick parse (quick-yaml.ts): the same ranges the yaml Document gives. */
export class QuickLocator implements ManifestLocator {
  private readonly text: SourceText;
  /**
   * Node ids of the children of large mappings, by the mapping's data. A Map, not a WeakMap: it
   * lives exactly as long as the locator, and weak entries add work to every garbage collection.
   */
  private readonly index = new Map<object, Map<string, number>>();

  constructor(
    private readonly data: unknown,
    private readonly pos: QuickPositions,
    source: string,
    lines: Int32Array,
  ) {
    // `lines` ends with one past the end of the text: not a line start.
    this.text = new SourceText(source, lines.subarray(0, lines.length - 1));
  }

  span(start: number, end: number): Range {
    return this.text.span(start, end);
  }

  range(path: JsonPath, opts: LocateOptions = {}): Range {
    const { id, complete } = this.find(path);
    if (opts.key && complete && this.pos.keyStart[id]! >= 0)
      return this.text.span(this.pos.keyStart[id]!, this.pos.keyEnd[id]!);
    return this.text.span(this.pos.start[id]!, this.pos.end[id]!);
  }

  rangeInString(path: JsonPath, start: number, end: number): Range {
    const { id, complete, value } = this.find(path);
    if (!complete || typeof value !== 'string') return this.range(path);
    const style = this.pos.style[id];
    const written = {
      start: this.pos.start[id]!,
      end: this.pos.end[id]!,
      plain: style === Style.Plain,
      quoted: style !== Style.Plain,
      value,
    };
    return rangeInScalar(this.text, written, start, end) ?? this.range(path);
  }

  /** The node at `path` (or the deepest one on the way), walking the data and the ids side by side. */
  private find(path: JsonPath): { id: number; complete: boolean; value: unknown } {
    let id = 0;
    let value = this.data;
    for (const seg of path) {
      let child: number | undefined;
      let next: unknown;
      if (Array.isArray(value)) {
        if (typeof seg === 'number' && seg >= 0 && seg < value.length) {
          child = this.child(id, value, seg);
          next = value[seg];
        }
      } else if (isRecord(value) && Object.hasOwn(value, String(seg))) {
        child = this.child(id, value, String(seg));
        next = value[String(seg)];
      }
      if (child === undefined) return { id, complete: false, value };
      id = child;
      value = next;
    }
    return { id, complete: true, value };
  }

  /**
   * Id of the child `seg` of collection `id` (whose data is `value`): its children follow it in
   * order, each after the subtree before. Small mappings are counted through (a diagnostic's path
   * crosses tens of thousands of them, and an index for each would be garbage-collected again and
   * again); large ones (the tools of a manifest) get an index on first lookup; lists are counted through.
   */
  private child(id: number, value: object, seg: string | number): number | undefined {
    let c = id + 1;
    if (Array.isArray(value)) {
      for (let i = 0; i < (seg as number); i++) c += this.pos.size[c]!;
      return c;
    }
    let byKey = this.index.get(value);
    if (!byKey) {
      let n = 0;
      // for…in lists own keys in Object.keys order (the quick path has no integer-like keys, no prototype keys).
      for (const k in value) {
        if (k === seg) return c;
        c += this.pos.size[c]!;
        if (++n === SCAN_LIMIT) break;
      }
      if (n < SCAN_LIMIT) return undefined;
      byKey = new Map();
      c = id + 1;
      for (const k of Object.keys(value)) {
        byKey.set(k, c);
        c += this.pos.size[c]!;
      }
      this.index.set(value, byKey);
    }
    return byKey.get(seg as string);
  }
}

/** Mappings with more keys than this are indexed by key instead of counted through. */
const SCAN_LIMIT = 32;
