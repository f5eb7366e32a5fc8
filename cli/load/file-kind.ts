import fs from 'node:fs';

/** What is at a manifest's path, found without opening it: opening a FIFO to read blocks until a writer comes. */
export type FileKind =
  | { kind: 'file'; size: number }
  | { kind: 'missing' }
  | { kind: 'folder' }
  | { kind: 'special'; what: string }
  | { kind: 'loop' }
  | { kind: 'dangling'; target: string }
  | { kind: 'error'; error: NodeJS.ErrnoException };

export function fileKind(abs: string): FileKind {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ELOOP') return { kind: 'loop' };
    if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') return { kind: 'error', error: e };
    try {
      // The path is there but leads nowhere: a symbolic link to a missing file.
      return { kind: 'dangling', target: fs.readlinkSync(abs) };
    } catch {
      return { kind: 'missing' };
    }
  }
  if (stat.isFile()) return { kind: 'file', size: stat.size };
  if (stat.isDirectory()) return { kind: 'folder' };
  return { kind: 'special', what: specialKind(stat) };
}

function specialKind(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Why `shown` cannot be read as a manifest, in one line that says what is there and what to do;
 * undefined for a file (or an error the caller reports as the system's). `found`: the path was
 * looked for (mcpgen.yaml in a folder), not given with -f.
 */
export function notAFile(k: FileKind, shown: string, found = false): string | undefined {
  switch (k.kind) {
    case 'missing':
      return `manifest ${shown} does not exist: run \`mcpgen init\` to create one, or pass -f <file>`;
    case 'folder':
      if (found) return `${shown} is a folder, not a manifest file: rename it, or pass the manifest with -f <file>`;
      return `${shown} is a folder, not a manifest file: pass the manifest in it, e.g. -f ${shown.replace(/[\\/]+$/, '')}/mcpgen.yaml`;
    case 'special':
      return `${shown} is ${k.what}, not a file: mcpgen reads the manifest from a regular file`;
    case 'loop':
      return `${shown} is a symbolic link that loops (it leads back to itself): point it at the manifest file`;
    case 'dangling':
      return `${shown} is a symbolic link to ${k.target}, which does not exist: point it at the manifest file`;
    default:
      return undefined;
  }
}
