/**
 * The manifest's text as the import edits it. An existing manifest is edited in place: each entry
 * the import adds, updates or removes is spliced in or out at its node's range, written with its
 * section's indentation and the file's line ending, so every other byte (layout, comments, BOM)
 * stays as the user wrote it. A new manifest is written through the yaml Document API.
 */
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { yamlLib } from '../../load/yaml-lib.js';
import { isObject, type Schema } from './schemas.js';

export const SECTIONS = ['apis', 'schemas', 'tools'] as const;
export type Section = (typeof SECTIONS)[number];

/** What the import writes into one section: entries set (added or replaced) and keys removed. */
export interface SectionEdit {
  set: Map<string, unknown>;
  remove: string[];
}

export type Edits = Record<Section, SectionEdit>;

const STRINGIFY = { lineWidth: 0, doubleQuotedAsJSON: true } as const;

/** A new manifest: the sections in the order a reader expects (server, apis, schemas, tools). */
export function newManifest(head: Schema, edits: Edits): string {
  const Y = yamlLib();
  const doc = new Y.Document({});
  for (const [k, v] of Object.entries(head)) doc.set(k, node(doc, v));
  for (const section of SECTIONS)
    for (const [key, value] of edits[section].set) doc.setIn([section, key], node(doc, value));
  return doc.toString(STRINGIFY);
}

