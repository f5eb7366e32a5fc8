/**
 * Making a planned rename: each step records its undo, and a step that fails (or a regeneration
 * that does not succeed) undoes the ones before it, so the project is left as it was. Files are
 * moved, never copied and deleted: a move that would overwrite a file fails instead.
 */
import { linkSync, lstatSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { replaceAtomic } from '../write/write.js';
import type { RenamePlan } from './plan.js';

/** Applies the plan, then runs `regenerate`; on any failure undoes everything and rethrows (or returns its exit code). */
export async function applyRename(plan: RenamePlan, regenerate: () => Promise<number>): Promise<number> {
  const undo: (() => void)[] = [];
  const abs = (p: string) => path.join(plan.outDir, p);
  let code: number;
  try {
    for (const m of plan.moves) {
      if (m.from !== m.to) {
        if (m.replacesStub !== undefined) {
          const stub = m.replacesStub;
          renameSync(abs(m.from), abs(m.to));
          undo.push(() => {
            renameSync(abs(m.to), abs(m.from));
            writeFileSync(abs(m.to), stub, { flag: 'wx' });
          });
        } else {
          moveNoClobber(abs(m.from), abs(m.to));
          undo.push(() => moveNoClobber(abs(m.to), abs(m.from)));
        }
      }
      if (m.text !== m.original) {
        replaceAtomic(abs(m.to), m.text);
        undo.push(() => replaceAtomic(abs(m.to), m.original));
      }
    }
    if (plan.keyEdit) {
      const { abs: manifest, original } = plan.manifest;
      replaceAtomic(manifest, plan.keyEdit.text);
      undo.push(() => replaceAtomic(manifest, original));
    }
    code = await regenerate();
  } catch (err) {
    undoAll(undo);
    throw err;
  }
  if (code !== 0) undoAll(undo);
  return code;
}

/** Every undo step is tried, even after one fails; the failures are reported together. */
function undoAll(undo: (() => void)[]): void {
  const failed: string[] = [];
  for (const step of undo.reverse()) {
    try {
      step();
    } catch (err) {
      failed.push((err as Error).message);
    }
  }
  if (failed.length) throw new Error(`the rename failed and could not be fully undone: ${failed.join('; ')}`);
}

/** A rename that fails when the target exists: a hard link then an unlink (atomic on POSIX), else a checked rename. */
function moveNoClobber(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // File systems without hard links (some network and FAT ones) and case-only renames.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EEXIST') throw err;
    if (code === 'EEXIST' && !sameFile(from, to)) throw err;
    renameSync(from, to);
    return;
  }
  unlinkSync(from);
}

function sameFile(a: string, b: string): boolean {
  const [x, y] = [lstatSync(a), lstatSync(b)];
  return x.ino === y.ino && x.dev === y.dev;
}
