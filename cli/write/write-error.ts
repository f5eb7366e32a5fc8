/**
 * write-error: what the file system refused while writing the project, as one line a user can act
 * on (the path, what was being done, why, what state the project is in) with a stable code. These
 * are not mcpgen bugs: no stack, no "internal error".
 */
import path from 'node:path';
import { Codes, type Code } from '../manifest/codes.js';

export class WriteError extends Error {
  override name = 'WriteError';
  constructor(
    readonly code: Code,
    /** Absolute path of the file or folder the error is about. */
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Why a system call failed, in words, with the errno code (what a search engine knows). */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'a folder is in the way',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'something is already there',
  ENOTEMPTY: 'a folder that is not empty is in the way',
  EXDEV: 'it is on another file system than the project folder',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many levels of symbolic links',
  EBUSY: 'resource busy',
  ETXTBSY: 'file busy',
  EIO: 'input/output error',
  ENOENT: 'it disappeared while generate was writing',
};

/** True for an error the file system raised (an errno code), as opposed to a bug. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    /^E[A-Z0-9]+$/.test((err as NodeJS.ErrnoException).code!)
  );
}

/** Where to look, when the reason alone does not say (root gets EPERM only from file flags). */
const LOOK: Record<string, string> = {
  EPERM: 'immutable or append-only? see lsattr',
};

export function reason(err: NodeJS.ErrnoException): string {
  const code = err.code ?? 'unknown';
  const words = REASONS[code];
  return words ? `${words} (${code}${LOOK[code] ? `; ${LOOK[code]}` : ''})` : err.message;
}

/** A system error while doing `what` to `abs`, as a WriteError (anything else is rethrown: a bug). */
export function writeErrorOf(
  err: unknown,
  root: string,
  what: string,
  abs: string,
  outcome: string,
  code: Code = Codes.WRITE_FAILED,
): WriteError {
  if (err instanceof WriteError) return err;
  if (!isSystemError(err)) throw err;
  const rel = path.relative(root, abs).split(path.sep).join('/') || '.';
  return new WriteError(code, abs, `cannot ${what} ${rel}: ${reason(err)}; ${outcome}`);
}
