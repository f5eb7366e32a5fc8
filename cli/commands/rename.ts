/**
 * `mcpgen rename <kind> <old> <new>`: renames a manifest entry and carries its handler along (the
 * key edited in place, the handler and its test moved and re-pointed, then a generate). Prints
 * the plan and writes nothing unless `--yes`; the manifest's text naming the old name is listed, never reworded.
 */
import path from 'node:path';
import { runningOwner } from '../write/recover.js';
import { Codes } from '../manifest/codes.js';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_USAGE, type CliIO } from '../io.js';
import { applyRename } from '../rename/apply.js';
import { isRenameKind, KIND_NAMES } from '../rename/kinds.js';
import { planRename, Refusal, type RenamePlan } from '../rename/plan.js';
import { commandLine, failure, fileFlags, slashes } from '../report/outcome.js';
import { generateCommand, settleInterrupted } from './generate.js';

export interface RenameCommandOptions {
  kind: string;
  from: string;
  to: string;
  file?: string;
  out?: string;
  yes?: boolean;
}

export async function renameCommand(opts: RenameCommandOptions, io: CliIO): Promise<number> {
  const { kind, from, to } = opts;
  if (!isRenameKind(kind)) throw new UsageError(`unknown kind "${kind}": use one of ${KIND_NAMES.join(', ')}`);
  // A half-switched project (an interrupted generate) is neither version: nothing to rename against.
  if (settleInterrupted(opts, io, false) !== undefined) return EXIT_USAGE;
  let plan: RenamePlan;
  try {
    plan = await planRename(kind, from, to, opts, io.cwd);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    for (const line of err.details) io.stderr(`${line}\n`);
    io.stderr(`mcpgen: ${err.message}\n`);
    if (io.outcome) io.outcome.error = failure('usage', err.message, err.details);
    return EXIT_USAGE;
  }
  const rel = (p: string) => path.relative(io.cwd, path.join(plan.outDir, p)) || '.';
  printPlan(plan, io, rel);
  recordPlan(plan, io);
  if (!opts.yes) {
    printMentions(plan, io, false);
    io.stdout(`dry run, nothing written; run again with --yes to apply\n`);
    io.outcome?.next.push({
      message: 'dry run, nothing written: run again with --yes to apply',
      command: commandLine(['mcpgen', 'rename', kind, from, to, ...fileFlags(opts), '--yes']),
      cwd: '.',
    });
    return EXIT_OK;
  }
  const code = await applyRename(plan, () => regenerate(plan.manifest.abs, plan.outDir, io));
  if (io.outcome) io.outcome.applied = code === EXIT_OK;
  if (code !== EXIT_OK) {
    io.stderr(`✖ the regeneration failed, so the rename was undone; nothing was changed\n`);
    return code;
  }
  io.stdout(`✔ renamed ${kind} "${from}" to "${to}"\n`);
  printMentions(plan, io, true);
  return EXIT_OK;
}

/**
 * The rename's generate. `mcpgen dev` or `watch` sees the manifest just edited and regenerates on
 * its own: when that one holds the project (MCPG913), this waits for it and tries again rather
 * than undo the rename. Output is held until the last try, so a try given up says nothing.
 */
async function regenerate(manifest: string, outDir: string, io: CliIO): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    await othersDone(outDir);
    // Under --json the envelope records one run: no second try there.
    if (io.outcome) return generateCommand({ file: manifest, out: outDir }, io);
    const held: [(t: string) => void, string][] = [];
    const code = await generateCommand(
      { file: manifest, out: outDir },
      { ...io, stdout: (t) => void held.push([io.stdout, t]), stderr: (t) => void held.push([io.stderr, t]) },
    );
    const busy = code !== 0 && held.some(([, t]) => t.includes(Codes.WRITE_BUSY));
    if (!busy || attempt === 5) {
      for (const [write, text] of held) write(text);
      return code;
    }
  }
}

/** Waits (up to 30 s) while another mcpgen process writes the project. */
async function othersDone(outDir: string): Promise<void> {
  // The watcher's debounce: a regeneration the manifest edit starts begins within it.
  await new Promise((r) => setTimeout(r, 150));
  for (const end = Date.now() + 30_000; runningOwner(outDir) !== null && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 50));
}

/**
 * The manifest's text that still names the old name, each at file:line:col: rename never rewords
 * prose, so the model would be pointed at a name that is gone until the user edits it. After
 * `--yes` they come last, as warnings; in a dry run, with the plan.
 */
function printMentions(plan: RenamePlan, io: CliIO, applied: boolean): void {
  if (!plan.mentions.length) return;
  const file = plan.manifest.display;
  const advice = `rename does not reword the manifest's text: edit ${plan.mentions.length === 1 ? 'it' : 'these'} to name "${plan.to}"`;
  for (const m of plan.mentions) {
    const where = `${file}:${m.line}:${m.column}: ${m.at}`;
    if (applied) io.stderr(`! ${where} still names "${plan.from}"\n`);
    else io.stdout(`  text      ${where} names "${plan.from}"\n`);
    io.outcome?.next.push({
      message: `${where} still names "${plan.from}": edit it to name "${plan.to}"`,
      command: null,
      cwd: null,
    });
  }
  if (applied) io.stderr(`  ${advice}\n`);
  else io.stdout(`  (${advice})\n`);
}

/** Under --json: the manifest's edit, each move, each file edited (then, with --yes, generate's plan). */
function recordPlan(plan: RenamePlan, io: CliIO): void {
  if (!io.outcome) return;
  io.outcome.project = plan.outDir;
  const changes = io.outcome.changes;
  if (plan.keyEdit)
    changes.push({
      action: 'edit',
      path: slashes(path.relative(plan.outDir, plan.manifest.abs)),
      owner: 'user',
      from: null,
    });
  for (const m of plan.moves) {
    if (m.from !== m.to) changes.push({ action: 'move', path: m.to, owner: 'user', from: m.from });
    if (m.edits.length) changes.push({ action: 'edit', path: m.to, owner: 'user', from: null });
  }
}

function printPlan(plan: RenamePlan, io: CliIO, rel: (p: string) => string): void {
  io.stdout(`rename ${plan.kind} "${plan.from}" → "${plan.to}"\n`);
  const k = plan.keyEdit;
  if (k) io.stdout(`  edit      ${plan.manifest.display}:${k.line}:${k.column}: ${k.before} → ${k.after}\n`);
  else io.stdout(`  (${plan.manifest.display} already names it "${plan.to}")\n`);
  for (const m of plan.moves) {
    if (m.from !== m.to)
      io.stdout(
        `  move      ${rel(m.from)} → ${rel(m.to)}${m.replacesStub !== undefined ? '  (replacing the untouched stub generate made there)' : ''}\n`,
      );
    for (const e of m.edits) io.stdout(`  edit      ${rel(m.to)}:${e.line}: ${e.before} → ${e.after}\n`);
  }
  io.stdout(`  generate  the generated code for "${plan.to}" (as mcpgen generate)\n`);
}
