/**
 * Merging imported tools into the manifest's text. Each imported entry carries
 * `imported: { from, operation, digest }`, the digest hashing the entry as imported together with
 * the shared schemas it refers to. On a re-import an entry that still matches its digest is the
 * importer's to update or remove; one that does not was edited by the user and is kept, and so are
 * the shared schemas it refers to; entries without `imported` are never touched. The text is
 * edited through the yaml Document API, so comments and the layout of untouched entries stay.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'yaml';
import { sha256hex } from '../../hash.js';
import { yamlLib } from '../../load/yaml-lib.js';
import type { ImportedTool } from './operations.js';
import { isObject, type Schema, sharedRefs } from './schemas.js';

export type MergeAction = 'added' | 'updated' | 'unchanged' | 'kept' | 'removed' | 'skipped';

export interface MergeItem {
  action: MergeAction;
  /** The tool's key in the manifest. */
  name: string;
  operation: string;
  /** Why an entry was kept or skipped. */
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

export interface MergeResult {
  text: string;
  items: MergeItem[];
  schemas: { added: string[]; updated: string[]; kept: string[]; removed: string[] };
  apiAdded: boolean;
}

export function mergeImport(input: MergeInput): MergeResult {
  const data = input.data;
  const tools = isObject(data.tools) ? data.tools : {};
  const current = isObject(data.schemas) ? data.schemas : {};
  const imported = Object.fromEntries(input.schemas);
  const items: MergeItem[] = [];

  // The entries of this document already in the manifest, by operation.
  const mine = new Map<string, { key: string; entry: Schema; clean: boolean; closure: Set<string> }>();
  for (const [key, entry] of Object.entries(tools)) {
    if (!isObject(entry) || !isObject(entry.imported) || entry.imported.from !== input.from) continue;
    const { imported: mark, ...rest } = entry;
    const closure = closureIn(sharedRefs(rest), current);
    const clean = digestOf(rest, closure, current) === mark.digest;
    mine.set(String(mark.operation), { key, entry, clean, closure });
  }

  const writes = new Map<string, Schema>();
  const replaced = new Set<string>();
  const wanted = new Set<string>();
  for (const t of input.tools) {
    const digest = digestOf(t.entry, t.schemas, imported);
    const value = { ...t.entry, imported: { from: input.from, operation: t.operation, digest } };
    const old = mine.get(t.operation);
    if (old) {
      mine.delete(t.operation);
      if (!old.clean) items.push({ action: 'kept', name: old.key, operation: t.operation, reason: 'edited' });
      else if ((old.entry.imported as Schema).digest === digest)
        items.push({ action: 'unchanged', name: old.key, operation: t.operation });
      else {
        items.push({ action: 'updated', name: old.key, operation: t.operation });
        writes.set(old.key, value);
        replaced.add(old.key);
        for (const n of t.schemas) wanted.add(n);
      }
    } else if (Object.hasOwn(tools, t.name) || writes.has(t.name)) {
      items.push({
        action: 'skipped',
        name: t.name,
        operation: t.operation,
        reason: 'an entry of yours has the name; --rename imports it under another',
      });
    } else {
      items.push({ action: 'added', name: t.name, operation: t.operation });
      writes.set(t.name, value);
      for (const n of t.schemas) wanted.add(n);
    }
  }
  const removedKeys: string[] = [];
  for (const [operation, old] of mine) {
    if (input.operations.has(operation)) continue; // not selected this time: left as it is
    if (old.clean) {
      items.push({ action: 'removed', name: old.key, operation });
      removedKeys.push(old.key);
      replaced.add(old.key);
    } else items.push({ action: 'kept', name: old.key, operation, reason: 'edited; its operation is gone' });
  }

  // Shared schemas: those referred to by entries the import does not own now are the user's.
  const held = new Set<string>();
  const others: unknown[] = [data.resources, data.resourceTemplates, data.prompts];
  for (const [key, entry] of Object.entries(tools)) if (!replaced.has(key) && !writes.has(key)) others.push(entry);
  for (const n of closureIn(sharedRefs(others), current)) held.add(n);
  const schemas = { added: [] as string[], updated: [] as string[], kept: [] as string[], removed: [] as string[] };
  const schemaWrites = new Map<string, Schema>();
  for (const name of wanted) {
    const value = input.schemas.get(name)!;
    if (!Object.hasOwn(current, name)) {
      schemas.added.push(name);
      schemaWrites.set(name, value);
    } else if (!isDeepStrictEqual(current[name], value)) {
      if (held.has(name)) schemas.kept.push(name);
      else {
        schemas.updated.push(name);
        schemaWrites.set(name, value);
      }
    }
  }

  // Shared schemas the removed or replaced entries used that nothing refers to any more.
  const schemaRemovals: string[] = [];
  if (replaced.size) {
    const afterSchemas = { ...current, ...Object.fromEntries(schemaWrites) };
    const afterTools: Schema = { ...tools, ...Object.fromEntries(writes) };
    for (const key of removedKeys) delete afterTools[key];
    const referenced = closureIn(sharedRefs({ ...data, tools: afterTools, schemas: undefined }), afterSchemas);
    for (const key of replaced)
      for (const n of mine.get(key)?.closure ?? closureIn(sharedRefs(tools[key]), current))
        if (!referenced.has(n) && !held.has(n) && Object.hasOwn(afterSchemas, n) && !schemaRemovals.includes(n))
          schemaRemovals.push(n);
    schemas.removed.push(...schemaRemovals);
  }

  const apiAdded = !(isObject(data.apis) && Object.hasOwn(data.apis, input.api.name)) && writes.size > 0;
  // Nothing to change: the text stays byte for byte (a large manifest is not even parsed for editing).
  if (input.source !== undefined && !writes.size && !removedKeys.length && !schemaWrites.size && !schemaRemovals.length)
    return { text: input.source, items, schemas, apiAdded: false };

  const Y = yamlLib();
  const doc: Document = input.source === undefined ? new Y.Document({}) : Y.parseDocument(input.source);
  if (input.source === undefined) {
    doc.set('version', 1);
    doc.set('server', node(doc, input.server));
  }
  // Before shared schemas and tools: a new manifest reads server, apis, schemas, tools.
  if (apiAdded) doc.setIn(['apis', input.api.name], node(doc, input.api.entry));
  for (const [name, value] of schemaWrites) doc.setIn(['schemas', name], node(doc, value));
  for (const [key, value] of writes) doc.setIn(['tools', key], node(doc, value));
  for (const key of removedKeys) doc.deleteIn(['tools', key]);
  for (const n of schemaRemovals) doc.deleteIn(['schemas', n]);
  return { text: doc.toString({ lineWidth: 0, doubleQuotedAsJSON: true }), items, schemas, apiAdded };
}

/** A value as YAML nodes, short leaf collections in flow style (`{ type: string }`, `[id, name]`) as people write them. */
function node(doc: Document, value: unknown) {
  const Y = yamlLib();
  const n = doc.createNode(value);
  Y.visit(n, {
    // One line per scalar: block scalars (`|-`) would take manifest loading off its quick path.
    Scalar(_, s) {
      if (typeof s.value === 'string' && s.value.includes('\n')) s.type = 'QUOTE_DOUBLE';
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

/** The hash an entry is marked with: the entry and the shared schemas it refers to, keys sorted. */
export function digestOf(entry: Schema, closure: Iterable<string>, schemas: Schema): string {
  const used: Schema = {};
  for (const n of [...closure].sort()) used[n] = schemas[n] ?? null;
  return sha256hex(stable({ entry, schemas: used })).slice(0, 16);
}

function closureIn(start: Set<string>, schemas: Schema): Set<string> {
  const out = new Set<string>();
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
