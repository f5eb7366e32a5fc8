/**
 * journal: the list of switches a generate commits to, and how the next run knows it may replay
 * one. A journal is data on disk that anyone can put there: a repository, an archive, a pull
 * request can hold a whole `.mcpgen-staging/` folder, journal, owner and staged files included,
 * with any bytes in them. What none of them can set is the identity the kernel gives a file when
 * it is created: its inode number and its change time to the nanosecond. So a run creates
 * `.mcpgen-staging/run` (a run id) first, and its journal records that file's identity (the seal);
 * the next run replays a journal only when the `run` file beside it is that very file. A journal
 * planted, copied or unpacked from elsewhere does not match and is refused, as is one of an earlier
 * version (no seal). Refusing costs little: after deleting the staging folder, generate rewrites
 * what the plan says anyway.
 */
import { lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { STAGING } from './staging.js';

export const JOURNAL = 'journal.json';
export const RUN = 'run';

export type Switch =
  /** A folder that did not exist: staged whole, switched by one rename. */
  | { op: 'dir'; path: string }
  /** A file into an existing folder; `replaces`: a file is there (backed up in old/). User files never replace. */
  | { op: 'put'; path: string; replaces: boolean; user?: true }
  | { op: 'remove'; path: string };

interface Seal {
  ino: string;
  ctime: string;
}

export interface Journal {
  version: 2;
  /** The run id, also the content of the `run` file. */
  run: string;
  /** Where the staging folder is (relative to the project, `.` for the root). */
  at: string;
  seal: Seal;
  switches: Switch[];
}

/** Creates the `run` file of a new staging folder; its identity seals the journal. An id, not a secret: the seal is the file itself. */
export function writeRun(staging: string): string {
  const run = `${process.pid.toString(36)}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  writeFileSync(path.join(staging, RUN), `${run}\n`, { flag: 'wx' });
  return run;
}

function sealOf(file: string): Seal | null {
  const st = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return st?.isFile() ? { ino: String(st.ino), ctime: String(st.ctimeNs) } : null;
}

/** Commits: the journal is renamed into place whole. */
export function writeJournal(staging: string, run: string, at: string, switches: Switch[]): void {
  const seal = sealOf(path.join(staging, RUN));
  if (!seal)
    throw Object.assign(new Error(`ENOENT: ${RUN} is missing`), { code: 'ENOENT', path: path.join(staging, RUN) });
  const journal: Journal = { version: 2, run, at, seal, switches };
  writeFileSync(path.join(staging, `${JOURNAL}.tmp`), JSON.stringify(journal));
  renameSync(path.join(staging, `${JOURNAL}.tmp`), path.join(staging, JOURNAL));
}

/** A journal that is not to be replayed, and why, in words that finish "refusing to replay it: …". */
export class Refused extends Error {}

/**
 * The committed journal of the staging folder in `at`: null when there is none; the journal when
 * it was written by the run that made this very folder; else Refused.
 */
export function readJournal(staging: string, at: string): Journal | null {
  let text: string;
  try {
    text = readFileSync(path.join(staging, JOURNAL), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Refused(`it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
  let j: Partial<Journal> & { version?: unknown };
  try {
    j = JSON.parse(text) as Partial<Journal>;
  } catch {
    throw new Refused('it is not JSON');
  }
  if (typeof j !== 'object' || j === null) throw new Refused('it is not a journal');
  if (j.version !== 2) throw new Refused('it is not a journal this version of mcpgen writes (no seal)');
  if (typeof j.run !== 'string' || typeof j.seal !== 'object' || j.seal === null || !Array.isArray(j.switches))
    throw new Refused('it is not a journal');
  const runFile = path.join(staging, RUN);
  const seal = sealOf(runFile);
  let run: string | null = null;
  try {
    if (seal) run = readFileSync(runFile, 'utf8').trim();
  } catch {
    /* unreadable: no seal */
  }
  if (!seal || run !== j.run || seal.ino !== j.seal.ino || seal.ctime !== j.seal.ctime || j.at !== at)
    throw new Refused(
      `it was not written by a generate interrupted in this folder: its seal does not match ${RUN} beside it (a journal from a repository, an archive or a copy is never replayed)`,
    );
  for (const s of j.switches)
    if (!wellFormed(s)) throw new Refused(`it holds an entry that is not a switch (${JSON.stringify(s).slice(0, 80)})`);
  return j as Journal;
}

/** Shape and path syntax only; what a switch may touch is checked against the project (recover.ts). */
function wellFormed(s: unknown): s is Switch {
  if (typeof s !== 'object' || s === null) return false;
  const w = s as { op?: unknown; path?: unknown; replaces?: unknown; user?: unknown };
  if (!['dir', 'put', 'remove'].includes(w.op as string) || typeof w.path !== 'string') return false;
  if (w.op === 'put' && (typeof w.replaces !== 'boolean' || (w.user !== undefined && w.user !== true))) return false;
  if (w.path === '' || path.posix.isAbsolute(w.path) || /[\\\0]/.test(w.path)) return false;
  return !w.path.split('/').some((seg) => seg === '..' || seg === '' || seg === '.' || seg === STAGING);
}
