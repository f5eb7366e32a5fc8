/**
 * recover: what the next run does with a staging folder an earlier one left. The owner still
 * running: stop (MCPG913). No journal (killed before its commit): the project is the old one, the
 * folder goes. A journal: rolled forward, when it is this project's (its seal, journal.ts) and
 * every switch stays inside what mcpgen may touch (owned.ts), through real folders only; anything
 * else refuses the journal before a single change (MCPG916), and the folder is left to look at.
 */
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { Codes } from '../manifest/codes.js';
import { hasHeader } from '../plan/plan.js';
import { JOURNAL, readJournal, Refused, type Journal, type Switch } from './journal.js';
import { mayCreate, mayRemove, userOwned } from './owned.js';
import { ownerRunning, parseOwner } from './owner.js';
import { foundPlaces, stagingIn, stagingName } from './staging.js';
import { pruneEmptyDirs } from './switches.js';
import { isTempName } from './temps.js';
import { isSystemError, reason, WriteError, writeErrorOf } from './write-error.js';

export const OWNER = 'owner';

export type Leftover = 'none' | 'staged' | 'journal';

/**
 * What an earlier run left, in one lstat per place when nothing: `staged` (killed before its
 * commit, or still running: the project is the old one; also a journal that would be refused, as
 * it is no switch of this project), `journal` (killed mid-switch: only generate can finish it).
 */
export function leftover(root: string): Leftover {
  const absRoot = path.resolve(root);
  const places = foundPlaces(absRoot);
  if (!places.length) return 'none';
  for (const place of places) {
    try {
      if (readJournal(stagingIn(absRoot, place), place)) return 'journal';
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
    }
  }
  return 'staged';
}

/** The process that owns a staging folder of the project, when it is still running (another generate, or watch). */
export function runningOwner(root: string): number | null {
  const absRoot = path.resolve(root);
  for (const place of foundPlaces(absRoot)) {
    const pid = ownerOf(stagingIn(absRoot, place));
    if (pid !== null) return pid;
  }
  return null;
}

function ownerOf(staging: string): number | null {
  let text: string;
  let writtenAt: number;
  try {
    text = readFileSync(path.join(staging, OWNER), 'utf8');
    writtenAt = lstatSync(path.join(staging, OWNER)).mtimeMs;
  } catch {
    return null;
  }
  const owner = parseOwner(text);
  return owner && ownerRunning(owner, writtenAt) ? owner.pid : null;
}

/**
 * Finishes what earlier runs left: a committed switch is rolled forward, an uncommitted staging
 * folder deleted. 'none' after one lstat per place when there is nothing (the up-to-date path).
 */
export function recover(root: string): 'none' | 'discarded' | 'finished' {
  const absRoot = path.resolve(root);
  const places = foundPlaces(absRoot);
  if (!places.length) return 'none';
  let finished = false;
  for (const place of places) finished = recoverAt(absRoot, place) || finished;
  return finished ? 'finished' : 'discarded';
}

function recoverAt(absRoot: string, place: string): boolean {
  const staging = stagingIn(absRoot, place);
  const name = stagingName(place);
  if (!lstatSync(staging).isDirectory())
    throw new WriteError(
      Codes.WRITE_FAILED,
      staging,
      `${name} is not mcpgen's staging folder (it is not a folder); move it away and run mcpgen generate again`,
    );
  const owner = ownerOf(staging);
  if (owner !== null)
    throw new WriteError(
      Codes.WRITE_BUSY,
      staging,
      `another mcpgen generate (process ${owner}) is writing this project; run again when it is done (if no mcpgen is running, delete ${name}/)`,
    );
  let journal: Journal | null;
  try {
    journal = readJournal(staging, place);
    if (journal) for (const s of journal.switches) step(absRoot, staging, name, s);
  } catch (err) {
    if (err instanceof Refused) throw refused(staging, name, err.message, 'nothing was written');
    throw unfinished(err, absRoot, staging, name);
  }
  if (journal) replay(absRoot, staging, name, journal);
  try {
    rmSync(staging, { recursive: true, force: true, maxRetries: 2 });
  } catch (err) {
    throw writeErrorOf(err, absRoot, 'remove', staging, 'it is what an interrupted generate left; delete it by hand');
  }
  return journal !== null;
}

function refused(staging: string, name: string, why: string, outcome: string): WriteError {
  return new WriteError(
    Codes.WRITE_JOURNAL_REFUSED,
    staging,
    `refusing to replay ${name}/${JOURNAL}: ${why}; ${outcome}. Look at what ${name}/ holds, then delete it (rm -rf ${name}, in the project folder) and run mcpgen generate again`,
  );
}

/** Every switch checked again just before it is done (the project may change meanwhile), then done. */
function replay(absRoot: string, staging: string, name: string, journal: Journal): void {
  try {
    for (const s of journal.switches) act(step(absRoot, staging, name, s));
    for (const s of journal.switches)
      if (s.op === 'remove') pruneEmptyDirs(absRoot, path.dirname(path.join(absRoot, s.path)));
    unlinkSync(path.join(staging, JOURNAL));
  } catch (err) {
    if (err instanceof Refused)
      throw refused(staging, name, err.message, 'the project changed while it was being replayed, which stopped there');
    throw unfinished(err, absRoot, staging, name);
  }
}

