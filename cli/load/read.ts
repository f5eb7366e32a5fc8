import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import { Codes } from '../manifest/codes.js';
import { fileKind, notAFile, type FileKind } from './file-kind.js';

/** Manifests are hand-written; anything this big is a mistake (or an attack) and YAML parsing it would hang. */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

export interface ReadResult {
  source?: string;
  diagnostics: Diagnostic[];
}

/**
 * Read the manifest as UTF-8 text. Every failure becomes a diagnostic (never a throw): a CLI user
 * pointing -f at the wrong file deserves a message, not a stack trace.
 */
export function readManifestText(absPath: string, file: string): ReadResult {
  // Problems with the file as a whole point at its start.
  const fail = (code: string, message: string, hint?: string): ReadResult => ({
    diagnostics: [{ code, severity: 'error', message, file, line: 1, column: 1, ...(hint ? { hint } : {}) }],
  });
  const kind = fileKind(absPath);
  if (kind.kind === 'error') return fail(Codes.FILE_UNREADABLE, `cannot read ${file}: ${errMessage(kind.error)}`);
  if (kind.kind !== 'file') {
    const code =
      kind.kind === 'missing'
        ? Codes.FILE_NOT_FOUND
        : kind.kind === 'folder'
          ? Codes.FILE_IS_DIRECTORY
          : Codes.FILE_UNREADABLE;
    return fail(code, notAFile(kind, file)!);
  }
  if (kind.size > MAX_MANIFEST_BYTES) {
    return fail(
      Codes.FILE_TOO_LARGE,
      `${file} is ${formatMiB(kind.size)}; manifests are limited to ${formatMiB(MAX_MANIFEST_BYTES)}`,
      'move large static content into files referenced with `file:`',
    );
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFile(absPath);
  } catch (err) {
    if (err instanceof NotAFileError) return fail(Codes.FILE_UNREADABLE, notAFile(err.kind, file)!);
    return fail(Codes.FILE_UNREADABLE, `cannot read ${file}: ${errMessage(err)}`);
  }
  return decodeUtf8(bytes, file);
}

class NotAFileError extends Error {
  constructor(readonly kind: FileKind) {
    super('not a regular file');
  }
}

/**
 * The bytes of a regular file. Opened without blocking and checked again once open: a path swapped
 * for a FIFO after the check above must not hang the command until something writes to it.
 */
function readRegularFile(absPath: string): Buffer {
  const fd = fs.openSync(absPath, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile())
      throw new NotAFileError(
        stat.isDirectory() ? { kind: 'folder' } : { kind: 'special', what: 'not a regular file' },
      );
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function decodeUtf8(bytes: Buffer, file: string): ReadResult {
  const fail = (message: string, offset: number, hint: string): ReadResult => {
    const { line, column } = positionOfByte(bytes, offset);
    return { diagnostics: [{ code: Codes.NOT_UTF8, severity: 'error', message, file, line, column, hint }] };
  };
  // UTF-16/32 byte order marks: an editor saved the file in the wrong encoding.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail(`${file} is UTF-16 encoded; mcpgen reads UTF-8`, 0, 'save the file as UTF-8');
  }
  const notText = () =>
    fail(`${file} is not a text file (it contains a NUL byte)`, bytes.indexOf(0), 'a manifest is UTF-8 YAML text');
  // Node's native check first (a large manifest is megabytes); the scan finds the offending byte.
  const valid = isUtf8(bytes);
  // A NUL is looked for in the decoded text when the bytes are valid (the string search is ≈ 20×
  // faster than Buffer#indexOf(0) on 2 MB), in the bytes otherwise: either way it is reported first.
  if (!valid && bytes.indexOf(0) >= 0) return notText();
  const bad = valid ? -1 : firstInvalidUtf8(bytes);
  if (bad >= 0) {
    return fail(
      `${file} is not valid UTF-8 (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')})`,
      bad,
      'save the file as UTF-8',
    );
  }
  let source = bytes.toString('utf8');
  if (source.indexOf('\0') >= 0) return notText();
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1); // a UTF-8 BOM is invisible; columns must not count it
  return { source, diagnostics: [] };
}

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/** 1-based line/column (UTF-16 units) of a byte offset, counting only the valid text before it. */
function positionOfByte(bytes: Buffer, offset: number): { line: number; column: number } {
  const before = bytes.subarray(0, offset).toString('utf8');
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

function formatMiB(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function errMessage(err: unknown): string {
  const code = errCode(err);
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}
