/** Collecting a bundle's files from disk. */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ZipEntry } from './zip.js';

/**
 * Every regular file under `dir`, named `prefix/<relative path>`. Symbolic links are followed only
 * to files; `skip` is given each folder's relative path and says whether to leave it out.
 */
export function filesUnder(dir: string, prefix: string, skip: (rel: string, name: string) => boolean): ZipEntry[] {
  const out: ZipEntry[] = [];
  const walk = (rel: string) => {
    const names = readdirSync(path.join(dir, rel)).sort();
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(dir, r);
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        if (!skip(r, name)) walk(r);
      } else if (st.isFile() && !skip(r, name)) {
        out.push({ name: `${prefix}${r}`, data: readFileSync(abs), mode: st.mode & 0o777 });
      }
    }
  };
  walk('');
  return out;
}

/** The newest modification time of the files under `dir` whose names end with one of `exts` (0 when none). */
export function newestMtime(dir: string, exts: string[]): { mtime: number; file: string | null } {
  let best = { mtime: 0, file: null as string | null };
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const abs = path.join(d, name);
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        if (name !== 'node_modules') walk(abs);
      } else if (exts.some((e) => name.endsWith(e)) && st.mtimeMs > best.mtime) best = { mtime: st.mtimeMs, file: abs };
    }
  };
  walk(dir);
  return best;
}
