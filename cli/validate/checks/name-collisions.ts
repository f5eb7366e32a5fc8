import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { fileBase, identifier, typeName } from '../../normalize/names.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

/** What an entry's name turns into in the generated project (as normalize derives it). */
interface Derived {
  path: JsonPath;
  kind: string;
  name: string;
  ident: string;
  fileBase: string;
  /** Type names it claims in types.ts. */
  types: string[];
}

const KINDS: [top: string, kind: string][] = [
  ['tools', 'tool'],
  ['resources', 'resource'],
  ['resourceTemplates', 'resource template'],
  ['prompts', 'prompt'],
];

/**
 * Names that are distinct in the manifest but collide once derived: `get-sum` and `get_sum` give
 * the same identifier; `Notes` and `notes` give handler files that clash on macOS and Windows;
 * a tool `get_forecast` and a shared schema `GetForecastInput` give the same type name. Checked
 * here, not while building, so `validate` rejects exactly what `generate` would.
 */
export function checkNameCollisions(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const data = m.data;
  const report = (e: Derived, what: string, other: string) =>
    out.push(
      diagAt(m, e.path, Codes.NAME_COLLISION, `${e.kind} \`${e.name}\` and ${other} both become the ${what}`, {
        key: true,
        hint: 'rename one of them; wire names may differ only in ways that survive the conversion to identifiers and file names',
      }),
    );

  const groups = KINDS.map(([top, kind]) =>
    // Sorted by wire name, as normalize orders entries: the later name is the one reported.
    sortedEntries(data[top]).map(([name, v]): Derived => {
      const base = typeName(name);
      const types: string[] = [];
      if (isRecord(v)) {
        if (top === 'tools') {
          if (v.input) types.push(`${base}Input`);
          if (v.output) types.push(`${base}Output`);
        } else if (top === 'resourceTemplates') types.push(`${base}Params`);
        else if (top === 'prompts' && isRecord(v.arguments) && Object.keys(v.arguments).length)
          types.push(`${base}Args`);
      }
      return { path: [top, name], kind, name, ident: identifier(name), fileBase: fileBase(name), types };
    }),
  );

  for (const entries of groups) {
    const idents = new Map<string, string>();
    const files = new Map<string, string>();
    for (const e of entries) {
      const i = idents.get(e.ident);
      if (i !== undefined) report(e, `identifier \`${e.ident}\``, `${e.kind} \`${i}\``);
      else idents.set(e.ident, e.name);
      const f = files.get(e.fileBase.toLowerCase());
      if (f !== undefined && i === undefined)
        report(
          e,
          `handler file \`${e.fileBase}.ts\` (file names are case-insensitive on macOS and Windows)`,
          `${e.kind} \`${f}\``,
        );
      else files.set(e.fileBase.toLowerCase(), e.name);
    }
  }

  // Type names share one namespace in types.ts: shared schemas first, then tools, templates, prompts.
  const types = new Map<string, string>();
  for (const [name] of sortedEntries(data.schemas)) types.set(typeName(name), `schema \`${name}\``);
  const order = [groups[0]!, groups[2]!, groups[3]!];
  for (const entries of order)
    for (const e of entries)
      for (const t of e.types) {
        const prev = types.get(t);
        if (prev !== undefined) report(e, `type \`${t}\` in types.ts`, prev);
        else types.set(t, `${e.kind} \`${e.name}\``);
      }
  return out;
}

function sortedEntries(v: unknown): [string, unknown][] {
  return recordEntries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
