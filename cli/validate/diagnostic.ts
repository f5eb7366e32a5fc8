import type { Diagnostic, Severity } from '../diagnostics.js';
import { lineStarts } from '../load/quick-yaml.js';
import type { LoadedManifest, Range } from '../load/types.js';
import { toPointer, type JsonPath } from '../manifest/json-path.js';
import { entryOf } from './describe.js';

export interface DiagOptions {
  severity?: Severity;
  /** Point at the key of the entry at `path` rather than its value. */
  key?: boolean;
  hint?: string;
  /** An explicit range (e.g. inside a string); default: the node at `path`. */
  range?: Range;
}

/** A diagnostic about the node at `path` of the manifest, with its position, JSON pointer and entry name. */
export function diagAt(
  m: LoadedManifest,
  path: JsonPath,
  code: string,
  message: string,
  opts: DiagOptions = {},
): Diagnostic {
  const r = opts.range ?? m.locate(path, opts.key ? { key: true } : undefined);
  const entry = entryOf(path);
  const d: Diagnostic = {
    code,
    severity: opts.severity ?? 'error',
    message,
    file: m.file,
    line: r.line,
    column: r.column,
    endLine: r.endLine,
    endColumn: r.endColumn,
    path: toPointer(path),
  };
  if (entry !== undefined) d.entry = entry;
  if (opts.hint) d.hint = opts.hint;
  return d;
}

/** The source text of a one-line scalar at `path` (for messages that quote what the user wrote). */
export function rawText(m: LoadedManifest, path: JsonPath): string | undefined {
  const r = m.locate(path);
  if (r.line !== r.endLine) return undefined;
  // By the line's offset, found once per manifest: checks quote text of every tool (the http:
  // checks, each path), and splitting the source on each call would make them quadratic.
  let starts = lineStartsOf.get(m);
  if (starts === undefined) lineStartsOf.set(m, (starts = lineStarts(m.source)));
  const start = starts[r.line - 1];
  if (start === undefined) return undefined;
  const end = m.source.indexOf('\n', start);
  return m.source.slice(start, end < 0 ? undefined : end).slice(r.column - 1, r.endColumn - 1);
}

const lineStartsOf = new WeakMap<LoadedManifest, Int32Array>();
