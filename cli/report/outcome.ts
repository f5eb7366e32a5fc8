/**
 * What a command records under --json (CliIO.outcome), beside the text it prints: kept apart from
 * envelope.ts so that the commands on the fast path load nothing more than this.
 */
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { PlanEntry } from '../plan/plan.js';
import type { RenameKind } from '../rename/kinds.js';

export type ChangeAction = 'create' | 'update' | 'unchanged' | 'remove' | 'keep' | 'orphan' | 'move' | 'edit';

/** A file the command changed, would change, or looked at (generate's whole plan). */
export interface Change {
  action: ChangeAction;
  /** Relative to the project folder, with `/`. */
  path: string;
  owner: 'generated' | 'user';
  /** A move's old path (project-relative), else null. */
  from: string | null;
}

/** Something to do next, as --json gives it: a command to run (in `cwd`), or an instruction in `message` alone. */
export interface NextStep {
  message: string;
  command: string | null;
  /** Where to run `command`, relative to the working folder; null without a command. */
  cwd: string | null;
}

/** An entry of a kind gone from the manifest with one of its kind added: `command` is the `mcpgen rename` that finishes it. */
export interface RenameStep {
  kind: 'rename';
  entryKind: RenameKind;
  old: string;
  new: string;
  command: string;
}

/** A handler whose generated signature changed: `files` (relative to the working folder) are to update. */
export interface ContractChangedStep {
  kind: 'contract-changed';
  /** `tool get_forecast`. */
  entry: string;
  /** What changed: input, output, params… */
  parts: string[];
  files: string[];
}

/** src/main.ts against `transports`: `mismatch` says what does not match and how to edit it. */
export interface EntryMismatchStep {
  kind: 'entry-mismatch';
  mismatch: string;
}

/**
 * A next step as a command records it. A plain one is its words and command; the others are data,
 * worded for a person by ./steps.ts and for an agent by cli/mcp/wording.ts, neither reading the other's words.
 */
export type Step = NextStep | RenameStep | ContractChangedStep | EntryMismatchStep;

/** Why a command stopped without diagnostics to show for it. */
export interface Failure {
  kind: 'usage' | 'environment' | 'internal';
  message: string;
  /** More lines (the closest names of an unknown entry, …). */
  details: string[];
  /** An internal error's stack, only under --debug. */
  stack: string | null;
}

/** What a command fills in while it runs under --json. */
export interface Outcome {
  diagnostics: Diagnostic[];
  /** Warnings counted but not listed (generate lists lint warnings only when few). */
  warningsNotListed: number;
  /** The project folder (absolute), when the command has one. */
  project: string | null;
  changes: Change[];
  next: Step[];
  applied: boolean;
  error: Failure | null;
  /** The fields of one command: `diff`, `schema`, `bundles`. */
  extra: Record<string, unknown>;
}

export function newOutcome(): Outcome {
  return {
    diagnostics: [],
    warningsNotListed: 0,
    project: null,
    changes: [],
    next: [],
    applied: false,
    error: null,
    extra: {},
  };
}

const ACTIONS: Record<PlanEntry['action'], ChangeAction> = {
  create: 'create',
  update: 'update',
  unchanged: 'unchanged',
  remove: 'remove',
  skip: 'keep',
  orphan: 'orphan',
};

/** A plan's entries as changes (the plan's `skip` is what the text calls keep). */
export function planChanges(entries: readonly PlanEntry[]): Change[] {
  return entries.map((e) => ({ action: ACTIONS[e.action], path: e.path, owner: e.owner, from: null }));
}

export function slashes(p: string): string {
  return p.split(path.sep).join('/');
}

/** A command line as a POSIX shell reads it: each word bare when safe, else in single quotes. */
export function commandLine(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_./@:=+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** `-f file -o dir` as the user gave them, so a next step runs from the same folder. */
export function fileFlags(opts: { file?: string; out?: string }): string[] {
  return [...(opts.file ? ['-f', opts.file] : []), ...(opts.out ? ['-o', opts.out] : [])];
}

/** `mcpgen generate` with the options of this run that change its output. */
export function generateLine(opts: {
  file?: string;
  out?: string;
  headerVersion?: boolean;
  format?: 'mcpgen' | 'prettier';
}): string {
  return commandLine([
    'mcpgen',
    'generate',
    ...fileFlags(opts),
    ...(opts.headerVersion === false ? ['--no-header-version'] : []),
    ...(opts.format ? ['--format', opts.format] : []),
  ]);
}

export function failure(kind: Failure['kind'], message: string, details: string[] = [], stack?: string): Failure {
  return { kind, message, details, stack: stack ?? null };
}
