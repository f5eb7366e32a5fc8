/**
 * switches: one switch of a running transaction, done or undone by renames between the project and
 * its staging folder (`new/` holds what goes in, `old/` what came out). A switch is done exactly
 * when its staged file (a removal: its target) is gone.
 */
import { existsSync, lstatSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { Switch } from './journal.js';

/** One switch, if not done yet. A user file that appeared meanwhile is kept. */
export function forward(absRoot: string, staging: string, s: Switch): void {
  const target = path.join(absRoot, s.path);
  if (s.op === 'remove') {
    if (lstatSync(target, { throwIfNoEntry: false })) renameSync(target, path.join(staging, 'old', s.path));
    return;
  }
  const staged = path.join(staging, 'new', s.path);
  if (!lstatSync(staged, { throwIfNoEntry: false })) return;
  if (s.op === 'put' && s.user && lstatSync(target, { throwIfNoEntry: false })) return;
  renameSync(staged, target);
}

/** Undoes a switch done by this process: the exact inverse rename(s), back to "not done". */
export function backward(absRoot: string, staging: string, s: Switch): void {
  const target = path.join(absRoot, s.path);
  const old = path.join(staging, 'old', s.path);
  if (s.op === 'remove') {
    if (existsSync(old) && !lstatSync(target, { throwIfNoEntry: false })) renameSync(old, target);
    return;
  }
  const staged = path.join(staging, 'new', s.path);
  if (lstatSync(staged, { throwIfNoEntry: false })) return; // not switched (or a user file kept)
  renameSync(target, staged);
  if (s.op === 'put' && s.replaces) renameSync(old, target);
}

/** Remove folders emptied by stale-file removal, up to (not including) the project root. */
export function pruneEmptyDirs(absRoot: string, dir: string): void {
  let cur = path.resolve(dir);
  try {
    while (cur.startsWith(absRoot + path.sep)) {
      if (readdirSync(cur).length > 0) return;
      rmdirSync(cur);
      cur = path.dirname(cur);
    }
  } catch {
    /* an empty folder left behind is harmless */
  }
}
