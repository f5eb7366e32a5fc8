/**
 * write: apply a plan. Atomic per file (temp file in the same folder + rename), so an interrupted
 * run never leaves a truncated file; only files whose content changed are touched, so a no-op
 * regenerate keeps every modification time.
 */
import { mkdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../plan/plan.js';

export interface WriteResult {
  written: string[];
  removed: string[];
}

/**
 * Writes what changed, then removes what is stale. Synchronous on purpose: for thousands of small
 * files it beats the thread pool here (≈ 0.1 s vs 0.2–0.3 s for 2000 files, measured).
 */
export function applyPlan(plan: Plan): WriteResult {
  if (plan.errors.length) throw new Error('internal: applyPlan called on a plan with errors');
  const writes = plan.entries.filter((e) => (e.action === 'create' || e.action === 'update') && e.content !== undefined);
  // Each folder is created once, before any file goes into it.
  const dirs = new Set(writes.map((e) => path.dirname(path.join(plan.root, e.path))));
  for (const dir of [...dirs].sort()) mkdirSync(dir, { recursive: true });
  for (const e of writes) writeAtomicIn(path.join(plan.root, e.path), e.content!);
  const removed: string[] = [];
  for (const e of plan.entries) {
    if (e.action !== 'remove') continue;
    const abs = path.join(plan.root, e.path);
    unlinkSync(abs);
    removed.push(e.path);
    pruneEmptyDirs(plan.root, path.dirname(abs));
  }
  return { written: writes.map((e) => e.path), removed };
}

export function writeAtomic(abs: string, content: string): void {
  mkdirSync(path.dirname(abs), { recursive: true });
  writeAtomicIn(abs, content);
}

/** writeAtomic for a folder that exists: a temp file in the same folder, then a rename. */
function writeAtomicIn(abs: string, content: string): void {
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.mcpgen-${process.pid}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, abs);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* the temp file may not exist */
    }
    throw err;
  }
}

/** Remove folders emptied by stale-file removal, up to (not including) the project root. */
function pruneEmptyDirs(root: string, dir: string): void {
  const absRoot = path.resolve(root);
  let cur = path.resolve(dir);
  while (cur.startsWith(absRoot + path.sep)) {
    if (readdirSync(cur).length > 0) return;
    rmdirSync(cur);
    cur = path.dirname(cur);
  }
}
