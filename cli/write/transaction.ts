/**
 * transaction: one generate's writes as a single switch that neither an error nor a kill can leave
 * half done. Everything happens in `.mcpgen-staging/` at the project root (same file system, so
 * every switch is a rename):
 *
 * 1. stage: each new file is written under `new/` (mirroring the project; a folder that does not
 *    exist yet is staged whole), each file about to be replaced gets a hard link (else a copy)
 *    under `old/`. The project itself is untouched: an error or a kill here leaves the old project
 *    and a staging folder that the next run deletes.
 * 2. commit: `journal.json`, the list of switches, is renamed into place.
 * 3. switch: new files and folders renamed into place, stale files renamed into `old/`. A switch is
 *    done exactly when its staged file (a removal: its target) is gone, so the next run finishes a
 *    killed switch deterministically (roll forward). On an error, the renames done are reversed in
 *    order (`old/` holds the replaced files, same inodes: same bytes, same mtimes).
 * 4. done: the journal is deleted, then the staging folder.
 *
 * Power loss is outside this: nothing is fsynced (fsyncing every file of a large project costs
 * more than the whole generate); what survives is up to the file system's own ordering.
 */
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Codes } from '../manifest/codes.js';
import { alive } from './temps.js';
import { reason, WriteError, writeErrorOf } from './write-error.js';

export const STAGING = '.mcpgen-staging';
const JOURNAL = 'journal.json';
const OWNER = 'owner';
const NOTHING = 'nothing was written';

export type Switch =
  /** A folder that did not exist: staged whole, switched by one rename. */
  | { op: 'dir'; path: string }
  /** A file into an existing folder; `replaces`: a file is there (backed up in old/). User files never replace. */
  | { op: 'put'; path: string; replaces: boolean; user?: true }
  | { op: 'remove'; path: string };

interface Journal {
  version: 1;
  switches: Switch[];
}

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
  const staging = path.join(absRoot, STAGING);
  const switches: Switch[] = [
    ...[...new Set(files.filter((f) => f.top !== null).map((f) => f.top!))].sort().map((p): Switch => ({ op: 'dir', path: p })),
    ...files.filter((f) => f.top === null).map((f): Switch => ({ op: 'put', path: f.path, replaces: f.replaces, ...(f.user ? { user: true as const } : {}) })),
    ...removes.map((p): Switch => ({ op: 'remove', path: p })),
  ];
  try {
    claim(absRoot);
  } catch (err) {
    // The staging folder may be another run's: only the project folder this run created goes.
    discard(absRoot, made, false);
    throw writeErrorOf(err, absRoot, 'write', (err as NodeJS.ErrnoException).path ?? staging, NOTHING);
  }
  try {
    stage(absRoot, files, switches);
  } catch (err) {
    discard(absRoot, made);
    throw writeErrorOf(err, absRoot, 'write', (err as NodeJS.ErrnoException).path ?? staging, NOTHING);
  }
  let done = 0;
  try {
    for (; done < switches.length; done++) forward(absRoot, switches[done]!, false);
  } catch (err) {
    const failed = switches[done]!;
    const target = path.join(absRoot, failed.path);
    const what = failed.op === 'remove' ? 'remove stale' : failed.op === 'dir' ? 'create folder' : failed.replaces ? 'replace' : 'create';
    try {
      for (let i = done - 1; i >= 0; i--) backward(absRoot, switches[i]!);
    } catch (undoErr) {
      const first = writeErrorOf(err, absRoot, what, target, 'and undoing the files already switched failed');
      const where = (undoErr as NodeJS.ErrnoException).path ?? absRoot;
      const why = writeErrorOf(undoErr, absRoot, 'restore', where, 'the journal in .mcpgen-staging/ lets the next mcpgen generate finish the switch');
      throw new WriteError(Codes.WRITE_UNDO_FAILED, target, `${first.message} too (${why.message})`);
    }
    discard(absRoot, made);
    throw writeErrorOf(err, absRoot, what, target, 'nothing was changed');
  }
  finish(absRoot, switches);
}

