/**
 * write: apply a plan. Nothing is ever half-written: a file that goes into an existing folder is
 * written to a temp file beside it and renamed over; files that go into folders that do not exist
 * yet (a first generate: all of src/ and test/) are written into a staging folder inside the
 * project and each new top folder is renamed into place whole — one rename instead of one per file,
 * and an interrupted run leaves no partial tree, only the staging folder, swept by the next run.
 * Only files whose content changed are touched, so a no-op regenerate keeps every modification time.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../plan/plan.js';

export interface WriteResult {
  written: string[];
  removed: string[];
}

const STAGING = '.mcpgen-staging-';

/**
 * Writes what changed, then removes what is stale. Synchronous on purpose: for thousands of small
 * files it beats the thread pool here (≈ 0.1 s vs 0.2–0.3 s for 2000 files, measured).
 */
export function applyPlan(plan: Plan): WriteResult {
  if (plan.errors.length) throw new Error('internal: applyPlan called on a plan with errors');
  sweepStaging(plan.root);
  const writes = plan.entries.filter((e) => (e.action === 'create' || e.action === 'update') && e.content !== undefined);
  // The highest missing folder above each file (null: its folder exists), asked of the disk once per folder.
  const missingTop = new Map<string, string | null>();
  const topOf = (dir: string): string | null => {
    if (dir === '.' || dir === '') return null;
    let top = missingTop.get(dir);
    if (top === undefined) {
      const above = topOf(path.posix.dirname(dir));
      top = above ?? (existsSync(path.join(plan.root, dir)) ? null : dir);
      missingTop.set(dir, top);
    }
    return top;
  };
  const staged = writes.filter((e) => topOf(path.posix.dirname(e.path)) !== null);
  const inPlace = writes.filter((e) => topOf(path.posix.dirname(e.path)) === null);
  if (staged.length) {
    const staging = path.join(plan.root, `${STAGING}${process.pid}`);
    const placed: string[] = [];
    try {
      const dirs = new Set(staged.map((e) => path.join(staging, path.dirname(e.path))));
      for (const dir of [...dirs].sort()) mkdirSync(dir, { recursive: true });
      for (const e of staged) writeFileSync(path.join(staging, e.path), e.content!);
      const tops = new Set(staged.map((e) => topOf(path.posix.dirname(e.path))!));
      for (const top of [...tops].sort()) {
        mkdirSync(path.dirname(path.join(plan.root, top)), { recursive: true });
        renameSync(path.join(staging, top), path.join(plan.root, top));
        placed.push(top);
      }
    } catch (err) {
      // These folders did not exist before this run: taking them out again restores the project.
      for (const top of placed) rmSync(path.join(plan.root, top), { recursive: true, force: true });
      throw err;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  // Each folder is created once, before any file goes into it.
  const dirs = new Set(inPlace.map((e) => path.dirname(path.join(plan.root, e.path))));
  for (const dir of [...dirs].sort()) mkdirSync(dir, { recursive: true });
  for (const e of inPlace) writeAtomicIn(path.join(plan.root, e.path), e.content!);
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

/** Staging folders of runs that were killed (their process is gone). */
function sweepStaging(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(STAGING));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(STAGING.length));
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) continue;
    rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
