/**
 * Merging imported tools into the manifest. Each imported entry carries
 * `imported: { from, operation, digest }`, the digest hashing the entry as written together with
 * the shared schemas it refers to, as the manifest holds them. On a re-import an entry that still
 * matches its digest is the importer's to update, rename or remove; one that does not was edited by
 * the user and is kept, and so are the shared schemas it refers to; entries without `imported` are
 * never touched.
 *
 * A shared schema is the import's when an entry it imported from the same document refers to it;
 * an upstream schema whose name a schema of someone else's holds (the user's, another document's)
 * is imported under a free name (`Owner2`), its refs rewritten.
 */
import { isDeepStrictEqual } from 'node:util';
import { sha256hex } from '../../hash.js';
import type { ImportedTool } from './operations.js';
import { isObject, type Schema, sharedRefs } from './schemas.js';
import { anchoredEntries, type Edits, editManifest, newManifest } from './text.js';

export type MergeAction = 'added' | 'updated' | 'unchanged' | 'kept' | 'removed' | 'skipped';

export interface MergeItem {
  action: MergeAction;
  /** The tool's key in the manifest. */
  name: string;
  operation: string;
  /** Why an entry was kept, skipped or not renamed, or the key it was renamed from. */
  reason?: string;
}

export interface MergeInput {
  /** The manifest's current text; undefined when it does not exist yet. */
  source: string | undefined;
  /** Its data (`{}` for a new one). */
  data: Schema;
  /** The document's path as recorded in `imported.from` (relative to the manifest, with `/`). */
  from: string;
  tools: ImportedTool[];
  schemas: Map<string, Schema>;
  /** Every operation the document has (selected or not): an entry is removed only when its operation is gone. */
  operations: Set<string>;
  api: { name: string; entry: Schema };
  /** The `server` section of a manifest created from scratch. */
  server: Schema;
}

export interface SchemaReport {
  added: string[];
  updated: string[];
  kept: string[];
  removed: string[];
  /** Upstream schemas imported under another name, since the name is held by a schema not the import's. */
  renamed: { from: string; to: string }[];
  /** Why each kept schema was kept. */
  reasons: Record<string, string>;
}

export interface MergeResult {
  text: string;
  items: MergeItem[];
  schemas: SchemaReport;
  apiAdded: boolean;
}

/** An entry of this document already in the manifest. */
interface Mine {
  key: string;
  entry: Schema;
  digest: unknown;
  clean: boolean;
}

/** An entry the import means to write, under `key`. */
interface Write {
  key: string;
  entry: Schema;
  operation: string;
  item: MergeItem;
  /** The digest the entry it replaces carries, when one does under the same key. */
  oldDigest?: unknown;
}

const HELD = 'referred to by entries this import leaves as they are';
const ANCHORED = 'an alias elsewhere in the manifest refers to an anchor in it';

export function mergeImport(input: MergeInput): MergeResult {
  const m = new Merge(input);
  m.removeGone();
  for (const t of input.tools) m.place(t);
  const schemaWrites = m.decideSchemas();
  const toolWrites = m.finishTools();
  const removed = m.unusedSchemas(toolWrites);
  const { data, source } = input;
  const apiAdded = !(isObject(data.apis) && Object.hasOwn(data.apis, input.api.name)) && toolWrites.size > 0;
  const result = { items: m.items, schemas: m.report };
  // Nothing to change: the text stays byte for byte (a large manifest is not even parsed for editing).
  if (source !== undefined && !toolWrites.size && !m.removals.size && !schemaWrites.size && !removed.length)
    return { text: source, ...result, apiAdded: false };
  const edits: Edits = {
    apis: { set: new Map(apiAdded ? [[input.api.name, input.api.entry]] : []), remove: [] },
    schemas: { set: schemaWrites, remove: removed },
    tools: { set: toolWrites, remove: [...m.removals.keys()] },
  };
  const text =
    source === undefined ? newManifest({ version: 1, server: input.server }, edits) : editManifest(source, data, edits);
  return { text, ...result, apiAdded };
}

