/**
 * `mcpgen generate`: generate → plan → write (or, with --dry-run / --check, only report).
 */
import path from 'node:path';
import { formatDiagnostic, sortDiagnostics, UsageError, type Diagnostic } from '../diagnostics.js';
import type { IR } from '../normalize/ir.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { changedWhileRead, findManifest } from '../load/find.js';
import { GENERATED_DIRS, HANDLER_DIRS, planFiles, summarize, type Plan, type PlanEntry } from '../plan/plan.js';
import {
  type ContractNotice,
  generatorFingerprint,
  inputStats,
  projectFileHash,
  readStamp,
  stampOf,
  unansweredNotices,
  upToDate,
  writeStamp,
  type Stamp,
} from '../plan/stamp.js';
import { existingFiles } from '../plan/existing.js';
import { optionsKey, SHOWN_WARNINGS } from '../generate-options.js';
import { VERSION } from '../version.js';
import { applyPlan } from '../write/write.js';
import { leftover, recover, runningOwner } from '../write/transaction.js';
import { foundPlaces, stagingIn, stagingName } from '../write/staging.js';
import { WriteError } from '../write/write-error.js';
import { Codes } from '../manifest/codes.js';
import { dependencyProblems, missingDependencies } from '../plan/dependencies.js';
import { entryMismatches } from '../plan/entry.js';
import { handlerEntries, missingLine, outOfStep } from '../plan/missing-handlers.js';
import { contractsOf } from '../render/contracts.js';
import { type ContractChangedStep, generateLine, planChanges, slashes } from '../report/outcome.js';
import { contractText, entryMismatchText, renameText } from '../report/steps.js';
import { mark } from '../timings.js';

const CONTRACTS_PATH = 'src/generated/contracts.json';

export interface GenerateCommandOptions {
  file?: string;
  out?: string;
  dryRun?: boolean;
  check?: boolean;
  /** Omit mcpgen's version from headers (golden files). */
  headerVersion?: boolean;
  /** The layout of generated files, over the manifest's `options.format`. */
  format?: 'mcpgen' | 'prettier';
  quiet?: boolean;
  /** false: always run the full pipeline (watch needs the IR). */
  fastPath?: boolean;
  /** Called with the IR when the manifest was valid (watch uses it to know the referenced files). */
  onIR?: (ir: IR) => void;
}