/** The source with the edits made; untouched bytes stay as they are. */
export function editManifest(source: string, data: Schema, edits: Edits): string {
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = source.slice(bom.length);
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const Y = yamlLib();
  const doc = Y.parseDocument(text, { merge: true, uniqueKeys: false });
  if (doc.errors.length || !Y.isMap(doc.contents) || doc.contents.flow) return bom + rewrite(doc, edits);
  const root = doc.contents as YAMLMap;
  const step = indentStep(text, root);
  const splices: Splice[] = [];
  const appended: string[] = [];
  for (const section of SECTIONS) {
    const edit = edits[section];
    if (!edit.set.size && !edit.remove.length) continue;
    // The last of a key written twice: the one the data holds.
    const pair = [...root.items].reverse().find((p) => Y.isScalar(p.key) && p.key.value === section);
    if (!pair) {
      appended.push(`${section}:${eol}${renderEntries(edit.set, step, step, eol)}`);
      continue;
    }
    const made = editSection(text, pair, edit, isObject(data[section]) ? data[section] : {}, step, eol);
    if (!made) return bom + rewrite(doc, edits);
    splices.push(...made);
  }
  let out = applySplices(text, splices);
  if (appended.length) out += (out === '' || out.endsWith('\n') ? '' : eol) + appended.join('');
  return bom + out;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The edits of one section, or undefined when its shape is one splicing cannot edit (an alias). */
function editSection(
  text: string,
  pair: Pair,
  edit: SectionEdit,
  current: Schema,
  step: number,
  eol: string,
): Splice[] | undefined {
  const Y = yamlLib();
  const value = pair.value as Node | null;
  const keyRange = (pair.key as Node).range!;
  const colon = text.indexOf(':', keyRange[1]);
  const keyLineEnd = lineEnd(text, colon);
  // No value, `~`, or a flow map (`{}`, `{ a: … }`): the section is written anew as a block map.
  if (value === null || (Y.isScalar(value) && value.value === null) || (Y.isMap(value) && value.flow)) {
    const merged: Schema = { ...current };
    for (const k of edit.remove) delete merged[k];
    for (const [k, v] of edit.set) merged[k] = v;
    const end = value?.range ? lineEnd(text, Math.max(value.range[1], colon + 1)) : keyLineEnd;
    const comment = text.slice(value?.range?.[1] ?? colon + 1, end).trim();
    const tail = comment.startsWith('#') ? ` ${comment}` : '';
    const body = Object.keys(merged).length ? renderEntries(new Map(Object.entries(merged)), step, step, eol) : '';
    return [{ start: colon + 1, end, text: `${body ? '' : ' {}'}${tail}${eol}${body}` }];
  }
  if (!Y.isMap(value)) return undefined;
  const map = value as YAMLMap;
  const at = new Map<string, Pair>();
  for (const p of map.items) if (Y.isScalar(p.key)) at.set(String(p.key.value), p as Pair);
  const first = map.items[0];
  if (!first) return undefined;
  const column = columnOf(text, (first.key as Node).range![0]);
  if (column === undefined) return undefined;
  const splices: Splice[] = [];
  const added = new Map<string, unknown>();
  for (const [key, v] of edit.set) {
    const p = at.get(key);
    if (!p) added.set(key, v);
    else {
      const span = pairSpan(text, p);
      if (!span) return undefined;
      splices.push({ ...span, text: renderEntries(new Map([[key, v]]), column, step, eol) });
    }
  }
  const removed = new Set(edit.remove.filter((k) => at.has(k)));
  for (const key of removed) {
    const span = pairSpan(text, at.get(key)!);
    if (!span) return undefined;
    splices.push({ ...span, text: '' });
  }
  const last = map.items[map.items.length - 1]!;
  const lastSpan = pairSpan(text, last as Pair);
  if (!lastSpan) return undefined;
  // The last entry may end the file without a line ending.
  const sep = lastSpan.end === text.length && !text.endsWith('\n') ? eol : '';
  const block = sep + renderEntries(added, column, step, eol);
  if (added.size) splices.push({ start: lastSpan.end, end: lastSpan.end, text: block });
  // Every entry gone: `tools: {}` rather than a key with no value.
  if (!added.size && removed.size === map.items.length) splices.push({ start: colon + 1, end: colon + 1, text: ' {}' });
  return splices;
}

/** Entries as block YAML, keys at `column`, nested `step` deeper, each line ended with `eol`. */
function renderEntries(entries: Map<string, unknown>, column: number, step: number, eol: string): string {
  const Y = yamlLib();
  const doc = new Y.Document({});
  for (const [k, v] of entries) doc.set(k, node(doc, v));
  const pad = ' '.repeat(column);
  const lines = doc
    .toString({ ...STRINGIFY, indent: step })
    .replace(/\n$/, '')
    .split('\n');
  return lines.map((l) => (l ? pad + l : l) + eol).join('');
}

/**
 * From the start of the key's line to the end of the last line indented deeper than the key (its
 * value, and its own comments); blank lines after it, and a comment at the key's column, belong
 * to what follows. Read from the text: yaml's node ranges reach to the next key after a comment.
 */
function pairSpan(text: string, p: Pair): { start: number; end: number } | undefined {
  const key = (p.key as Node).range;
  if (!key) return undefined;
  const column = columnOf(text, key[0]);
  if (column === undefined) return undefined;
  const afterLine = (at: number) => {
    const nl = text.indexOf('\n', at);
    return nl < 0 ? text.length : nl + 1;
  };
  let end = afterLine(key[0]);
  for (let at = end; at < text.length; ) {
    const next = afterLine(at);
    const line = text.slice(at, next);
    if (line.trim() !== '') {
      if (/^ */.exec(line)![0].length <= column) break;
      end = next;
    }
    at = next;
  }
  return { start: key[0] - column, end };
}

/** The column of `offset` when only spaces precede it on its line. */
function columnOf(text: string, offset: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^ *$/.test(before) ? before.length : undefined;
}

/** The offset just past the line ending at or after `offset` (a range may already end there). */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** The indentation of the file's nested maps: the first block-map section's key column, else 2. */
function indentStep(text: string, root: YAMLMap): number {
  const Y = yamlLib();
  for (const p of root.items) {
    const v = p.value;
    if (Y.isMap(v) && !v.flow && v.items[0]) {
      const c = columnOf(text, (v.items[0].key as Node).range![0]);
      if (c) return c;
    }
  }
  return 2;
}

function applySplices(text: string, splices: Splice[]): string {
  // From the end, so earlier offsets stay valid; an insertion at a removal's end goes first.
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const s of sorted) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** A manifest splicing cannot edit (not a block mapping): edited through the Document API. */
function rewrite(doc: Document, edits: Edits): string {
  const Y = yamlLib();
  for (const section of SECTIONS) {
    const edit = edits[section];
    if (!edit.set.size && !edit.remove.length) continue;
    if (!Y.isMap(doc.get(section, true))) doc.set(section, doc.createNode({}));
    for (const [key, value] of edit.set) doc.setIn([section, key], node(doc, value));
    for (const key of edit.remove) doc.deleteIn([section, key]);
  }
  return doc.toString(STRINGIFY);
}

/**
 * The entries of `tools` and `schemas` holding an anchor that an alias outside them refers to:
 * replacing or removing one would leave the alias unresolved.
 */
export function anchoredEntries(source: string): Record<'tools' | 'schemas', Set<string>> {
  const out = { tools: new Set<string>(), schemas: new Set<string>() };
  if (!source.includes('&') || !source.includes('*')) return out;
  const Y = yamlLib();
  const doc = Y.parseDocument(source.replace(/^\uFEFF/, ''), { merge: true, uniqueKeys: false });
  if (!Y.isMap(doc.contents)) return out;
  const aliases: { name: string; at: number }[] = [];
  Y.visit(doc, {
    Alias(_, a) {
      aliases.push({ name: a.source, at: a.range?.[0] ?? -1 });
    },
  });
  if (!aliases.length) return out;
  for (const section of ['tools', 'schemas'] as const) {
    const map = doc.get(section, true);
    if (!Y.isMap(map)) continue;
    for (const p of map.items) {
      const anchors = new Set<string>();
      Y.visit(p.value as Node, {
        Node(_, n) {
          if (n.anchor) anchors.add(n.anchor);
        },
      });
      const start = (p.key as Node | null)?.range?.[0] ?? 0;
      const end = (p.value as Node | null)?.range?.[2] ?? start;
      if (aliases.some((a) => anchors.has(a.name) && (a.at < start || a.at >= end)))
        out[section].add(String((p.key as { value?: unknown }).value));
    }
  }
  return out;
}

/** A value as YAML nodes, short leaf collections in flow style (`{ type: string }`, `[id, name]`) as people write them. */
export function node(doc: Document, value: unknown) {
  const Y = yamlLib();
  const n = doc.createNode(value);
  Y.visit(n, {
    // One line per scalar: block scalars (`|-`) would take manifest loading off its quick path.
    Scalar(_, s) {
      if (typeof s.value === 'string' && s.value.includes('\n')) s.type = 'QUOTE_DOUBLE';
    },
    // A plain `<<` key is a merge key to the loader: a property of that name is quoted.
    Pair(_, p) {
      if (Y.isScalar(p.key) && p.key.value === '<<') p.key.type = 'QUOTE_DOUBLE';
    },
    Map(_, m) {
      if (m.items.every((p) => Y.isScalar(p.value)) && JSON.stringify(m.toJSON()).length <= 72) m.flow = true;
    },
    Seq(_, q, path) {
      // A list in a list is one flow line: `- - a` is outside the quick path's subset.
      const inList = Y.isSeq(path[path.length - 1]);
      if (inList || (q.items.every((i) => Y.isScalar(i)) && JSON.stringify(q.toJSON()).length <= 72)) q.flow = true;
    },
  });
  return n;
}
