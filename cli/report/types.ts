import type { Diagnostic } from '../diagnostics.js';
import type { ArtifactBase } from './locations.js';

export const FORMATS = ['stylish', 'json', 'github', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportContext {
  /** Text of the files diagnostics point into, by display path (for code frames). */
  sources: ReadonlyMap<string, string>;
  /** ANSI colours (stylish only). */
  color: boolean;
  /** The repository root and working folder, for paths relative to the root (github, sarif). */
  base?: ArtifactBase;
}

/** A diagnostic with every position filled in (file-level problems span their start). */
export function fullRange(d: Diagnostic): { line: number; column: number; endLine: number; endColumn: number } {
  const line = Math.max(1, d.line);
  const column = Math.max(1, d.column);
  const endLine = Math.max(line, d.endLine ?? line);
  const endColumn = d.endColumn ?? column;
  return { line, column, endLine, endColumn: endLine === line ? Math.max(column, endColumn) : Math.max(1, endColumn) };
}