/** A system error while checking or replaying a journal: MCPG914 (anything else is a bug, rethrown). */
function unfinished(err: unknown, absRoot: string, staging: string, name: string): unknown {
  if (!isSystemError(err)) return err;
  const e = err;
  const where = e.path ? path.relative(absRoot, e.path).split(path.sep).join('/') : name;
  return new WriteError(
    Codes.WRITE_RECOVERY_FAILED,
    e.path ?? staging,
    `cannot finish the generate that was interrupted (${where}: ${reason(e)}); its journal is kept in ${name}/ for the next run`,
  );
}

/** What one switch comes to now: nothing (done, or a user file kept), an unlink, a rename, a merge of folders. */
type Step =
  | { do: 'skip' }
  | { do: 'unlink'; target: string }
  | { do: 'rename'; from: string; to: string }
  | { do: 'merge'; from: string; to: string };

/** Checks a switch against the project as it is now; Refused when it would touch what it may not. */
function step(absRoot: string, staging: string, name: string, s: Switch): Step {
  const target = path.join(absRoot, s.path);
  if (s.op === 'remove') {
    if (!mayRemove(s.path))
      throw new Refused(`it would remove ${s.path}, which ${userOwned(s.path) ? 'is yours' : 'mcpgen never removes'}`);
    const there = walk(absRoot, s.path, '');
    if (!there) return { do: 'skip' };
    if (!there.isFile()) throw new Refused(`it would remove ${s.path}, which is not a file`);
    if (!isTempName(path.posix.basename(s.path)) && !headed(target))
      throw new Refused(`it would remove ${s.path}, which has no mcpgen header (it is yours)`);
    return { do: 'unlink', target };
  }
  const newDir = path.join(staging, 'new');
  // From the staging folder: `new` itself is checked too.
  const staged = walk(staging, `new/${s.path}`, `${name}/`);
  if (s.op === 'put') {
    if (!mayCreate(s.path)) throw new Refused(`it would write ${s.path}, which mcpgen never writes`);
    if (!staged) return { do: 'skip' };
    if (!staged.isFile()) throw new Refused(`${name}/new/${s.path} is not a file`);
    const there = walk(absRoot, s.path, '');
    if (there) {
      // A user's file is created only where there is none.
      if (s.user || userOwned(s.path)) return { do: 'skip' };
      if (!there.isFile() || !headed(target))
        throw new Refused(`it would replace ${s.path}, which has no mcpgen header (it is yours)`);
    }
    return { do: 'rename', from: path.join(newDir, s.path), to: target };
  }
  if (!staged) return { do: 'skip' };
  if (!staged.isDirectory()) throw new Refused(`${name}/new/${s.path} is not a folder`);
  checkTree(newDir, s.path, name);
  return walk(absRoot, s.path, '')
    ? { do: 'merge', from: path.join(newDir, s.path), to: target }
    : { do: 'rename', from: path.join(newDir, s.path), to: target };
}

function act(st: Step): void {
  if (st.do === 'unlink') unlinkSync(st.target);
  else if (st.do === 'rename') {
    // Every existing folder on the way was just checked to be a real folder.
    mkdirSync(path.dirname(st.to), { recursive: true });
    renameSync(st.from, st.to);
  } else if (st.do === 'merge') mergeInto(st.from, st.to);
}

/**
 * The lstat of `rel` under `base`, or null when it or a folder above it does not exist. Refused
 * when any part of it, the last included, is a symlink: a replayed journal never goes through one.
 */
function walk(base: string, rel: string, shown: string): Stats | null {
  let cur = base;
  const segs = rel.split('/');
  let st: Stats | undefined;
  for (let i = 0; i < segs.length; i++) {
    cur = path.join(cur, segs[i]!);
    try {
      st = lstatSync(cur, { throwIfNoEntry: false });
    } catch {
      return null; // ENOTDIR and the like: nothing there
    }
    if (!st) return null;
    if (st.isSymbolicLink())
      throw new Refused(
        `${shown}${segs.slice(0, i + 1).join('/')} is a symbolic link (a journal is replayed through real folders only)`,
      );
    if (i < segs.length - 1 && !st.isDirectory()) return null;
  }
  return st ?? null;
}

/** A staged folder holds only real folders and files mcpgen may create. */
function checkTree(newDir: string, rel: string, name: string): void {
  for (const e of readdirSync(path.join(newDir, rel), { withFileTypes: true })) {
    const r = `${rel}/${e.name}`;
    if (e.isDirectory()) checkTree(newDir, r, name);
    else if (!e.isFile()) throw new Refused(`${name}/new/${r} is not a file or a folder`);
    else if (!mayCreate(r)) throw new Refused(`it would write ${r}, which mcpgen never writes`);
  }
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

/** The file starts with mcpgen's header (only its first bytes are read). */
function headed(abs: string): boolean {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(512);
    return hasHeader(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}
