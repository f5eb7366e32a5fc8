/**
 * Diagnostics: the one shape every stage reports problems in.
 * Codes are stable: MCPG1xx YAML syntax / schema, MCPG2xx semantic, MCPG3xx lint, MCPG9xx I/O.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units, as editors count). */
  column: number;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** Path of the file the problem is in, as given by the user (manifest or a file it references). */
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  /** JSON path inside the manifest, e.g. `/tools/get_forecast/input/properties/city`. */
  path?: string;
  /** Name of the tool/resource/template/prompt the problem concerns, when there is one. */
  entry?: string;
  /** How to fix it, when known. */
  hint?: string;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** Sort by file, then position, then code, so output is deterministic. */
export function sortDiagnostics(diags: Diagnostic[]): Diagnostic[] {
  // localeCompare is slow and thousands of warnings share one file: compare only what differs.
  const text = (x: string, y: string): number => (x === y ? 0 : x.localeCompare(y));
  return diags.sort((a, b) => text(a.file, b.file) || a.line - b.line || a.column - b.column || text(a.code, b.code));
}

/** `file:line:col: severity CODE message` — the sqlc/tsc form editors and terminals link. */
export function formatDiagnostic(d: Diagnostic): string {
  const head = `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}

/** A user error that aborts a command (bad flag, unreadable file): printed without a stack, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