/** Shared by generate, diff and init: find the manifest, generate, plan. Prints diagnostics. */
export async function planProject(
  opts: {
    file?: string;
    out?: string;
    headerVersion?: boolean;
    format?: 'mcpgen' | 'prettier';
    onIR?: (ir: IR) => void;
    writes?: boolean;
  },
  io: CliIO,
): Promise<{ plan?: Plan; manifest: string; outDir: string; exit?: number; stamp?: Stamp; project?: ProjectFacts }> {
  const manifest = findManifest(io.cwd, opts.file);
  const outDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  const display = path.relative(io.cwd, manifest) || path.basename(manifest);
  // Loaded on demand: the up-to-date fast path must not pay for ajv and the build.
  const { generate } = await import('../generate.js');
  const reads = inputStats();
  const result = await generate({
    manifest,
    outDir,
    displayPath: display,
    exists: existingFiles(outDir),
    beforeRead: reads.beforeRead,
    ...(opts.headerVersion === false ? { generatorVersion: null } : {}),
    ...(opts.format ? { format: opts.format } : {}),
  });
  const changed = changedWhileRead(result.diagnostics, display);
  if (changed) throw changed;
  if (result.ir) opts.onIR?.(result.ir);
  const diags = sortDiagnostics(result.diagnostics);
  const warned = diags.filter((d) => d.severity !== 'error');
  const warnings = warned.length + (result.warningsNotListed ?? 0);
  const errors = diags.filter((d) => d.severity === 'error');
  if (io.outcome) {
    io.outcome.project = outDir;
    io.outcome.diagnostics.push(...diags);
    io.outcome.warningsNotListed += result.warningsNotListed ?? 0;
  }
  for (const d of errors) io.stderr(`${formatDiagnostic(d)}\n`);
  printWarnings(errors.length ? [] : warned, warnings, display, io);
  if (errors.length) {
    const n = errors.length;
    io.stderr(`✖ ${n} error${n === 1 ? '' : 's'} in ${display}; nothing was written\n`);
    return { manifest, outDir, exit: EXIT_PROBLEMS };
  }
  const plan = planFiles(outDir, result.files);
  mark('plan');
  // Formatted by the project's prettier: its configuration is an input the stamp does not track,
  // so a stamp marked so never proves a later run up to date (provenUpToDate).
  const options = optionsKey({
    generatorVersion: opts.headerVersion === false ? null : VERSION,
    format: result.prettier ? 'prettier' : 'mcpgen',
  });
  const made = stampOf(
    { projectDir: outDir, manifest, options, referenced: result.ir?.referencedFiles ?? [], before: reads.before },
    result.files,
  );
  mark('stamp');
  // The stamp keeps the warnings for the up-to-date path to print (files relative to the project).
  const toProject = (file: string) => path.relative(outDir, path.resolve(io.cwd, file)).split(path.sep).join('/');
  const listed = warnings <= SHOWN_WARNINGS ? warned.map((d) => ({ ...d, file: toProject(d.file) })) : [];
  const withWarnings = made && warnings > 0 ? { ...made, warnings: { count: warnings, listed } } : made;
  const project = result.ir && projectFacts(result.ir, manifest, outDir);
  const stamp = withWarnings && project ? { ...withWarnings, project } : withWarnings;
  if (plan.errors.length) {
    const fromCwd = plan.errors.map((d) => ({ ...d, file: path.relative(io.cwd, d.file) }));
    io.outcome?.diagnostics.push(...fromCwd);
    for (const d of fromCwd) io.stderr(`${formatDiagnostic(d)}\n`);
    io.stderr(`✖ nothing was written\n`);
    return { plan, manifest, outDir, exit: EXIT_PROBLEMS };
  }
  return { plan, manifest, outDir, ...(stamp ? { stamp } : {}), ...(project ? { project } : {}) };
}

type ProjectFacts = NonNullable<Stamp['project']>;

/** The transports and the built views' folders (relative to the project, with `/`). */
function projectFacts(ir: IR, manifest: string, outDir: string): ProjectFacts {
  const views = ir.resources.flatMap((r) =>
    r.content.kind === 'built'
      ? [slashes(path.relative(outDir, path.resolve(path.dirname(manifest), r.content.folder)))]
      : [],
  );
  return { stdio: ir.transports.stdio, http: ir.transports.http !== null, views };
}

/**
 * What generate says of the user's own files after writing, fast path or not: package.json's
 * packages and scripts, and src/main.ts against the transports.
 */
function checkUserFiles(outDir: string, facts: ProjectFacts | undefined, io: CliIO): void {
  const views = facts?.views.map((v) => path.resolve(outDir, v));
  const missing = missingDependencies(outDir, views);
  if (missing) io.stderr(`${missing}\n`);
  recordDependencies(outDir, io, views);
  for (const mismatch of facts ? entryMismatches(outDir, facts) : []) {
    const step = { kind: 'entry-mismatch', mismatch } as const;
    io.stderr(`! ${entryMismatchText(step)}\n`);
    io.outcome?.next.push(step);
  }
}

/**
 * Warnings in full only when few (validate shows them all, with code frames), else their count.
 * With errors, `listed` is empty and the count still says how many warnings there are.
 */
function printWarnings(listed: Diagnostic[], count: number, display: string, io: CliIO): void {
  if (count === 0) return;
  if (listed.length === count && count <= SHOWN_WARNINGS) for (const d of listed) io.stderr(`${formatDiagnostic(d)}\n`);
  else io.stderr(`! ${count} warning${count === 1 ? '' : 's'} in ${display}; run mcpgen validate to see them\n`);
}

/**
 * The fast path: the stamp proves nothing changed since the last generate. The warnings that
 * generate printed are printed again (the manifest and mcpgen are the same, so lint would find them again).
 */
