import type { Document, Node, Pair, YAMLMap } from 'yaml';
import type { JsonPath } from '../manifest/json-path.js';
import type { ManifestLocator } from './locators.js';
import { rangeInScalar, SourceText } from './source-text.js';
import type { LocateOptions, Range } from './types.js';
import { yamlLib } from './yaml-lib.js';

/** Resolves JSON paths of the loaded data back to YAML source ranges. */
export class Locator implements ManifestLocator {
  private readonly text: SourceText;
  /** Own (non-merge) pairs of each mapping by key, built on first lookup. */
  private readonly index = new WeakMap<YAMLMap, Map<string, Pair>>();

  constructor(
    private readonly doc: Document,
    source: string,
  ) {
    this.text = new SourceText(source);
  }

  span(start: number, end: number): Range {
    return this.text.span(start, end);
  }

  range(path: JsonPath, opts: LocateOptions = {}): Range {
    const hit = this.find(path);
    const node = opts.key && hit.complete && hit.key ? hit.key : hit.node;
    if (!node?.range) return { line: 1, column: 1, endLine: 1, endColumn: 1 };
    return this.span(node.range[0], node.range[1]);
  }

  rangeInString(path: JsonPath, start: number, end: number): Range {
    const { isScalar, Scalar } = yamlLib();
    const hit = this.find(path);
    const node = hit.node;
    if (!hit.complete || !isScalar(node) || typeof node.value !== 'string' || !node.range) return this.range(path);
    const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
    const written = {
      start: node.range[0],
      end: node.range[1],
      plain: node.type === Scalar.PLAIN,
      quoted,
      value: node.value,
    };
    return rangeInScalar(this.text, written, start, end) ?? this.range(path);
  }

  /** Walks the YAML tree along `path`, following aliases and merge keys. */
  private find(path: JsonPath): { node: Node | null; key?: Node; complete: boolean } {
    const { isMap, isSeq } = yamlLib();
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
    const { isMap, isSeq } = yamlLib();
    // Own keys win over merged ones (YAML merge semantics); depth guards against alias loops.
    const own = this.ownPairs(map).get(key);
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

  /** A mapping's own pairs by key: thousands of diagnostics in a map of thousands of tools must not scan it each time. */
  private ownPairs(map: YAMLMap): Map<string, Pair> {
    let pairs = this.index.get(map);
    if (!pairs) {
      const { isScalar } = yamlLib();
      pairs = new Map();
      for (const p of map.items) {
        if (!isScalar(p.key) || isMergeKey(p)) continue;
        // A repeated key: the last one is the data's value (as in JSON.parse), so the last one is its place.
        pairs.set(String(p.key.value), p);
      }
      this.index.set(map, pairs);
    }
    return pairs;
  }

  private deref(node: Node | null): Node | null {
    const { isAlias } = yamlLib();
    for (let i = 0; i < 20 && isAlias(node); i++) node = (node.resolve(this.doc) as Node | undefined) ?? null;
    return node;
  }
}

/** With `merge: true` the yaml package parses a `<<` key as Symbol('<<'). */
export function isMergeKey(p: Pair): boolean {
  const v = yamlLib().isScalar(p.key) ? (p.key as { value: unknown }).value : undefined;
  return v === '<<' || (typeof v === 'symbol' && v.description === '<<');
}
