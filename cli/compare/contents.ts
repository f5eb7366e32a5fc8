/**
 * A base manifest read at a git revision names `file:` contents and views' `build:` folders as they
 * were then, while only the working tree's are on disk. Contents are no part of the interface
 * clients see, so the problems of those files are set aside and the contents left empty.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';
import { Codes } from '../manifest/codes.js';

/** What validate says of referenced files and folders: about the working tree, not the revision. */
const ABOUT_FILES = new Set<string>([
  Codes.REF_FILE_MISSING,
  Codes.REF_FILE_IS_DIRECTORY,
  Codes.REF_FILE_UNREADABLE,
  Codes.REF_FILE_NOT_TEXT,
  Codes.EMBED_FILE_TOO_LARGE,
  Codes.EMBED_TOTAL_TOO_LARGE,
  Codes.VIEW_BUILD_FOLDER,
]);

export function aboutFiles(d: Diagnostic): boolean {
  return ABOUT_FILES.has(d.code);
}

/** The manifest with every `file:` content replaced by empty inline content: nothing to read. */
export function withoutFileContents(m: LoadedManifest): LoadedManifest {
  const data = structuredClone(m.data) as Record<string, unknown>;
  for (const r of Object.values(record(data.resources))) {
    if (!isRecord(r) || typeof r.file !== 'string') continue;
    delete r.file;
    delete r.encoding;
    r.text = '';
  }
  for (const p of Object.values(record(data.prompts))) {
    if (!isRecord(p) || !Array.isArray(p.messages)) continue;
    for (const msg of p.messages) {
      if (!isRecord(msg)) continue;
      for (const kind of ['image', 'audio', 'resource']) {
        const c = msg[kind];
        if (!isRecord(c) || typeof c.file !== 'string') continue;
        delete c.file;
        if (kind === 'resource') c.text = '';
        else c.data = '';
      }
    }
  }
  return { ...m, data };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function record(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}
