import { replaceAtomic } from '../write/write.js';
import { isDeepStrictEqual } from 'node:util';
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { yamlLib } from '../load/yaml-lib.js';
import { KINDS, type RenameKind } from '../rename/kinds.js';
import {
  type Checked,
  checkManifestFile,
  checkManifestText,
  type DiagnosticData,
  withErrors,
} from './check-manifest.js';
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

/** Why an entry cannot be added; each front end (the MCP tool, `mcpgen add`) words it for its user. */
export type AddRefusal =
  /** The manifest on disk has errors (`diagnostics`: them). */
  | { reason: 'broken'; diagnostics: DiagnosticData[] }
  /** The section is there but not a mapping. */
  | { reason: 'not-a-mapping' }
  /** An entry of that name exists (`existing`: the section's names; `line`, `column`: where its key is). */
  | { reason: 'exists'; existing: string[]; line: number; column: number }
  /** With the entry the manifest would not validate (`diagnostics`: the errors, at the lines of `text`, not written). */
  | { reason: 'invalid'; errors: number; diagnostics: DiagnosticData[]; text: string }
  /** No text found that reads back as the old data plus the entry (anchors, merge keys). */
  | { reason: 'layout' };

/** The manifest's new text with the entry, validated, or why not: nothing is written. */
export type AddPlan = ({ ok: true; text: string } & Added) | ({ ok: false; section: string } & AddRefusal);

export function planEntry(
  manifest: { abs: string; display: string },
  kind: RenameKind,
  name: string,
  definition: object,
): AddPlan {
  const section = KINDS[kind].section;
  const refuse = (r: AddRefusal): AddPlan => ({ ok: false, section, ...r });
  const before = checkManifestFile(manifest.abs, manifest.display);
  if (!before.manifest || before.errors > 0)
    return refuse({ reason: 'broken', diagnostics: before.diagnostics.filter((d) => d.severity === 'error') });
  const data = before.manifest.data as Record<string, unknown>;
  const entries = data[section];
  if (entries !== null && entries !== undefined && (typeof entries !== 'object' || Array.isArray(entries)))
    return refuse({ reason: 'not-a-mapping' });
  if (entries && Object.hasOwn(entries, name)) {
    const { line, column } = before.manifest.locate([section, name], { key: true });
    return refuse({ reason: 'exists', existing: Object.keys(entries as object), line, column });
  }

  const source = before.manifest.source;
  const expected = { ...data, [section]: { ...((entries as object | null) ?? {}), [name]: definition } };
  // The plain value sent (no undefined, no prototypes): what the YAML must read back as.
  const plainExpected = JSON.parse(JSON.stringify(expected)) as unknown;
  const candidates = [inserted(source, section, name, definition), reprinted(source, section, name, definition)];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const after = checkManifestText(manifest.abs, manifest.display, candidate.text);
    if (!after.manifest || !isDeepStrictEqual(JSON.parse(JSON.stringify(after.manifest.data)), plainExpected)) continue;
    if (after.errors > 0)
      return refuse({
        reason: 'invalid',
        errors: after.errors,
        diagnostics: after.diagnostics.filter((d) => d.severity === 'error'),
        text: candidate.text,
      });
    const line = after.manifest.locate([section, name], { key: true }).line;
    return { ok: true, text: candidate.text, section, line, layout: candidate.layout, checked: after };
  }
  return refuse({ reason: 'layout' });
}

/** add_entry: the entry added and written, or a ToolRefusal worded for an agent. */
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
  const plan = planEntry(manifest, kind, name, definition);
  if (plan.ok) {
    replaceAtomic(manifest.abs, plan.text);
    return { section, line: plan.line, layout: plan.layout, checked: plan.checked };
  }
  switch (plan.reason) {
    case 'broken':
      throw new ToolRefusal(
        withErrors(
          `${manifest.display} has errors; fix them (the validate tool lists them) before adding entries; nothing was written`,
          plan.diagnostics,
        ),
        { diagnostics: plan.diagnostics },
      );
    case 'not-a-mapping':
      throw new ToolRefusal(`${section} in ${manifest.display} is not a mapping; nothing was written`);
    case 'exists':
      throw new ToolRefusal(
        `${kind} "${name}" already exists in ${manifest.display}; pick another name, or use rename_entry; nothing was written`,
        { existing: plan.existing },
      );
    case 'invalid':
      throw new ToolRefusal(
        withErrors(
          `with this ${kind}, ${manifest.display} would not validate (${plan.errors} error${plan.errors === 1 ? '' : 's'}); nothing was written`,
          plan.diagnostics,
        ),
        { diagnostics: plan.diagnostics },
      );
    case 'layout':
      throw new ToolRefusal(
        `could not add ${kind} "${name}" to ${manifest.display} without changing other data (anchors or merge keys?); add it by hand; nothing was written`,
      );
  }
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
  // The last of a key written twice: the one the data holds.
  const pair = [...doc.contents.items].reverse().find((p: Pair) => Y.isScalar(p.key) && p.key.value === section) as
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
