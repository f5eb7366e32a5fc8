import path from 'node:path';
import { hasErrors, sortDiagnostics, UsageError, type Diagnostic } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, type CliIO } from '../io.js';
import { lintManifest } from '../lint/lint.js';
import { parseRuleFlags, type RuleSettings } from '../lint/config.js';
import { findManifest } from '../load/find.js';
import { loadManifest } from '../load/load.js';
import { Codes } from '../manifest/codes.js';
import { failure } from '../report/outcome.js';
import { FORMATS, findRepositoryRoot, formatReport, type Format } from '../report/index.js';
import { validateManifest } from '../validate/validate.js';

export interface ValidateOptions {
  /** -f: the manifest to validate; default: mcpgen.yaml found from io.cwd upwards. */
  file?: string;
  /** --format: stylish (default, stderr), json, github or sarif (stdout). */
  format?: string;
  /** --rule id=off|warn|error, repeatable; wins over the manifest's `lint.rules`. */
  rule?: string[];
  /** --max-warnings N: more warnings than N fail (exit 1). */
  maxWarnings?: string | number;
}

interface Parsed {
  format: Format;
  rules: RuleSettings;
  maxWarnings?: number;
}

function parseOptions(opts: ValidateOptions): Parsed {
  const format = (opts.format ?? 'stylish') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format ${String(opts.format)}: expected one of ${FORMATS.join(', ')}`);
  const rules = parseRuleFlags(opts.rule ?? []);
  let maxWarnings: number | undefined;
  if (opts.maxWarnings !== undefined) {
    const n = Number(opts.maxWarnings);
    if (String(opts.maxWarnings).trim() === '' || !Number.isInteger(n) || n < 0)
      throw new UsageError(`--max-warnings ${String(opts.maxWarnings)}: expected a whole number ≥ 0`);
    maxWarnings = n;
  }
  return { format, rules, ...(maxWarnings !== undefined ? { maxWarnings } : {}) };
}

/**
 * `mcpgen validate`: find → load → validate (schema, semantic) → lint; report every diagnostic
 * (sorted). stylish goes to stderr with a summary; json, github and sarif go to stdout, alone,
 * with the summary on stderr only when warnings alone fail the run.
 * Exit 0 when clean or warnings only, 1 with errors or more warnings than --max-warnings, 2 on a usage
 * error or a manifest that is no readable file.
 */
export async function validateCommand(opts: ValidateOptions, io: CliIO): Promise<number> {
  let parsed: Parsed;
  let absPath: string;
  try {
    parsed = parseOptions(opts);
    // The envelope carries the diagnostics in validate's JSON shape: a second format would be a second document.
    if (io.outcome && parsed.format !== 'stylish')
      throw new UsageError(
        `--json and --format ${parsed.format} cannot be combined (the envelope's diagnostics are --format json's)`,
      );
    absPath = findManifest(io.cwd, opts.file);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`mcpgen: ${err.message}\n`);
      if (io.outcome) io.outcome.error = failure('usage', err.message);
      return EXIT_USAGE;
    }
    throw err;
  }
  const display = displayPath(io.cwd, absPath);
  const loaded = loadManifest(absPath, display);
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  if (loaded.manifest) {
    diagnostics.push(...validateManifest(loaded.manifest));
    diagnostics.push(...lintManifest(loaded.manifest, parsed.rules));
  }
  sortDiagnostics(diagnostics);
  io.outcome?.diagnostics.push(...diagnostics);
  const sources = new Map<string, string>(loaded.source !== undefined ? [[display, loaded.source]] : []);
  const color = io.isTTY && io.env.NO_COLOR === undefined;
  // CI formats name files from the repository root, as GitHub resolves them; the others from cwd.
  const ci = parsed.format === 'github' || parsed.format === 'sarif';
  const base = ci ? { root: findRepositoryRoot(path.dirname(absPath), io.cwd, io.env), cwd: io.cwd } : undefined;
  const report = formatReport(parsed.format, diagnostics, { sources, color, ...(base ? { base } : {}) });
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const tooManyWarnings = parsed.maxWarnings !== undefined && warnings > parsed.maxWarnings;
  if (parsed.format === 'stylish') {
    io.stderr(report);
    io.stderr(`${summary(diagnostics, display, parsed.maxWarnings)}\n`);
  } else {
    io.stdout(report);
    // Warnings alone do not fail a run: say on stderr why this one does, which no annotation says.
    if (tooManyWarnings && !hasErrors(diagnostics)) io.stderr(`${summary(diagnostics, display, parsed.maxWarnings)}\n`);
  }
  // A file that is gone or cannot be read by the time it is loaded is the environment's problem, as findManifest's refusals are.
  if (loaded.diagnostics.some((d) => UNREADABLE.has(d.code))) return EXIT_USAGE;
  return hasErrors(diagnostics) || tooManyWarnings ? EXIT_PROBLEMS : EXIT_OK;
}

const UNREADABLE = new Set<string>([Codes.FILE_NOT_FOUND, Codes.FILE_IS_DIRECTORY, Codes.FILE_UNREADABLE]);

/** Relative to cwd (`mcpgen.yaml`, `../mcpgen.yaml`) so terminals and editors can open it; forward slashes. */
function displayPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}

function summary(diags: readonly Diagnostic[], file: string, maxWarnings?: number): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (errors > 0) return `✖ ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''} in ${file}`;
  if (maxWarnings !== undefined && warnings > maxWarnings)
    return `✖ ${plural(warnings, 'warning')} in ${file}: more than --max-warnings ${maxWarnings}`;
  return `✔ ${file} is valid${warnings ? ` (${plural(warnings, 'warning')})` : ''}`;
}
