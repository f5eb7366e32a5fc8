/**
 * transaction: one generate's writes as a single switch that neither an error nor a kill can leave
 * half done. Everything happens in a staging folder inside the project (staging.ts: `.mcpgen-staging/`
 * at the root, or in a folder mcpgen writes into when the root is read-only; the same file system,
 * so every switch is a rename):
 *
 * 0. claim: the folder is created, with `run` (whose identity seals the journal, journal.ts) and
 *    `owner` (this process, by PID and start time, owner.ts).
 * 1. stage: each new file is written under `new/` (mirroring the project; a folder that does not
 *    exist yet is staged whole), each file about to be replaced gets a hard link (else a copy)
 *    under `old/`. The project itself is untouched: an error or a kill here leaves the old project
 *    and a staging folder that the next run deletes.
 * 2. commit: `journal.json`, the list of switches and its seal, is renamed into place.
 * 3. switch: new files and folders renamed into place, stale files renamed into `old/` (switches.ts).
 *    A switch is done exactly when its staged file (a removal: its target) is gone, so the next run
 *    finishes a killed switch deterministically (roll forward, recover.ts). On an error, the
 *    renames done are reversed in order (`old/` holds the replaced files, same inodes: same bytes,
 *    same mtimes).
 * 4. done: the journal is deleted, then the staging folder.
 *
 * Power loss is outside this: nothing is fsynced (fsyncing every file of a large project costs
 * more than the whole generate); what survives is up to the file system's own ordering.
 */
import {
  accessSync,
  constants,
  copyFileSync,
  linkSync,
  mkdirSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Codes } from '../manifest/codes.js';
import { JOURNAL, writeJournal, writeRun, type Switch } from './journal.js';
import { ownerText } from './owner.js';
import { OWNER, recover } from './recover.js';
import { makeStaging, NoStagingPlace, STAGING, stagingIn, stagingName } from './staging.js';
import { backward, forward, pruneEmptyDirs } from './switches.js';
import { reason, WriteError, writeErrorOf } from './write-error.js';

export { leftover, recover, runningOwner, type Leftover } from './recover.js';
export { STAGING } from './staging.js';
export type { Switch } from './journal.js';

const NOTHING = 'nothing was written';

export interface Staged {
  /** POSIX path relative to the project root. */
  path: string;
  content: string;
  user: boolean;
  /** The folder (relative, POSIX) this file is staged in whole, when its folder does not exist. */
  top: string | null;
  replaces: boolean;
}

/**
 * Stages `files`, commits, switches, removes `removes` (relative POSIX paths) in the same switch.
 * Throws a WriteError when the file system refuses anything; the project is then as it was.
 */
export function runTransaction(root: string, files: Staged[], removes: string[]): void {
  const absRoot = path.resolve(root);
  const made = makeRoot(absRoot);
  const switches: Switch[] = [
    ...[...new Set(files.filter((f) => f.top !== null).map((f) => f.top!))]
      .sort()
      .map((p): Switch => ({ op: 'dir', path: p })),
    ...files
      .filter((f) => f.top === null)
      .map(
        (f): Switch => ({ op: 'put', path: f.path, replaces: f.replaces, ...(f.user ? { user: true as const } : {}) }),
      ),
    ...removes.map((p): Switch => ({ op: 'remove', path: p })),
  ];
  let claimed: { staging: string; at: string; run: string };
  try {
    claimed = claim(absRoot);
  } catch (err) {
    // The staging folder may be another run's: only the project folder this run created goes.
    discard(absRoot, made, null);
    if (err instanceof NoStagingPlace) throw nowhere(absRoot, err);
    throw writeErrorOf(
      err,
      absRoot,
      'write',
      (err as NodeJS.ErrnoException).path ?? path.join(absRoot, STAGING),
      NOTHING,
    );
  }
  const { staging, at, run } = claimed;
  try {
    stage(absRoot, staging, files, switches);
    writeJournal(staging, run, at, switches);
  } catch (err) {
    discard(absRoot, made, staging);
    throw writeErrorOf(err, absRoot, 'write', (err as NodeJS.ErrnoException).path ?? staging, NOTHING);
  }
  let done = 0;
  try {
    for (; done < switches.length; done++) forward(absRoot, staging, switches[done]!);
  } catch (err) {
    const failed = switches[done]!;
    const target = path.join(absRoot, failed.path);
    const what =
      failed.op === 'remove'
        ? 'remove stale'
        : failed.op === 'dir'
          ? 'create folder'
          : failed.replaces
            ? 'replace'
            : 'create';
    try {
      for (let i = done - 1; i >= 0; i--) backward(absRoot, staging, switches[i]!);
    } catch (undoErr) {
      const first = writeErrorOf(err, absRoot, what, target, 'and undoing the files already switched failed');
      const where = (undoErr as NodeJS.ErrnoException).path ?? absRoot;
      const why = writeErrorOf(
        undoErr,
        absRoot,
        'restore',
        where,
        `the journal in ${stagingName(at)}/ lets the next mcpgen generate finish the switch`,
      );
      throw new WriteError(Codes.WRITE_UNDO_FAILED, target, `${first.message} too (${why.message})`);
    }
    discard(absRoot, made, staging);
    throw writeErrorOf(err, absRoot, what, target, 'nothing was changed');
  }
  finish(absRoot, staging, at, switches);
}

