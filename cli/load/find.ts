import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
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

/** Throws unless `abs` is a regular file this process may read: a UsageError naming what is there, or the system's error. */
function checkReadable(abs: string, shown: string, found = false): void {
  const kind = fileKind(abs);
  if (kind.kind === 'error') throw kind.error;
  const problem = notAFile(kind, shown, found);
  if (problem) throw new UsageError(problem);
  // Opening a regular file never blocks; a permission problem surfaces here, as `cannot open …: permission denied`.
  fs.closeSync(fs.openSync(abs, 'r'));
}

function shownPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}
