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

export function applyPlan(plan: Plan): WriteResult {
  if (plan.errors.length) throw new Error('internal: applyPlan called on a plan with errors');
  const written: string[] = [];
  const removed: string[] = [];
  for (const e of plan.entries) {
    const abs = path.join(plan.root, e.path);
    if ((e.action === 'create' || e.action === 'update') && e.content !== undefined) {
      writeAtomic(abs, e.content);
      written.push(e.path);
    } else if (e.action === 'remove') {
      unlinkSync(abs);
      removed.push(e.path);
      pruneEmptyDirs(plan.root, path.dirname(abs));
    }
  }
  return { written, removed };
}

export function writeAtomic(abs: string, content: string): void {
  mkdirSync(path.dirname(abs), { recursive: true });
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
