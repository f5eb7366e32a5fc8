/**
 * staging: where a generate stages its writes. At the project root when it can be written there;
 * a project whose root is read-only while the folders mcpgen writes into are not stages inside
 * one of those instead (every switch is still a rename within the project, so the same file
 * system). Recovery looks in the same places, in the same order, so a folder a killed run left is
 * always found; a place reached through a symlink is neither used nor looked into.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { isSystemError } from './write-error.js';

export const STAGING = '.mcpgen-staging';

/** Folders (relative, POSIX) a staging folder may be in, best first: mcpgen's own folders before the user's. */
export const PLACES = ['.', 'src/generated', 'test/generated', 'src', 'test'];

/** The staging folder in a place, absolute. */
export function stagingIn(absRoot: string, place: string): string {
  return path.join(absRoot, place, STAGING);
}

/** `place/.mcpgen-staging` relative to the project, as messages print it. */
export function stagingName(place: string): string {
  return place === '.' ? STAGING : `${place}/${STAGING}`;
}

/** Places holding something named .mcpgen-staging (a folder, or anything in its way), one lstat per place when none. */
export function foundPlaces(absRoot: string): string[] {
  const found: string[] = [];
  for (const place of PLACES) {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(stagingIn(absRoot, place), { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR and the like: nothing there
    }
    if (st && realFolders(absRoot, place)) found.push(place);
  }
  return found;
}

/** True when every folder from the root down to `place` is a real folder, no symlink on the way. */
function realFolders(absRoot: string, place: string): boolean {
  if (place === '.') return true;
  let cur = absRoot;
  for (const seg of place.split('/')) {
    cur = path.join(cur, seg);
    const st = lstatSync(cur, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return false;
  }
  return true;
}

/** What refused a staging folder in each place tried, for the message when none would do. */
export class NoStagingPlace extends Error {
  constructor(
    readonly first: NodeJS.ErrnoException,
    /** The places besides the root that exist and were tried. */
    readonly tried: string[],
  ) {
    super(first.message);
  }
}

/** Errors that mean "not here, try the next place": the folder refuses writes, or is not there. */
const NEXT = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR']);

/**
 * Creates the staging folder in the first place that takes it: its place. `busy` is called when
 * the folder exists already (an earlier run's: it finishes or removes it, or throws), then the
 * same place is tried once more. Throws NoStagingPlace when no place can be written.
 */
export function makeStaging(absRoot: string, busy: () => void): string {
  let first: NodeJS.ErrnoException | undefined;
  const tried: string[] = [];
  for (const place of PLACES) {
    if (place !== '.' && !realFolders(absRoot, place)) continue;
    if (place !== '.') tried.push(place);
    try {
      mkdirIn(absRoot, place, busy);
      return place;
    } catch (err) {
      if (!isSystemError(err) || !NEXT.has(err.code!)) throw err;
      first ??= err;
    }
  }
  throw new NoStagingPlace(first!, tried);
}

function mkdirIn(absRoot: string, place: string, busy: () => void): void {
  const staging = stagingIn(absRoot, place);
  try {
    mkdirSync(staging);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    busy();
    mkdirSync(staging);
  }
}