/** The project folder, created when missing: the first folder created (to take out again on failure). */
function makeRoot(absRoot: string): string | undefined {
  try {
    return mkdirSync(absRoot, { recursive: true });
  } catch (err) {
    throw writeErrorOf(err, path.dirname(absRoot), 'create the project folder', absRoot, NOTHING);
  }
}

/** Takes a staging folder for this process (an earlier run's is finished or deleted first: recover), with its run and owner files. */
function claim(absRoot: string): { staging: string; at: string; run: string } {
  const at = makeStaging(absRoot, () => recover(absRoot));
  const staging = stagingIn(absRoot, at);
  try {
    const run = writeRun(staging);
    writeFileSync(path.join(staging, OWNER), ownerText());
    return { staging, at, run };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** No folder would take the staging folder: which folders to make writable. */
function nowhere(absRoot: string, err: NoStagingPlace): WriteError {
  const others = err.tried.map((p) => `${p}/`);
  const fix = others.length
    ? `make the project folder writable, or one of ${others.join(', ')} (mcpgen stages its writes in the first of these it can write)`
    : 'make the project folder writable';
  return new WriteError(
    Codes.WRITE_FAILED,
    path.join(absRoot, STAGING),
    `cannot write ${STAGING}: ${reason(err.first)}; ${fix}; ${NOTHING}`,
  );
}

function stage(absRoot: string, staging: string, files: Staged[], switches: Switch[]): void {
  const dirs = new Set<string>();
  for (const f of files) {
    dirs.add(path.posix.dirname(`new/${f.path}`));
    if (f.replaces) dirs.add(path.posix.dirname(`old/${f.path}`));
  }
  for (const s of switches) if (s.op === 'remove') dirs.add(path.posix.dirname(`old/${s.path}`));
  for (const dir of [...dirs].sort()) mkdirSync(path.join(staging, dir), { recursive: true });
  for (const f of files) writeFileSync(path.join(staging, 'new', f.path), f.content);
  for (const f of files) if (f.replaces) backup(path.join(absRoot, f.path), path.join(staging, 'old', f.path));
  // Folders that refuse writes fail here, before anything in the project changed.
  const folders = new Set(switches.map((s) => path.posix.dirname(s.path)));
  for (const dir of [...folders].sort()) {
    const abs = path.join(absRoot, dir);
    try {
      accessSync(abs, constants.W_OK);
    } catch (err) {
      throw writeErrorOf(err, absRoot, 'write into', abs, NOTHING);
    }
  }
}

/** A hard link keeps the replaced file itself (bytes, mode, mtime); a copy where links are refused. */
function backup(target: string, to: string): void {
  try {
    linkSync(target, to);
  } catch {
    copyFileSync(target, to);
    const st = statSync(target);
    utimesSync(to, st.atime, st.mtime);
  }
}

/** After the switch: folders emptied by removals go, then the journal, then the staging folder. */
function finish(absRoot: string, staging: string, at: string, switches: Switch[]): void {
  for (const s of switches) if (s.op === 'remove') pruneEmptyDirs(absRoot, path.dirname(path.join(absRoot, s.path)));
  try {
    unlinkSync(path.join(staging, JOURNAL));
  } catch (err) {
    // The project is the new one, but a journal left behind would be replayed by the next run.
    throw writeErrorOf(
      err,
      absRoot,
      'remove',
      path.join(staging, JOURNAL),
      `the project was written; delete ${stagingName(at)}/ by hand`,
    );
  }
  rmSync(staging, { recursive: true, force: true, maxRetries: 2 });
}

/** Before the commit or after an undo: the staging folder goes (when this run made it), and the project folder if this run created it. */
function discard(absRoot: string, made: string | undefined, staging: string | null): void {
  try {
    if (staging) rmSync(staging, { recursive: true, force: true, maxRetries: 2 });
    if (made) for (let dir = absRoot; dir.startsWith(made); dir = path.dirname(dir)) rmdirSync(dir);
  } catch {
    /* best effort: the next run deletes what is left */
  }
}
