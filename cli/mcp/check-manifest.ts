/**
 * The validate pipeline of `mcpgen validate` (load → schema and semantic checks → lint), in
 * process, returning diagnostics as data: on the manifest on disk, or on a text not yet written
 * (add_entry checks the result before writing it).
 */
import path from 'node:path';
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js';
import { ruleByCode } from '../lint/registry.js';
import { lintManifest } from '../lint/lint.js';
import { loadManifest, loadManifestText } from '../load/load.js';
import type { LoadedManifest, LoadResult } from '../load/types.js';
import { validateManifest } from '../validate/validate.js';

/** A diagnostic as the tools return it: every key present (null when unknown), as `validate --format json` does. */
export interface DiagnosticData {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number | null;
  endColumn: number | null;
  path: string | null;
  entry: string | null;
  rule: string | null;
  hint: string | null;
}

export interface Checked {
  diagnostics: DiagnosticData[];
  errors: number;
  warnings: number;
  /** The manifest as loaded, when it could be parsed. */
  manifest?: LoadedManifest;
}

/** Validates the manifest file `abs`, naming it `display` in diagnostics. */
export function checkManifestFile(abs: string, display: string): Checked {
  return checked(loadManifest(abs, display));
}

/** Validates `source` as if it were the manifest at `abs` (its `file:` references resolve from there). */
export function checkManifestText(abs: string, display: string, source: string): Checked {
  return checked(loadManifestText(abs, display, source));
}

function checked(loaded: LoadResult): Checked {
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  // As `mcpgen validate`: whatever could be parsed is checked too, so one run reports everything.
  if (loaded.manifest) diagnostics.push(...validateManifest(loaded.manifest), ...lintManifest(loaded.manifest));
  sortDiagnostics(diagnostics);
  const data = diagnostics.map(toData);
  return {
    diagnostics: data,
    errors: data.filter((d) => d.severity === 'error').length,
    warnings: data.filter((d) => d.severity === 'warning').length,
    ...(loaded.manifest ? { manifest: loaded.manifest } : {}),
  };
}

export function toData(d: Diagnostic): DiagnosticData {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file.split(path.sep).join('/'),
    line: d.line,
    column: d.column,
    endLine: d.endLine ?? null,
    endColumn: d.endColumn ?? null,
    path: d.path ?? null,
    entry: d.entry ?? null,
    rule: ruleByCode(d.code)?.id ?? null,
    hint: d.hint ?? null,
  };
}

/** The refusal's first line, then one line per error, and where to read how to fix a code that has no hint. */
export function withErrors(head: string, errors: DiagnosticData[]): string {
  const listed = errors.map(
    (d) => `${d.file}:${d.line}:${d.column}: ${d.code} ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`,
  );
  const unhinted = [...new Set(errors.filter((d) => !d.hint).map((d) => d.code))];
  const explain = unhinted.length ? [`explain ${unhinted.join(', ')} for what to change`] : [];
  return [head, ...listed, ...explain].join('\n');
}
