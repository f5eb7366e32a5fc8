import path from 'node:path';
import { hasErrors, sortDiagnostics, formatDiagnostic, UsageError, type Diagnostic } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import { loadManifest } from '../load/load.js';
import { validateManifest } from '../validate/validate.js';

export interface ValidateOptions {
  /** -f: the manifest to validate; default: mcpgen.yaml found from io.cwd upwards. */
  file?: string;
}

/**
 * `mcpgen validate`: find → load → validate, print every diagnostic (sorted) and a summary to stderr.
 * Exit 0 when clean or warnings only, 1 with errors, 2 on a usage error.
 */
export async function validateCommand(opts: ValidateOptions, io: CliIO): Promise<number> {
  let absPath: string;
  try {
    absPath = findManifest(io.cwd, opts.file);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`error: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
  const display = displayPath(io.cwd, absPath);
  const loaded = loadManifest(absPath, display);
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  if (loaded.manifest) diagnostics.push(...validateManifest(loaded.manifest));
  for (const d of sortDiagnostics(diagnostics)) io.stderr(formatDiagnostic(d) + '\n');
  io.stderr(summary(diagnostics, display) + '\n');
  return hasErrors(diagnostics) ? EXIT_PROBLEMS : EXIT_OK;
}

/** Relative to cwd (`mcpgen.yaml`, `../mcpgen.yaml`) so terminals and editors can open it; forward slashes. */
function displayPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}

function summary(diags: readonly Diagnostic[], file: string): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (errors > 0) return `✖ ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''} in ${file}`;
  return `✔ ${file} is valid${warnings ? ` (${plural(warnings, 'warning')})` : ''}`;
}
