import fs from 'node:fs';
import path from 'node:path';
import { type Diagnostic, UsageError } from '../diagnostics.js';
import { Codes } from '../manifest/codes.js';
import { fileKind, notAFile } from './file-kind.js';

/** File names looked for, in order of preference. */
export const MANIFEST_NAMES = ['mcpgen.yaml', 'mcpgen.yml'] as const;

/**
 * Absolute path of the manifest to use: `explicit` (-f) resolved against cwd, else the first
 * mcpgen.yaml / mcpgen.yml in cwd or a parent folder (like git, so commands work from any subfolder).
 * Throws UsageError when there is none, or when what is there is no readable file (a folder, a FIFO,
 * a symbolic link that loops): every command then stops with exit 2 before reading anything.
 */
export function findManifest(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const abs = path.resolve(cwd, explicit);
    checkReadable(abs, explicit);
    return abs;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    // The nearest folder holding either name decides: a folder or a FIFO there is a mistake to name, not to look past.
    let blocked: string | undefined;
    for (const name of MANIFEST_NAMES) {
      const candidate = path.join(dir, name);
      const kind = fileKind(candidate);
      if (kind.kind === 'file') {
        checkReadable(candidate, shownPath(cwd, candidate), true);
        return candidate;
      }
      if (kind.kind !== 'missing' && kind.kind !== 'error') blocked ??= candidate;
    }
    if (blocked) checkReadable(blocked, shownPath(cwd, blocked), true);
    if (path.dirname(dir) === dir) break;
  }
  throw new UsageError(
    'no mcpgen.yaml (or mcpgen.yml) in this folder or any parent folder: run `mcpgen init` to create one, or pass -f <file>',
  );
}

/** What the read of a manifest findManifest had found readable met instead of a file, by its code. */
const GONE_WHEN_READ: Readonly<Record<string, string>> = {
  [Codes.FILE_NOT_FOUND]: 'it was not there',
  [Codes.FILE_IS_DIRECTORY]: 'a folder was there',
  [Codes.FILE_UNREADABLE]: 'it could not be read as a file',
};

/**
 * The manifest at `shown` was found a readable file (findManifest) and then read: a read that
 * found no file there means it changed in between, as when an editor saves by replacing it. A
 * UsageError saying so (exit 2, the command stops before writing), or undefined.
 */
export function changedWhileRead(diagnostics: readonly Diagnostic[], shown: string): UsageError | undefined {
  const d = diagnostics.find(
    (x) => x.file === shown && x.severity === 'error' && Object.hasOwn(GONE_WHEN_READ, x.code),
  );
  if (!d) return undefined;
  return new UsageError(
    `${shown} changed while it was being read (${GONE_WHEN_READ[d.code]}): nothing was written; run the command again`,
  );
}

/** Throws unless `abs` is a regular file this process may read: a UsageError naming what is there, or the system's error. */
function checkReadable(abs: string, shown: string, found = false): void {
  const kind = fileKind(abs);
  if (kind.kind === 'error') throw kind.error;
  const problem = notAFile(kind, shown, found);
  if (problem) throw new UsageError(problem);
  // Opening a regular file never blocks; a permission problem surfaces here, as `cannot open …: permission denied`.
  try {
    fs.closeSync(fs.openSync(abs, 'r'));
  } catch (error) {
    // Gone between the look and the open: an editor saving by replacing it, say.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`${shown} was removed while mcpgen was opening it: nothing was read; run the command again`);
    throw error;
  }
}

function shownPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}