export function provenUpToDate(
  opts: { file?: string; out?: string; headerVersion?: boolean; format?: 'mcpgen' | 'prettier' },
  io: CliIO,
): { outDir: string; stamp: Stamp } | null {
  if (opts.format === 'prettier') return null;
  const manifest = findManifest(io.cwd, opts.file);
  const outDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  const hit = upToDate({
    projectDir: outDir,
    manifest,
    generator: generatorFingerprint(VERSION),
    options: optionsKey({ generatorVersion: opts.headerVersion === false ? null : VERSION }),
    generatedDirs: GENERATED_DIRS,
    handlerDirs: HANDLER_DIRS,
  });
  if (!hit) return null;
  const w = hit.stamp.warnings;
  if (io.outcome) io.outcome.project = outDir;
  if (w) {
    const fromCwd = (file: string) => path.relative(io.cwd, path.resolve(outDir, file)) || file;
    const listed = w.listed.map((d) => ({ ...d, file: fromCwd(d.file) }));
    if (io.outcome) {
      io.outcome.diagnostics.push(...listed);
      io.outcome.warningsNotListed += w.count - listed.length;
    }
    printWarnings(listed, w.count, path.relative(io.cwd, manifest) || path.basename(manifest), io);
  }
  return { outDir, stamp: hit.stamp };
}

/**
 * What an interrupted generate left (one lstat when nothing): generate finishes it (or drops an
 * uncommitted one) before reading anything; commands that write nothing report a half-switched
 * project instead of comparing against it. An exit code when the command must stop.
 */
export function settleInterrupted(
  opts: { file?: string; out?: string },
  io: CliIO,
  writes: boolean,
): number | undefined {
  const manifest = findManifest(io.cwd, opts.file);
  const outDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  const rel = (p: string) => path.relative(io.cwd, p) || '.';
  try {
    // Where an earlier run staged: the root, or a writable folder of a read-only project.
    const place = foundPlaces(outDir)[0] ?? '.';
    if (writes) {
      const done = recover(outDir);
      if (done === 'finished')
        io.stderr(`! finished the switch of an interrupted mcpgen generate (${rel(stagingIn(outDir, place))}/)\n`);
      return undefined;
    }
    if (leftover(outDir) !== 'journal') return undefined;
    const owner = runningOwner(outDir);
    const staging = stagingIn(outDir, place);
    throw owner !== null
      ? new WriteError(
          Codes.WRITE_BUSY,
          staging,
          `mcpgen generate (process ${owner}) is writing this project right now; run again when it is done`,
        )
      : new WriteError(
          Codes.WRITE_INTERRUPTED,
          staging,
          `an interrupted mcpgen generate left this project between two versions (its journal is in ${stagingName(place)}/); run mcpgen generate to finish it`,
        );
  } catch (err) {
    if (!(err instanceof WriteError)) throw err;
    printWriteError(err, io);
    return EXIT_PROBLEMS;
  }
}

/** One line: where, the code, what failed and why, and the state the project is in. */
function printWriteError(err: WriteError, io: CliIO): void {
  const file = path.relative(io.cwd, err.file) || '.';
  io.outcome?.diagnostics.push({ code: err.code, severity: 'error', message: err.message, file, line: 1, column: 1 });
  io.stderr(`${file}: error ${err.code} ${err.message}\n`);
}

/** Under --json, the files of an up-to-date project as the stamp knows them: every one unchanged or kept. */
export function recordStamped(stamp: Stamp, io: CliIO): void {
  if (!io.outcome) return;
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  io.outcome.changes.push(
    ...[
      ...Object.keys(stamp.outputs).map((p) => ({
        action: 'unchanged' as const,
        path: p,
        owner: 'generated' as const,
      })),
      ...stamp.userFiles.map((p) => ({ action: 'keep' as const, path: p, owner: 'user' as const })),
    ]
      .sort(byPath)
      .map((c) => ({ ...c, from: null })),
  );
}

/** Under --json, the `npm install` commands package.json needs, as next steps run in the project. */
function recordDependencies(outDir: string, io: CliIO, views?: readonly string[]): void {
  if (!io.outcome) return;
  const found = dependencyProblems(outDir, views);
  if (found?.invalid) io.outcome.next.push({ message: found.invalid, command: null, cwd: null });
  const cwd = slashes(path.relative(io.cwd, outDir)) || '.';
  for (const command of found?.commands ?? [])
    io.outcome.next.push({
      message: `package.json does not match what the generated code needs (${found!.problems.join('; ')})`,
      command,
      cwd,
    });
}

