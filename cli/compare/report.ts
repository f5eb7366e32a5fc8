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
 * The line of the entry in the head manifest; for one removed, its section's key (`tools:`), the
 * nearest place left that names it.
 */
export function locate(head: LoadedManifest, c: ApiChange, gone: boolean): LocatedChange {
  const section = c.kind === 'transport' ? 'transports' : sectionOf(c.kind);
  const at = gone ? [section] : [section, c.entry];
  const r = head.locate(at, { key: true });
  return { ...c, file: head.file, line: r.line, column: r.column };
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
