import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics.js';
import { firstInvalidUtf8 } from '../../load/read.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';
import { didYouMean } from '../suggest.js';

/**
 * Embedded content becomes a string literal in the generated src/generated/content.ts, which
 * generate formats and hashes, tsc compiles and every server start loads whole. Measured (two
 * files, one text, one binary): 2 × 4 MiB generate in 2.2 s (a 10 MB content.ts), compile and
 * import in well under a second more; 2 × 16 MiB took 18 s and 730 MB to generate and 2.7 s to
 * import at each start; 64 MiB took 31 s and 2.9 GB, 100 MiB broke V8's string length. Larger
 * content belongs in a dynamic resource, read from disk when a client asks for it.
 */
export const MAX_EMBEDDED_FILE_BYTES = 4 * 1024 * 1024;
/** All embedded files and inline content (`text:`, `data:`, `blob:`) together. */
export const MAX_EMBEDDED_TOTAL_BYTES = 16 * 1024 * 1024;

interface FileRef {
  /** Path of the `file` value in the manifest. */
  at: JsonPath;
  file: string;
  /** Declared `encoding: text`: the content must then be UTF-8. */
  mustBeText: boolean;
  /** A resource's content (a prompt message's otherwise): what the hint suggests instead. */
  resource: boolean;
}

/** Every `file:` the manifest references: static resources and prompt message content. */
export function fileRefs(data: unknown): FileRef[] {
  const refs: FileRef[] = [];
  if (!isRecord(data)) return refs;
  for (const [name, r] of recordEntries(data.resources)) {
    if (isRecord(r) && typeof r.file === 'string')
      refs.push({ at: ['resources', name, 'file'], file: r.file, mustBeText: r.encoding === 'text', resource: true });
  }
  for (const [name, p] of recordEntries(data.prompts)) {
    if (!isRecord(p) || !Array.isArray(p.messages)) continue;
    p.messages.forEach((msg, i) => {
      if (!isRecord(msg)) return;
      for (const kind of ['image', 'audio', 'resource']) {
        const c = msg[kind];
        if (isRecord(c) && typeof c.file === 'string')
          refs.push({
            at: ['prompts', name, 'messages', i, kind, 'file'],
            file: c.file,
            mustBeText: false,
            resource: false,
          });
      }
    });
  }
  return refs;
}

/** Inline content that is embedded as written: resource `text:`, prompt message `text:`, `data:`, `blob:`. */
export function inlineContent(data: unknown): { at: JsonPath; bytes: number }[] {
  const out: { at: JsonPath; bytes: number }[] = [];
  if (!isRecord(data)) return out;
  const add = (at: JsonPath, v: unknown) => {
    if (typeof v === 'string') out.push({ at, bytes: Buffer.byteLength(v) });
  };
  for (const [name, r] of recordEntries(data.resources)) if (isRecord(r)) add(['resources', name, 'text'], r.text);
  for (const [name, p] of recordEntries(data.prompts)) {
    if (!isRecord(p) || !Array.isArray(p.messages)) continue;
    p.messages.forEach((msg, i) => {
      if (!isRecord(msg)) return;
      add(['prompts', name, 'messages', i, 'text'], msg.text);
      for (const kind of ['image', 'audio', 'resource']) {
        const c = msg[kind];
        if (!isRecord(c)) continue;
        for (const key of ['data', 'text', 'blob']) add(['prompts', name, 'messages', i, kind, key], c[key]);
      }
    });
  }
  return out;
}

/**
 * Referenced files must exist, be readable files, and stay inside the manifest's folder, symlinks
 * resolved: their content is embedded in generated code, so a path like ../../.ssh/id_rsa must never
 * get in, and a project must build from its own folder. Sizes come from stat alone: a file too
 * large to embed is never read.
 */