export async function generateCommand(opts: GenerateCommandOptions, io: CliIO): Promise<number> {
  if (opts.check && opts.dryRun) throw new UsageError('--check and --dry-run cannot be combined');
  const settled = settleInterrupted(opts, io, !opts.check && !opts.dryRun);
  if (settled !== undefined) return settled;
  const fast = opts.fastPath === false ? null : provenUpToDate(opts, io);
  if (fast) {
    recordStamped(fast.stamp, io);
    if (opts.check) {
      io.stdout(`✔ generated code is up to date\n`);
      return EXIT_OK;
    }
    const unchanged = Object.keys(fast.stamp.outputs).length;
    const summary = `0 created, 0 updated, 0 removed, ${unchanged} unchanged, ${fast.stamp.userFiles.length} kept (yours)`;
    io.stdout(`${opts.dryRun ? 'dry run, nothing written: would be ' : '✔ '}${summary}\n`);
    if (io.outcome && !opts.dryRun) io.outcome.applied = true;
    const fromCwd = (p: string) => path.relative(io.cwd, path.join(fast.outDir, p)) || '.';
    printContractNotices(unansweredNotices(fast.outDir, fast.stamp.contractNotices), io, fromCwd);
    checkUserFiles(fast.outDir, fast.stamp.project, io);
    return EXIT_OK;
  }
  let ir: IR | undefined;
  const { plan, outDir, exit, stamp, project } = await planProject(
    {
      ...opts,
      writes: !opts.dryRun && !opts.check,
      onIR: (r) => {
        ir = r;
        opts.onIR?.(r);
      },
    },
    io,
  );
  if (exit !== undefined || !plan) return exit ?? EXIT_PROBLEMS;
  const rel = (p: string) => path.relative(io.cwd, path.join(outDir, p)) || '.';
  io.outcome?.changes.push(...planChanges(plan.entries));

  if (opts.check) {
    const stale = plan.entries.filter((e) => e.owner === 'generated' && e.action !== 'unchanged');
    const missing = missingStarters(plan);
    for (const e of stale) io.stdout(`${labels[e.action]} ${rel(e.path)}\n`);
    const entries = ir ? handlerEntries(contractsOf(ir)) : new Map<string, string>();
    for (const e of missing) io.stdout(`${missingLine(rel(e.path), entries.get(e.path))}\n`);
    if (stale.length || missing.length) {
      // An entry renamed in the manifest by hand: regenerating alone would leave its handler behind.
      if (plan.entries.some((e) => e.action === 'orphan')) {
        const { renameSteps } = await import('../rename/hint.js');
        for (const step of renameSteps(plan, opts, ir)) {
          io.stderr(`hint: ${renameText(step)}\n`);
          io.outcome?.next.push(step);
        }
      }
      io.outcome?.next.push({
        message: 'generated files are out of date, or files of yours the generated code needs are missing: regenerate',
        command: generateLine(opts),
        cwd: '.',
      });
      io.stderr(
        `✖ ${outOfStep(stale.length, missing.length, 'is out of date', 'are out of date')}; run mcpgen generate\n`,
      );
      return EXIT_PROBLEMS;
    }
    io.stdout(`✔ generated code is up to date\n`);
    return EXIT_OK;
  }

  const notices = await contractNotices(plan, outDir);
  if (!opts.dryRun) {
    try {
      applyPlan(plan);
    } catch (err) {
      if (!(err instanceof WriteError)) throw err;
      printWriteError(err, io);
      return EXIT_PROBLEMS;
    }
    if (stamp) writeStamp(outDir, notices.length ? { ...stamp, contractNotices: notices } : stamp);
    mark('write');
    if (io.outcome) io.outcome.applied = true;
  }
  printPlan(plan, io, rel, opts.dryRun === true, opts.quiet === true);
  // Orphans beside new entries of their kind may be a rename done by hand: name the command that finishes it.
  if (plan.entries.some((e) => e.action === 'orphan')) {
    const { orphanMessage } = await import('../plan/orphans.js');
    for (const e of plan.entries.filter((x) => x.action === 'orphan'))
      io.stderr(`${orphanMessage(e.path, rel(e.path), ir)}\n`);
    const { renameSteps } = await import('../rename/hint.js');
    for (const step of renameSteps(plan, opts, ir)) {
      io.stderr(`hint: ${renameText(step)}\n`);
      io.outcome?.next.push(step);
    }
  }
  printContractNotices(notices, io, rel);
  checkUserFiles(outDir, project, io);
  return EXIT_OK;
}

