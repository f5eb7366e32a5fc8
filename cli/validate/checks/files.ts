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

interface FileRef {
  /** Path of the `file` value in the manifest. */
  at: JsonPath;
  file: string;
  /** Declared `encoding: text`: the content must then be UTF-8. */
  mustBeText: boolean;
}

/** Every `file:` the manifest references: static resources and prompt message content. */
export function fileRefs(data: unknown): FileRef[] {
  const refs: FileRef[] = [];
  if (!isRecord(data)) return refs;
  for (const [name, r] of recordEntries(data.resources)) {
    if (isRecord(r) && typeof r.file === 'string')
      refs.push({ at: ['resources', name, 'file'], file: r.file, mustBeText: r.encoding === 'text' });
  }
  for (const [name, p] of recordEntries(data.prompts)) {
    if (!isRecord(p) || !Array.isArray(p.messages)) continue;
    p.messages.forEach((msg, i) => {
      if (!isRecord(msg)) return;
      for (const kind of ['image', 'audio', 'resource']) {
        const c = msg[kind];
        if (isRecord(c) && typeof c.file === 'string')
          refs.push({ at: ['prompts', name, 'messages', i, kind, 'file'], file: c.file, mustBeText: false });
      }
    });
  }
  return refs;
}

/**
 * Referenced files must exist, be readable files, and stay inside the manifest's folder, symlinks
 * resolved: their content is embedded in generated code, so a path like ../../.ssh/id_rsa must never
 * get in, and a project must build from its own folder.
 */
export function checkFiles(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const realDir = realpath(m.dir) ?? m.dir;
  for (const ref of fileRefs(m.data)) {
    const problem = fileProblem(m.dir, realDir, ref);
    if (problem) out.push(diagAt(m, ref.at, problem.code, problem.message, problem.hint ? { hint: problem.hint } : {}));
  }
  return out;
}

function fileProblem(
  dir: string,
  realDir: string,
  ref: FileRef,
): { code: string; message: string; hint?: string } | undefined {
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
  return undefined;
}

function isOutside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

function realpath(p: string): string | undefined {
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