/** One merge's state: what the manifest holds, and what the import decides entry by entry. */
class Merge {
  readonly items: MergeItem[] = [];
  readonly report: SchemaReport = { added: [], updated: [], kept: [], removed: [], renamed: [], reasons: {} };
  /** Keys removed, with their operation. */
  readonly removals = new Map<string, string>();
  private readonly writes = new Map<string, Write>();
  private readonly gone = new Map<string, MergeItem>();
  private readonly tools: Schema;
  private readonly current: Schema;
  private readonly mine: Map<string, Mine[]>;
  private readonly owned = new Set<string>();
  private readonly names: Map<string, string>;
  /** The shared schemas as the document has them, under their manifest names, over the manifest's. */
  private readonly upstream: Schema;
  /** The manifest's current schemas once the decided ones are written. */
  private readonly after: Schema;
  private anchored?: Record<'tools' | 'schemas', Set<string>>;

  constructor(private readonly input: MergeInput) {
    this.tools = isObject(input.data.tools) ? input.data.tools : {};
    this.current = isObject(input.data.schemas) ? input.data.schemas : {};
    this.mine = entriesOf(this.tools, this.current, input.from);
    for (const list of this.mine.values())
      for (const m of list) closureIn(sharedRefs(m.entry), this.current, this.owned);
    this.names = schemaNames(input.schemas, this.current, this.owned);
    this.upstream = { ...this.current };
    for (const [n, v] of input.schemas) this.upstream[this.names.get(n)!] = renameRefs(v, this.names);
    this.after = { ...this.current };
  }

  /** Whether an entry holds an anchor aliased elsewhere (the text is parsed only when it matters). */
  private pinned(section: 'tools' | 'schemas', key: string): boolean {
    if (this.input.source === undefined) return false;
    this.anchored ??= anchoredEntries(this.input.source);
    return this.anchored[section].has(key);
  }

  /** Entries whose operation is gone, first: a new operation may take the key of one (a renamed operationId). */
  removeGone(): void {
    for (const [operation, list] of this.mine) {
      if (this.input.operations.has(operation)) continue; // not selected this time: left as it is
      for (const old of list) {
        const reason = !old.clean
          ? 'edited; its operation is gone'
          : this.pinned('tools', old.key)
            ? `its operation is gone, but ${ANCHORED}`
            : undefined;
        const item: MergeItem = { action: reason ? 'kept' : 'removed', name: old.key, operation, reason };
        if (!reason) {
          this.removals.set(old.key, operation);
          this.gone.set(old.key, item);
        }
        this.items.push(item);
      }
    }
  }

  /** An operation's tool: each entry of it (a copy that kept its mark included) updated or kept, or a new one. */
  place(t: ImportedTool): void {
    const entry = renameRefs(t.entry, this.names);
    const list = this.mine.get(t.operation) ?? [];
    if (!list.length) {
      this.add(t, entry);
      return;
    }
    const digest = digestOf(entry, closureIn(sharedRefs(entry), this.upstream), this.upstream);
    for (const old of list) {
      const want = t.renamed && list.length === 1 && t.name !== old.key ? t.name : old.key;
      this.update(old, want, entry, digest, t.operation);
    }
  }

  private update(old: Mine, want: string, entry: Schema, digest: string, operation: string): void {
    const item: MergeItem = { action: 'updated', name: old.key, operation };
    this.items.push(item);
    if (!old.clean) {
      item.action = 'kept';
      item.reason = want === old.key ? 'edited' : `edited; not renamed to ${want} (rename an edited entry yourself)`;
      return;
    }
    let key = want;
    const refused =
      want === old.key ? undefined : (this.takenBy(want) ?? (this.pinned('tools', old.key) ? ANCHORED : undefined));
    if (refused) {
      item.reason = `not renamed to ${want}: ${refused}`;
      key = old.key;
    }
    if (key === old.key && old.digest === digest) {
      item.action = 'unchanged';
      return;
    }
    if (this.pinned('tools', old.key)) {
      item.action = 'kept';
      item.reason = ANCHORED;
      return;
    }
    if (key !== old.key) {
      item.name = key;
      item.reason = `renamed from ${old.key}`;
      this.removals.set(old.key, operation);
    }
    this.writes.set(key, { key, entry, operation, item, oldDigest: key === old.key ? old.digest : undefined });
  }

