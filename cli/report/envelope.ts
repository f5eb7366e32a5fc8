/**
 * `--json`: every command's result as one JSON document on stdout, the same envelope for all of
 * them (docs/cli.md#json-output, a contract: fields are only ever added, and `mcpgen` is raised
 * when one changes meaning). Commands fill an Outcome beside their text (CliIO.outcome); nothing
 * here reads the text they print.
 */
import path from 'node:path';
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { CliIO } from '../io.js';
import { type JsonDiagnostic, toJsonDiagnostic } from './json.js';
import { type Change, type Failure, failure, type NextStep, newOutcome, type Outcome, slashes } from './outcome.js';
import { stepText } from './steps.js';

/** The envelope's version: raised only when a field changes meaning or goes away. */
export const ENVELOPE_VERSION = 1;

/** mcpgen's commands, for the envelope's `command` (watch, dev and completion only refuse --json). */
const COMMANDS = new Set([
  'init',
  'add',
  'build',
  'validate',
  'generate',
  'diff',
  'compare',
  'pack',
  'rename',
  'import',
  'schema',
  'watch',
  'dev',
  'completion',
]);

export interface Envelope {
  mcpgen: number;
  command: string | null;
  ok: boolean;
  exitCode: number;
  error: Failure | null;
  errors: number;
  warnings: number;
  diagnostics: JsonDiagnostic[];
  project: string | null;
  changes: Change[];
  next: NextStep[];
  applied: boolean;
  [extra: string]: unknown;
}

/** True when argv asks for the envelope (`--json` before any `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Runs the command line with an Outcome and the command's stdout held back, then prints the
 * envelope as the only thing on stdout. stderr stays as it is: warnings and progress for a person watching.
 */
export async function withEnvelope(
  argv: readonly string[],
  io: CliIO,
  run: (io: CliIO) => Promise<number>,
): Promise<number> {
  const outcome = newOutcome();
  let exitCode: number;
  try {
    exitCode = await run({ ...io, stdout: () => {}, outcome });
  } catch (err) {
    // runCli reports what commands throw; this is for what fails around them: still one envelope.
    const e = err as Error;
    outcome.error = failure('internal', e?.message ?? String(err), [], argv.includes('--debug') ? e?.stack : undefined);
    exitCode = 2;
  }
  io.stdout(`${JSON.stringify(envelope(commandOf(argv), exitCode, outcome, io.cwd), null, 2)}\n`);
  return exitCode;
}

/** The command argv runs: its first word, when it names one. */
function commandOf(argv: readonly string[]): string | null {
  const word = argv.find((a) => !a.startsWith('-'));
  return word !== undefined && COMMANDS.has(word) ? word : null;
}

export function envelope(command: string | null, exitCode: number, o: Outcome, cwd: string): Envelope {
  const diagnostics = sortDiagnostics([...o.diagnostics]);
  const count = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  const base: Envelope = {
    mcpgen: ENVELOPE_VERSION,
    command,
    ok: exitCode === 0,
    exitCode,
    error: o.error,
    errors: count('error'),
    warnings: count('warning') + o.warningsNotListed,
    diagnostics: diagnostics.map(toJsonDiagnostic),
    project: o.project === null ? null : slashes(path.relative(cwd, o.project)) || '.',
    changes: o.changes,
    next: o.next.map(stepText),
    applied: o.applied,
  };
  // A command's own fields come last and never replace the common ones.
  for (const [key, value] of Object.entries(o.extra)) if (!Object.hasOwn(base, key)) base[key] = value;
  return base;
}