export function checkFiles(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const realDir = realpath(m.dir) ?? m.dir;
  // One MCPG246, where the running total first passes the limit.
  let total = 0;
  let totalReported = false;
  const count = (at: JsonPath, bytes: number, resource: boolean) => {
    total += bytes;
    if (total <= MAX_EMBEDDED_TOTAL_BYTES || totalReported) return;
    totalReported = true;
    out.push(
      diagAt(
        m,
        at,
        Codes.EMBED_TOTAL_TOO_LARGE,
        `embedded content passes ${formatSize(MAX_EMBEDDED_TOTAL_BYTES)} here (${formatSize(total)} so far); the generated server carries all of it in its code`,
        { hint: dynamicHint(resource) },
      ),
    );
  };
  for (const c of inlineContent(m.data)) count(c.at, c.bytes, c.at[0] === 'resources');
  for (const ref of fileRefs(m.data)) {
    const found = inspectFile(m.dir, realDir, ref);
    if ('size' in found) count(ref.at, found.size, ref.resource);
    else out.push(diagAt(m, ref.at, found.code, found.message, found.hint ? { hint: found.hint } : {}));
  }
  return out;
}

function dynamicHint(resource: boolean): string {
  return resource
    ? 'serve it from a dynamic resource: remove `file:` (or `text:`) and the generated handler reads it from disk when a client asks'
    : 'give the prompt no `messages:`: its generated handler builds them at request time and can read the file then';
}

/** `5 GiB`, `4.1 MiB`: rounded up, so a size just over a limit never reads as the limit itself. */
export function formatSize(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (n >= 1024 ** (u + 1) && u < units.length - 1) u++;
  if (u === 0) return `${n} bytes`;
  const v = Math.ceil((n / 1024 ** u) * 10) / 10;
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

/** What is wrong with a referenced file, or its size when nothing is. */
function inspectFile(
  dir: string,
  realDir: string,
  ref: FileRef,
): { code: string; message: string; hint?: string } | { size: number } {
  const shown = `\`${ref.file}\``;
  const outsideHint = "copy the file into the manifest's folder and refer to it by a relative path";
  if (path.isAbsolute(ref.file)) {
    return {
      code: Codes.REF_FILE_OUTSIDE,
      message: `file ${shown} must be a path relative to the manifest's folder`,
      hint: outsideHint,
    };
  }
  const abs = path.resolve(dir, ref.file);
  if (isOutside(dir, abs))
    return {
      code: Codes.REF_FILE_OUTSIDE,
      message: `file ${shown} is outside the manifest's folder`,
      hint: outsideHint,
    };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    if (lexists(abs))
      return { code: Codes.REF_FILE_MISSING, message: `file ${shown} is a symlink to a file that does not exist` };
    return {
      code: Codes.REF_FILE_MISSING,
      message: `file ${shown} does not exist${didYouMean(path.basename(abs), siblings(abs))}`,
    };
  }
  if (stat.isDirectory())
    return { code: Codes.REF_FILE_IS_DIRECTORY, message: `file ${shown} is a directory, not a file` };
  if (!stat.isFile()) return { code: Codes.REF_FILE_UNREADABLE, message: `file ${shown} is not a regular file` };
  const real = realpath(abs);
  if (real && isOutside(realDir, real)) {
    return {
      code: Codes.REF_FILE_OUTSIDE,
      message: `file ${shown} resolves through a symlink to a file outside the manifest's folder`,
      hint: outsideHint,
    };
  }
  if (stat.size > MAX_EMBEDDED_FILE_BYTES) {
    return {
      code: Codes.EMBED_FILE_TOO_LARGE,
      message: `file ${shown} is ${formatSize(stat.size)}; embedded files are limited to ${formatSize(MAX_EMBEDDED_FILE_BYTES)}`,
      hint: dynamicHint(ref.resource),
    };
  }
  let bytes: Buffer | undefined;
  try {
    fs.accessSync(abs, fs.constants.R_OK);
    if (ref.mustBeText) bytes = fs.readFileSync(abs);
  } catch {
    return { code: Codes.REF_FILE_UNREADABLE, message: `file ${shown} cannot be read (permission denied)` };
  }
  if (bytes && (bytes.includes(0) || firstInvalidUtf8(bytes) >= 0)) {
    return {
      code: Codes.REF_FILE_NOT_TEXT,
      message: `file ${shown} is not UTF-8 text, but the resource says \`encoding: text\``,
      hint: 'use `encoding: base64` to serve it as a blob',
    };
  }
  return { size: stat.size };
}

export function isOutside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

export function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Names of the files next to a missing one, for "did you mean". */
function siblings(abs: string): string[] {
  try {
    return fs.readdirSync(path.dirname(abs));
  } catch {
    return [];
  }
}
