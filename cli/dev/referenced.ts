/** The paths a manifest refers to, which `mcpgen watch` regenerates on. */
import path from 'node:path';
import { loadManifest } from '../load/load.js';
import { isRecord } from '../manifest/json-path.js';
import type { IR } from '../normalize/ir.js';
import { recordEntries } from '../validate/json-schema-walk.js';
import { fileRefs } from '../validate/checks/files.js';

export interface Referenced {
  /** `file:` of resources and prompt messages, absolute. */
  files: string[];
  /** `build:` folders of views, absolute: what makes them valid is their `index.html`. */
  folders: string[];
}

/**
 * From the IR of a valid manifest, else from the manifest as written: a manifest that is invalid
 * because a file it names is missing still says which file to wait for. Null when the manifest
 * cannot be read or parsed.
 */
export function referencedPaths(manifest: string, ir: IR | undefined): Referenced | null {
  const dir = path.dirname(manifest);
  const abs = (rel: string) => path.resolve(dir, rel);
  if (ir)
    return {
      files: ir.referencedFiles.map(abs),
      folders: ir.resources.flatMap((r) => (r.content.kind === 'built' ? [abs(r.content.folder)] : [])),
    };
  const data = loadManifest(manifest).manifest?.data;
  if (data === undefined) return null;
  const folders = isRecord(data)
    ? recordEntries(data.resources).flatMap(([, r]) => (isRecord(r) && typeof r.build === 'string' ? [r.build] : []))
    : [];
  return { files: [...new Set(fileRefs(data).map((r) => abs(r.file)))], folders: [...new Set(folders.map(abs))] };
}
