import type { Diagnostic } from '../diagnostics.js';
import { ruleByCode } from '../lint/registry.js';
import { fullRange } from './types.js';

/**
 * `--format json`: one array, one object per diagnostic, every key always present (null when not
 * applicable), positions 1-based with the end exclusive. Documented in docs/manifest-diagnostics.md.
 */
export interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  /** Lint rule id (`missing-description`) for MCPG3xx, else null. */
  rule: string | null;
  message: string;
  /** JSON Pointer into the manifest data (`/tools/get/input`), or null. */
  path: string | null;
  /** Name of the tool/resource/template/prompt concerned, or null. */
  entry: string | null;
  hint: string | null;
}

export function toJsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    file: d.file,
    ...fullRange(d),
    severity: d.severity,
    code: d.code,
    rule: ruleByCode(d.code)?.id ?? null,
    message: d.message,
    path: d.path ?? null,
    entry: d.entry ?? null,
    hint: d.hint ?? null,
  };
}

export function formatJson(diags: readonly Diagnostic[]): string {
  return `${JSON.stringify(diags.map(toJsonDiagnostic), null, 2)}\n`;
}
