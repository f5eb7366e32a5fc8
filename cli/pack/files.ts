/** Collecting a bundle's files from disk. */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ZipEntry } from './zip.js';

export interface FoundFile {
  /** POSIX path relative to the folder listed. */
  rel: string;
  abs: string;
  mode: number;
}

/**
 * Every regular file under `dir`, sorted. Symbolic links are not followed; `skipDir` is given each
 * folder's relative path and says whether to leave it out.
 */
export function listFiles(dir: string, skipDir: (rel: string) => boolean = () => false): FoundFile[] {
  const out: FoundFile[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(dir, r);
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        if (!skipDir(r)) walk(r);
      } else if (st.isFile()) out.push({ rel: r, abs, mode: st.mode & 0o777 });
    }
  };
  walk('');
  return out;
}

/** Every regular file under `dir` that `skip` keeps, named `prefix/<relative path>`. */
export function filesUnder(dir: string, prefix: string, skip: (rel: string) => boolean): ZipEntry[] {
  return listFiles(dir)
    .filter((f) => !skip(f.rel))
    .map((f) => ({ name: `${prefix}${f.rel}`, data: readFileSync(f.abs), mode: f.mode }));
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