  private add(t: ImportedTool, entry: Schema): void {
    const item: MergeItem = { action: 'added', name: t.name, operation: t.operation };
    this.items.push(item);
    const gone = this.gone.get(t.name);
    if (gone) {
      // The key of an entry whose operation is gone (its operationId renamed): that entry is updated.
      this.items.splice(this.items.indexOf(gone), 1);
      this.removals.delete(t.name);
      item.action = 'updated';
      item.reason = `was ${gone.operation}`;
    } else {
      const holder = this.takenBy(t.name);
      if (holder) {
        item.action = 'skipped';
        item.reason = `${holder}; --rename imports it under another`;
        return;
      }
    }
    this.writes.set(t.name, { key: t.name, entry, operation: t.operation, item });
  }

  /** Who holds a key a new entry cannot take, or undefined when it is free. */
  private takenBy(key: string): string | undefined {
    if (this.writes.has(key)) return 'another imported operation has the name';
    if (!Object.hasOwn(this.tools, key)) return undefined;
    const mark = isObject(this.tools[key]) ? this.tools[key].imported : undefined;
    if (!isObject(mark)) return 'an entry of yours has the name';
    if (mark.from !== this.input.from) return `the entry imported from ${String(mark.from)} has the name`;
    return `the entry of ${String(mark.operation)} has the name`;
  }

  /** The keys of entries replaced or removed. */
  private replaced(): Set<string> {
    return new Set([...this.removals.keys(), ...[...this.writes.keys()].filter((k) => Object.hasOwn(this.tools, k))]);
  }

  /**
   * The shared schemas the written entries refer to, as they will be written: the document's, except
   * one that entries the import leaves alone refer to (or an alias pins), which stays as it is.
   */
  decideSchemas(): Map<string, unknown> {
    const { data } = this.input;
    const replaced = this.replaced();
    const others: unknown[] = [data.resources, data.resourceTemplates, data.prompts];
    for (const [key, entry] of Object.entries(this.tools)) if (!replaced.has(key)) others.push(entry);
    const held = closureIn(sharedRefs(others), this.current);
    const imported = new Set([...this.input.schemas.keys()].map((n) => this.names.get(n)!));
    const r = this.report;
    const written = new Map<string, unknown>();
    const stack = [...sharedRefs([...this.writes.values()].map((w) => w.entry))];
    const seen = new Set<string>();
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      const value = imported.has(n) ? this.upstream[n] : undefined;
      if (value !== undefined && !isDeepStrictEqual(this.current[n], value)) {
        if (!Object.hasOwn(this.current, n)) r.added.push(n);
        else if (held.has(n) || this.pinned('schemas', n)) {
          r.kept.push(n);
          r.reasons[n] = held.has(n) ? HELD : ANCHORED;
        } else r.updated.push(n);
        if (!r.kept.includes(n)) {
          written.set(n, value);
          this.after[n] = value;
        }
      }
      for (const m of sharedRefs(this.after[n])) stack.push(m);
    }
    for (const [from, to] of this.names) if (from !== to && seen.has(to)) r.renamed.push({ from, to });
    // In the document's order, as a new manifest lists them.
    const order = [...imported];
    const byOrder = (a: string, b: string) => order.indexOf(a) - order.indexOf(b);
    for (const list of [r.added, r.updated, r.kept]) list.sort(byOrder);
    return new Map([...written].sort(([a], [b]) => byOrder(a, b)));
  }

  /** The entries to write, each marked with its digest against the schemas as the manifest will hold them. */
  finishTools(): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const w of this.writes.values()) {
      const digest = digestOf(w.entry, closureIn(sharedRefs(w.entry), this.after), this.after);
      if (w.oldDigest === digest) {
        w.item.action = 'unchanged';
        this.writes.delete(w.key);
        continue;
      }
      out.set(w.key, { ...w.entry, imported: { from: this.input.from, operation: w.operation, digest } });
    }
    return out;
  }

  /** Shared schemas of the import that the replaced or removed entries used and nothing refers to any more. */
  unusedSchemas(toolWrites: Map<string, unknown>): string[] {
    const afterTools: Schema = { ...this.tools, ...Object.fromEntries(toolWrites) };
    for (const key of this.removals.keys()) delete afterTools[key];
    const referenced = closureIn(sharedRefs({ ...this.input.data, tools: afterTools, schemas: undefined }), this.after);
    const removed = this.report.removed;
    for (const key of this.replaced())
      for (const n of closureIn(sharedRefs(this.tools[key]), this.current))
        if (!referenced.has(n) && this.owned.has(n) && Object.hasOwn(this.after, n) && !removed.includes(n))
          if (!this.pinned('schemas', n)) removed.push(n);
    return removed;
  }
}

