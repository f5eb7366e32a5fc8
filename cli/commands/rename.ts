/**
 * `mcpgen rename <kind> <old> <new>`: renames a manifest entry and carries its handler along (the
 * key edited in place, the handler and its test stub moved and re-pointed, then a generate). Prints
 * the plan and writes nothing unless `--yes`.
 */
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_USAGE, type CliIO } from '../io.js';
import { applyRename } from '../rename/apply.js';
import { isRenameKind, KIND_NAMES } from '../rename/kinds.js';
import { planRename, Refusal, type RenamePlan } from '../rename/plan.js';
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
    return EXIT_USAGE;
  }
  const rel = (p: string) => path.relative(io.cwd, path.join(plan.outDir, p)) || '.';
  printPlan(plan, io, rel);
  if (!opts.yes) {
    io.stdout(`dry run, nothing written; run again with --yes to apply\n`);
    return EXIT_OK;
  }
  const code = await applyRename(plan, () => generateCommand({ file: plan.manifest.abs, out: plan.outDir }, io));
  if (code !== EXIT_OK) {
    io.stderr(`✖ the regeneration failed, so the rename was undone; nothing was changed\n`);
    return code;
  }
  io.stdout(`✔ renamed ${kind} "${from}" to "${to}"\n`);
  return EXIT_OK;
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
