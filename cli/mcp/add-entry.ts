import { replaceAtomic } from '../write/write.js';
import { isDeepStrictEqual } from 'node:util';
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { yamlLib } from '../load/yaml-lib.js';
import { KINDS, type RenameKind } from '../rename/kinds.js';
import { type Checked, checkManifestFile, checkManifestText } from './check-manifest.js';
import { ToolRefusal } from './project.js';

export interface Added {
  /** The manifest's section the entry went into. */
  section: string;
  /** Where the entry's key is in the new text (1-based). */
  line: number;
  /** `inserted`: the user's text kept as written; `reprinted`: the Document API printed the whole manifest. */
  layout: 'inserted' | 'reprinted';
  checked: Checked;
}

export function addEntry(
  manifest: { abs: string; display: string },
  kind: RenameKind,
  name: string,
  definition: unknown,
): Added {
  const section = KINDS[kind].section;
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition))
    throw new ToolRefusal(
      `definition must be an object: the ${kind}'s keys as they would be written under ${section}.${name}`,
    );
  const before = checkManifestFile(manifest.abs, manifest.display);
  if (!before.manifest || before.errors > 0)
    throw new ToolRefusal(
      `${manifest.display} has errors; fix them (the validate tool lists them) before adding entries; nothing was written`,
      { diagnostics: before.diagnostics.filter((d) => d.severity === 'error') },
    );
  const data = before.manifest.data as Record<string, unknown>;
  const entries = data[section];
  if (entries !== null && entries !== undefined && (typeof entries !== 'object' || Array.isArray(entries)))
    throw new ToolRefusal(`${section} in ${manifest.display} is not a mapping; nothing was written`);
  if (entries && Object.hasOwn(entries, name))
    throw new ToolRefusal(
      `${kind} "${name}" already exists in ${manifest.display}; pick another name, or use rename_entry; nothing was written`,
      { existing: Object.keys(entries as object) },
    );

  const source = before.manifest.source;
  const expected = { ...data, [section]: { ...((entries as object | null) ?? {}), [name]: definition } };
  // The plain value the agent sent (no undefined, no prototypes): what the YAML must read back as.
  const plainExpected = JSON.parse(JSON.stringify(expected)) as unknown;
  const candidates = [inserted(source, section, name, definition), reprinted(source, section, name, definition)];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const after = checkManifestText(manifest.abs, manifest.display, candidate.text);
    if (!after.manifest || !isDeepStrictEqual(JSON.parse(JSON.stringify(after.manifest.data)), plainExpected)) continue;
    if (after.errors > 0)
      throw new ToolRefusal(
        `with this ${kind}, ${manifest.display} would not validate (${after.errors} error${after.errors === 1 ? '' : 's'}); nothing was written`,
        { diagnostics: after.diagnostics.filter((d) => d.severity === 'error') },
      );
    replaceAtomic(manifest.abs, candidate.text);
    const line = after.manifest.locate([section, name], { key: true }).line;
    return { section, line, layout: candidate.layout, checked: after };
  }
  throw new ToolRefusal(
    `could not add ${kind} "${name}" to ${manifest.display} without changing other data (anchors or merge keys?); add it by hand; nothing was written`,
  );
}

/** The entry's text inserted after the last entry of a block section, or the section appended; undefined for a flow section. */
export function inserted(
  source: string,
  section: string,
  name: string,
  definition: unknown,
): { text: string; layout: 'inserted' } | undefined {
  const Y = yamlLib();
  const doc = Y.parseDocument(source) as Document.Parsed;
  if (doc.errors.length || !Y.isMap(doc.contents)) return undefined;
  const nl = source.includes('\r\n') ? '\r\n' : '\n';
  const pair = doc.contents.items.find((p: Pair) => Y.isScalar(p.key) && p.key.value === section) as
    | Pair<Node, Node | null>
    | undefined;
  if (!pair) {
    const body = entryText(name, definition, 2, 2, nl);
    const head = source.length === 0 || source.endsWith('\n') ? source : source + nl;
    return { text: `${head}${nl}${section}:${nl}${body}`, layout: 'inserted' };
  }
  const map = pair.value;
  if (!Y.isMap(map) || (map as YAMLMap).flow || !map.range || (map as YAMLMap).items.length === 0) return undefined;
  const first = (map as YAMLMap).items[0] as Pair<Node>;
  if (!first.key?.range || !(pair.key as Node).range) return undefined;
  const indent = columnOf(source, first.key.range[0]);
  const step = Math.max(1, indent - columnOf(source, (pair.key as Node).range![0]));
  let at = map.range[2];
  // Insert at a line start: after the rest of the line the section's last value ends on.
  if (at > 0 && source[at - 1] !== '\n') {
    const eol = source.indexOf('\n', at);
    at = eol < 0 ? source.length : eol + 1;
  }
  const lead = at === source.length && !source.endsWith('\n') ? nl : '';
  return {
    text: source.slice(0, at) + lead + entryText(name, definition, indent, step, nl) + source.slice(at),
    layout: 'inserted',
  };
}

/** The whole manifest printed by the Document API with the entry set in (comments kept). */
export function reprinted(
  source: string,
  section: string,
  name: string,
  definition: unknown,
): { text: string; layout: 'reprinted' } | undefined {
  const Y = yamlLib();
  const doc = Y.parseDocument(source);
  if (doc.errors.length) return undefined;
  doc.setIn([section, name], doc.createNode(definition));
  return { text: doc.toString({ lineWidth: 0 }), layout: 'reprinted' };
}

/** `name:` and its definition as block YAML, every line indented by `indent`, nested levels by `step`. */
function entryText(name: string, definition: unknown, indent: number, step: number, nl: string): string {
  const Y = yamlLib();
  const text = new Y.Document({ [name]: definition }).toString({ indent: step, lineWidth: 0 });
  const pad = ' '.repeat(indent);
  return text
    .split('\n')
    .filter((l, i, all) => !(i === all.length - 1 && l === ''))
    .map((l) => (l === '' ? '' : pad + l) + nl)
    .join('');
}

export function columnOf(source: string, offset: number): number {
  return offset - (source.lastIndexOf('\n', offset - 1) + 1);
}