/** The entries imported from `from`, by operation, each with whether it still matches its digest. */
function entriesOf(tools: Schema, current: Schema, from: string): Map<string, Mine[]> {
  const mine = new Map<string, Mine[]>();
  for (const [key, value] of Object.entries(tools)) {
    if (!isObject(value) || !isObject(value.imported) || value.imported.from !== from) continue;
    const { imported: mark, ...entry } = value;
    const clean = digestOf(entry, closureIn(sharedRefs(entry), current), current) === mark.digest;
    const operation = String(mark.operation);
    mine.set(operation, [...(mine.get(operation) ?? []), { key, entry, digest: mark.digest, clean }]);
  }
  return mine;
}

/**
 * The manifest name of each upstream schema: its own, unless a schema that is not the import's
 * holds it with another shape (or one referring to a renamed schema); then the first free `Name2`,
 * `Name3`… (a name the import already owns is free to it, so a re-import finds the same one).
 */
function schemaNames(imported: Map<string, Schema>, current: Schema, owned: Set<string>): Map<string, string> {
  const clash = (n: string) => Object.hasOwn(current, n) && !owned.has(n);
  const moved = new Set(
    [...imported.keys()].filter((n) => clash(n) && !isDeepStrictEqual(current[n], imported.get(n))),
  );
  // A schema kept under its name must not refer to one that moved: it would point at the other shape.
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of imported.keys())
      if (clash(n) && !moved.has(n) && [...sharedRefs(imported.get(n))].some((m) => moved.has(m))) {
        moved.add(n);
        grew = true;
      }
  }
  const names = new Map<string, string>();
  const targets = new Set<string>();
  for (const n of imported.keys()) {
    let name = n;
    if (moved.has(n))
      for (let i = 2; ; i++) {
        name = `${n}${i}`;
        const free = !Object.hasOwn(current, name) || owned.has(name);
        if (free && !targets.has(name) && !imported.has(name)) break;
      }
    names.set(n, name);
    targets.add(name);
  }
  return names;
}

/** `value` with its `#/schemas/X` refs following `names`. */
function renameRefs<T>(value: T, names: Map<string, string>): T {
  if ([...names].every(([a, b]) => a === b)) return value;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const out: Schema = {};
    for (const [k, x] of Object.entries(v)) {
      const target = k === '$ref' && typeof x === 'string' && x.startsWith('#/schemas/') ? x.slice(10) : undefined;
      out[k] = target !== undefined ? `#/schemas/${names.get(target) ?? target}` : walk(x);
    }
    return out;
  };
  return walk(value) as T;
}

/** The hash an entry is marked with: the entry and the shared schemas it refers to, keys sorted. */
export function digestOf(entry: Schema, closure: Iterable<string>, schemas: Schema): string {
  const used: Schema = {};
  for (const n of [...closure].sort()) used[n] = schemas[n] ?? null;
  return sha256hex(stable({ entry, schemas: used })).slice(0, 16);
}

function closureIn(start: Set<string>, schemas: Schema, out = new Set<string>()): Set<string> {
  const stack = [...start];
  while (stack.length) {
    const n = stack.pop()!;
    if (out.has(n)) continue;
    out.add(n);
    if (Object.hasOwn(schemas, n)) for (const m of sharedRefs(schemas[n])) stack.push(m);
  }
  return out;
}

/** JSON with object keys sorted, so a digest does not depend on key order. */
function stable(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  return `{${Object.keys(v)
    .filter((k) => (v as Schema)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stable((v as Schema)[k])}`)
    .join(',')}}`;
}