/** The project folder, created when missing: the first folder created (to take out again on failure). */
function makeRoot(absRoot: string): string | undefined {
  try {
    return mkdirSync(absRoot, { recursive: true });
  } catch (err) {
    throw writeErrorOf(err, path.dirname(absRoot), 'create the project folder', absRoot, NOTHING);
  }
}

/** Takes the staging folder for this process; an earlier run's is finished or deleted first (recover). */
function claim(absRoot: string): void {
  const staging = path.join(absRoot, STAGING);
  try {
    mkdirSync(staging);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    recover(absRoot);
    mkdirSync(staging);
  }
  try {
    writeFileSync(path.join(staging, OWNER), `${process.pid}\n`);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

function stage(absRoot: string, files: Staged[], switches: Switch[]): void {
  const staging = path.join(absRoot, STAGING);
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
  const journal: Journal = { version: 1, switches };
  writeFileSync(path.join(staging, `${JOURNAL}.tmp`), JSON.stringify(journal));
  renameSync(path.join(staging, `${JOURNAL}.tmp`), path.join(staging, JOURNAL));
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

/**
 * One switch, if not done yet. `recovering`: finishing a killed run, whose project may have moved
 * on a little (a folder deleted, a stub created by hand): folders are created, user files kept.
 */
function forward(absRoot: string, s: Switch, recovering: boolean): void {
  const target = path.join(absRoot, s.path);
  if (s.op === 'remove') {
    if (!lstatSync(target, { throwIfNoEntry: false })) return;
    if (recovering) unlinkSync(target);
    else renameSync(target, path.join(absRoot, STAGING, 'old', s.path));
    return;
  }
  const staged = path.join(absRoot, STAGING, 'new', s.path);
  if (!lstatSync(staged, { throwIfNoEntry: false })) return;
  if (s.op === 'put' && s.user && lstatSync(target, { throwIfNoEntry: false })) return;
  if (recovering) mkdirSync(path.dirname(target), { recursive: true });
  if (recovering && s.op === 'dir' && lstatSync(target, { throwIfNoEntry: false })) mergeInto(staged, target);
  else renameSync(staged, target);
}

/** A staged folder whose target appeared meanwhile: what is not there yet is moved in, nothing is replaced. */
function mergeInto(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    const there = lstatSync(dst, { throwIfNoEntry: false });
    if (!there) renameSync(src, dst);
    else if (e.isDirectory() && there.isDirectory()) mergeInto(src, dst);
  }
}

/** Undoes a switch done by this process: the exact inverse rename(s), back to "not done". */
function backward(absRoot: string, s: Switch): void {
  const target = path.join(absRoot, s.path);
  const old = path.join(absRoot, STAGING, 'old', s.path);
  if (s.op === 'remove') {
    if (existsSync(old) && !lstatSync(target, { throwIfNoEntry: false })) renameSync(old, target);
    return;
  }
  const staged = path.join(absRoot, STAGING, 'new', s.path);
  if (lstatSync(staged, { throwIfNoEntry: false })) return; // not switched (or a user file kept)
  renameSync(target, staged);
  if (s.op === 'put' && s.replaces) renameSync(old, target);
}

/** After the switch: folders emptied by removals go, then the journal, then the staging folder. */
function finish(absRoot: string, switches: Switch[]): void {
  for (const s of switches) if (s.op === 'remove') pruneEmptyDirs(absRoot, path.dirname(path.join(absRoot, s.path)));
  const staging = path.join(absRoot, STAGING);
  try {
    unlinkSync(path.join(staging, JOURNAL));
  } catch (err) {
    // The project is the new one, but a journal left behind would be replayed by the next run.
    throw writeErrorOf(err, absRoot, 'remove', path.join(staging, JOURNAL), 'the project was written; delete .mcpgen-staging/ by hand');
  }
  rmSync(staging, { recursive: true, force: true, maxRetries: 2 });
}

/** Before the commit or after an undo: the staging folder goes, and the project folder if this run created it. */
function discard(absRoot: string, made: string | undefined, staging = true): void {
  try {
    if (staging) rmSync(path.join(absRoot, STAGING), { recursive: true, force: true, maxRetries: 2 });
    if (made) for (let dir = absRoot; dir.startsWith(made); dir = path.dirname(dir)) rmdirSync(dir);
  } catch {
    /* best effort: the next run deletes what is left */
  }
}

/** Remove folders emptied by stale-file removal, up to (not including) the project root. */
function pruneEmptyDirs(absRoot: string, dir: string): void {
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

export type Leftover = 'none' | 'staged' | 'journal';

/**
 * What an earlier run left, in one lstat when nothing: `staged` (killed before its commit, or still
 * running: the project is the old one), `journal` (killed mid-switch: only generate can finish it).
 */
export function leftover(root: string): Leftover {
  const staging = path.join(path.resolve(root), STAGING);
  let st;
  try {
    st = lstatSync(staging, { throwIfNoEntry: false });
  } catch {
    return 'none';
  }
  if (!st) return 'none';
  return st.isDirectory() && existsSync(path.join(staging, JOURNAL)) ? 'journal' : 'staged';
}

/** The process that owns the staging folder, when it is still running (another generate, or watch). */
export function runningOwner(root: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(path.resolve(root), STAGING, OWNER), 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/**
 * Finishes what an earlier run left: a committed switch is rolled forward, an uncommitted staging
 * folder deleted. 'none' after a single lstat when there is nothing (the up-to-date path).
 */
export function recover(root: string): 'none' | 'discarded' | 'finished' {
  const absRoot = path.resolve(root);
  const staging = path.join(absRoot, STAGING);
  const st = lstatSync(staging, { throwIfNoEntry: false });
  if (!st) return 'none';
  if (!st.isDirectory())
    throw new WriteError(Codes.WRITE_FAILED, staging, `${STAGING} is not mcpgen's staging folder (it is not a folder); move it away and run mcpgen generate again`);
  const owner = runningOwner(absRoot);
  if (owner !== null)
    throw new WriteError(
      Codes.WRITE_BUSY,
      staging,
      `another mcpgen generate (process ${owner}) is writing this project; run again when it is done (if no mcpgen is running, delete ${STAGING}/)`,
    );
  const journal = readJournal(staging);
  if (journal) {
    try {
      for (const s of journal.switches) forward(absRoot, s, true);
      for (const s of journal.switches) if (s.op === 'remove') pruneEmptyDirs(absRoot, path.dirname(path.join(absRoot, s.path)));
      unlinkSync(path.join(staging, JOURNAL));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (!(err instanceof Error) || typeof e.code !== 'string') throw err;
      const where = e.path ? path.relative(absRoot, e.path).split(path.sep).join('/') : STAGING;
      throw new WriteError(
        Codes.WRITE_RECOVERY_FAILED,
        e.path ?? staging,
        `cannot finish the generate that was interrupted (${where}: ${reason(e)}); its journal is kept in ${STAGING}/ for the next run`,
      );
    }
  }
  try {
    rmSync(staging, { recursive: true, force: true, maxRetries: 2 });
  } catch (err) {
    throw writeErrorOf(err, absRoot, 'remove', staging, 'it is what an interrupted generate left; delete it by hand');
  }
  return journal ? 'finished' : 'discarded';
}

/** The committed journal; null when there is none, or it is unreadable (then the plan rewrites every generated file anyway). */
function readJournal(staging: string): Journal | null {
  let text: string;
  try {
    text = readFileSync(path.join(staging, JOURNAL), 'utf8');
  } catch {
    return null;
  }
  try {
    const j = JSON.parse(text) as Journal;
    return j.version === 1 && Array.isArray(j.switches) && j.switches.every(validSwitch) ? j : null;
  } catch {
    return null;
  }
}

/** Only paths inside the project: a journal is data from disk. */
function validSwitch(s: Switch): boolean {
  return (
    typeof s === 'object' &&
    s !== null &&
    ['dir', 'put', 'remove'].includes(s.op) &&
    typeof s.path === 'string' &&
    s.path !== '' &&
    !path.isAbsolute(s.path) &&
    !s.path.split('/').some((seg) => seg === '..' || seg === '' || seg === '.') &&
    s.path.split('/')[0] !== STAGING
  );
}
