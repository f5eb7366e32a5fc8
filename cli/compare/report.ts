/**
 * compare's output: stylish lines for a person, a JSON array for scripts, GitHub workflow
 * annotations at the head manifest's line of each changed entry.
 */
import type { LoadedManifest } from '../load/types.js';
import { escapeData, escapeProperty } from '../report/github.js';
import { type ArtifactBase, artifactPath } from '../report/locations.js';
import { type ApiChange, sectionOf } from './compare.js';

export const COMPARE_FORMATS = ['stylish', 'json', 'github'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** A change where it shows in the head manifest (`--format json`'s item). */
export interface LocatedChange extends ApiChange {
  file: string;
  line: number;
  column: number;
}

/**
 * Where the change shows in the head manifest: the key its pointer leads to (the nearest one
 * there, as the loader falls back to: the property using a shared schema, the `properties:` a
 * property left), else the entry's; for an entry removed, its section's key (`tools:`).
 */
export function locate(head: LoadedManifest, c: ApiChange, gone: boolean): LocatedChange {
  const section = c.kind === 'transport' ? 'transports' : sectionOf(c.kind);
  const at: (string | number)[] = gone ? [section] : [section, c.entry, ...manifestPath(c)];
  const r = head.locate(at, { key: true });
  return { ...c, file: head.file, line: r.line, column: r.column };
}

/** The pointer's way through the manifest's keys: `/inputSchema/…` is under `input`, a template's variables under `params`. */
function manifestPath(c: ApiChange): (string | number)[] {
  const tokens = c.pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (tokens.length === 0) return [];
  const [first, ...rest] = tokens as [string, ...string[]];
  const steps = rest.map((t) => (/^(0|[1-9]\d*)$/.test(t) ? Number(t) : t));
  if (first === 'inputSchema') return ['input', ...steps];
  if (first === 'outputSchema') return ['output', ...steps];
  if (first === 'variables') return ['params', ...steps];
  // A prompt's arguments are a map of names, not a schema: `/arguments/properties/tone` is `arguments.tone`.
  if (first === 'arguments')
    return ['arguments', ...(steps[0] === 'properties' && steps[1] !== undefined ? [steps[1]] : [])];
  return [first, ...steps];
}

export function severityText(c: ApiChange): string {
  return c.unclassified ? 'breaking (unclassified)' : c.severity;
}

function what(c: ApiChange): string {
  return `${c.kind} ${c.entry}${c.pointer ? ` ${c.pointer}` : ''}`;
}

export function formatStylish(changes: readonly LocatedChange[]): string {
  return changes.map((c) => `${c.file}:${c.line}:${c.column}: ${severityText(c)} ${what(c)}: ${c.message}\n`).join('');
}

/** The documented array (docs/cli.md#compare): fields only ever added. */
export function formatJson(changes: readonly LocatedChange[]): string {
  const items = changes.map((c) => ({
    kind: c.kind,
    entry: c.entry,
    pointer: c.pointer,
    change: c.change,
    severity: c.severity,
    unclassified: c.unclassified,
    message: c.message,
    file: c.file,
    line: c.line,
    column: c.column,
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}

/** Breaking changes as errors (warnings when allowed), compatible ones as notices. */
export function formatGithub(changes: readonly LocatedChange[], base: ArtifactBase, allowBreaking: boolean): string {
  return changes
    .map((c) => {
      const command = c.severity === 'compatible' ? 'notice' : allowBreaking ? 'warning' : 'error';
      const props = [
        ['file', artifactPath(c.file, base).path],
        ['line', String(c.line)],
        ['col', String(c.column)],
        ['title', `${severityText(c)} change: ${c.kind} ${c.entry}`],
      ]
        .map(([k, v]) => `${k}=${escapeProperty(v!)}`)
        .join(',');
      return `::${command} ${props}::${escapeData(`${what(c)}: ${c.message}`)}\n`;
    })
    .join('');
}
