/**
 * Reading JSON files of the user's (package.json: the project's, each installed package's): what
 * is wrong with one is a message at its line and column, never a crash.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../diagnostics.js';

/** Why the file system refused, in words a user can act on. */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'name too long',
  EISDIR: 'is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EIO: 'input/output error',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

/** `<words> (<code>)` for a system error, else its message. */
export function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const words = typeof e?.code === 'string' ? REASONS[e.code] : undefined;
  return words ? `${words} (${e.code})` : String(e?.message ?? err);
}

/** Line and column (1-based) of character `offset` of `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** Where JSON.parse stopped in `text` (`line:col`), and why. */
export function jsonParseError(text: string, err: Error): { where: string; what: string } {
  const at = /at position (\d+)/.exec(err.message);
  // Without a position the text ended too soon: the error is at its end.
  const where = lineColumn(text, at ? Number(at[1]) : text.length);
  const what = err.message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
  return { where, what };
}

/**
 * The JSON object in `abs`, named `display` in messages (`package.json:1:3: not valid JSON: …`).
 * A byte-order mark is skipped, as npm does.
 */
export function readJsonObject(abs: string, display: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${display}: ${fsReason(err)}`);
  }
  const body = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    const { where, what } = jsonParseError(body, err as Error);
    throw new UsageError(`${display}:${where}: not valid JSON: ${what}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new UsageError(`${display}:1:1: expected a JSON object ({ "name": …, "version": … })`);
  return data as Record<string, unknown>;
}