/**
 * The handlers whose generated signature changed, this run or an earlier one, while their files
 * stayed as they were: the notices the last stamp kept, and the changes this plan makes.
 */
async function contractNotices(plan: Plan, outDir: string): Promise<ContractNotice[]> {
  let notices = unansweredNotices(outDir, readStamp(outDir)?.contractNotices);
  const record = plan.entries.find((e) => e.path === CONTRACTS_PATH && e.action === 'update');
  if (!record?.content) return notices;
  // Loaded only when the contracts changed: it brings the renderer's views with it.
  const { contractChanges, contractEntries } = await import('../render/contracts.js');
  const present = contractEntries(record.content);
  notices = notices.filter((n) => present.has(n.entry));
  for (const c of contractChanges(record.previous, record.content)) {
    const earlier = notices.find((n) => n.entry === c.entry);
    if (earlier) {
      earlier.parts = [...new Set([...earlier.parts, ...c.parts])];
      continue;
    }
    const files = Object.fromEntries(
      [c.handler, ...(c.test ? [c.test] : [])].map((f) => [f, projectFileHash(outDir, f)]),
    );
    notices.push({ ...c, files });
  }
  return notices;
}

/** Names the handlers whose generated signature changed: that is where TypeScript errors will be. */
function printContractNotices(notices: readonly ContractNotice[], io: CliIO, rel: (p: string) => string): void {
  for (const c of notices) {
    const files = [c.handler, ...(c.test ? [c.test] : [])].map(rel);
    const step: ContractChangedStep = { kind: 'contract-changed', entry: c.entry, parts: c.parts, files };
    io.stderr(`! ${contractText(step)}\n`);
    io.outcome?.next.push(step);
  }
  if (notices.length)
    io.stderr(
      `  TypeScript will point at ${notices.length === 1 ? 'that handler' : 'those handlers'} until ${notices.length === 1 ? 'it matches' : 'they match'} the new types (npm run typecheck); generate names ${notices.length === 1 ? 'it' : 'them'} again until ${notices.length === 1 ? 'its file is' : 'their files are'} edited\n`,
    );
}

/**
 * Sources of the user's that generate would create (a handler deleted, say): the generated code
 * imports them, so the build fails without. Other files of theirs (README, Dockerfile) are not checked.
 */
export function missingStarters(plan: Plan): PlanEntry[] {
  return plan.entries.filter((e) => e.owner === 'user' && e.action === 'create' && e.path.startsWith('src/'));
}

const labels: Record<PlanEntry['action'], string> = {
  create: 'create   ',
  update: 'update   ',
  unchanged: 'unchanged',
  remove: 'remove   ',
  skip: 'keep     ',
  orphan: 'orphaned ',
};

function printPlan(plan: Plan, io: CliIO, rel: (p: string) => string, dryRun: boolean, quiet: boolean): void {
  const s = summarize(plan);
  for (const e of plan.entries) {
    if (e.action === 'unchanged' || e.action === 'skip') continue;
    // Quiet (watch, dev) still names the handlers and tests created for the user to write now.
    const toWrite = e.owner === 'user' && e.action === 'create' && /^(src|test)\/handlers\//.test(e.path);
    if (!quiet || toWrite) {
      io.stdout(
        `  ${labels[e.action]} ${rel(e.path)}${e.owner === 'user' && e.action === 'create' ? '  (yours: edit it)' : ''}\n`,
      );
    }
  }
  const parts = [
    `${s.create} created`,
    `${s.update} updated`,
    `${s.remove} removed`,
    `${s.unchanged} unchanged`,
    `${s.skip} kept (yours)`,
  ];
  if (s.orphan) parts.push(`${s.orphan} orphaned`);
  io.stdout(`${dryRun ? 'dry run, nothing written: would be ' : '✔ '}${parts.join(', ')}\n`);
}
