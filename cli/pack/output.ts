/**
 * Where pack writes: the bundle path a user names (checked before anything is packed), and the
 * files written all or nothing, each failure said of the path the user knows, never of a temporary
 * file.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { fsReason } from '../load/json-object.js';

/** A file to write and what messages call it (`--bundle out/x.mcpb`, `server.json`). */
export interface Output {
  file: string;
  label: string;
  data: Buffer;
}

const statOf = (p: string) => {
  try {
    return statSync(p);
  } catch {
    return null;
  }
};

/**
 * The absolute path of `--bundle <given>`, or a UsageError saying what is wrong with it: a folder,
 * a name without `.mcpb`, a file where a folder should be, or a place inside what is packed or built.
 */
export function bundlePath(
  given: string,
  cwd: string,
  projectDir: string,
  defaultName: string,
  rel: (abs: string) => string,
): string {
  const abs = path.resolve(cwd, given);
  const label = `--bundle ${given || '""'}`;
  if (statOf(abs)?.isDirectory())
    throw new UsageError(
      `${label}: is a folder; name the .mcpb file to write, e.g. --bundle ${rel(path.join(abs, defaultName))}`,
    );
  // Desktop clients open .mcpb files; the suffix also keeps a slip from overwriting another file.
  if (!abs.endsWith('.mcpb'))
    throw new UsageError(
      `${label}: a bundle's name ends in .mcpb (what desktop clients open), e.g. --bundle ${rel(`${abs.replace(/\.[^./\\]*$/, '')}.mcpb`)}`,
    );
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    const st = statOf(dir);
    if (st && !st.isDirectory()) throw new UsageError(`${label}: ${rel(dir)} is a file, not a folder`);
    if (st || path.dirname(dir) === dir) break;
  }
  for (const inside of ['dist', 'node_modules']) {
    const root = path.join(projectDir, inside);
    if (!path.relative(root, abs).startsWith('..'))
      throw new UsageError(
        `${label}: is inside ${rel(root)}, ${inside === 'dist' ? 'the build a bundle is made from (the next pack would pack it, the next build may delete it)' : 'where the packages a bundle carries are'}; write it elsewhere, e.g. --bundle ${rel(path.join(projectDir, defaultName))}`,
      );
  }
  return abs;
}

/**
 * Writes each file beside its target, then renames them all over their targets: a failure while
 * writing leaves every old file as it was (and no temporary file nor folder made for it), and
 * readers see an old file or a whole new one.
 */
export function writeAllOrNothing(outputs: readonly Output[]): void {
  for (const o of outputs)
    if (statOf(o.file)?.isDirectory()) throw new UsageError(`${o.label}: is a folder; move it away, then pack again`);
  const tmps: string[] = [];
  const madeDirs: string[] = [];
  let current: Output | undefined;
  try {
    for (const o of outputs) {
      current = o;
      const made = mkdirSync(path.dirname(o.file), { recursive: true });
      if (made) madeDirs.push(made);
      const tmp = `${o.file}.${process.pid}.tmp`;
      tmps.push(tmp);
      writeFileSync(tmp, o.data);
    }
    outputs.forEach((o, i) => {
      current = o;
      renameSync(tmps[i]!, o.file);
    });
  } catch (err) {
    for (const tmp of tmps) rmSync(tmp, { force: true });
    for (const dir of madeDirs.reverse()) rmSync(dir, { recursive: true, force: true });
    if (!current || typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    throw new UsageError(`${current.label}: cannot write there: ${fsReason(err)}`);
  }
}
