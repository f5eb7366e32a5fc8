/**
 * Watching paths that may be deleted and created again (a git checkout or stash does both), or
 * that do not exist yet: the folder above them is watched, not the paths themselves.
 *
 * chokidar stops seeing a watched file once it is deleted (it looks for its return only when it is
 * the one path watched), and a watch on a path that is missing sees nothing below a folder that is
 * missing too. So one watcher starts at `root` and descends only along the folders leading to the
 * targets: a folder on the way that is deleted and created again is seen by the folder above it,
 * and what appears in it is seen then. Targets outside `root` are watched from their own folder.
 */
import path from 'node:path';
import type { Stats } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';

export interface WatchTargets {
  /** Files: each one's creation, change and deletion. */
  files: readonly string[];
  /** Folders: anything inside them, at any depth. */
  trees?: readonly string[];
  /** Paths inside `trees` to leave out (chokidar's `ignored` for them). */
  ignoreInTree?: (p: string, stats?: Stats) => boolean;
}

const inside = (p: string, dir: string) => p.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);

/**
 * A watcher on `root` that reports (`onChange`) what happens to the targets (absolute paths) and
 * nothing else; resolves once it is ready, so a save right after is seen.
 */
export async function watchPaths(
  root: string,
  targets: WatchTargets,
  onChange: (event: string, p: string) => void,
  onError: (err: Error) => void,
): Promise<FSWatcher> {
  const files = new Set(targets.files.map((f) => path.resolve(f)));
  const trees = (targets.trees ?? []).map((t) => path.resolve(t));
  const all = [...files, ...trees];
  const roots = new Set([path.resolve(root)]);
  for (const t of all) if (!inside(t, path.resolve(root))) roots.add(path.dirname(t));
  const inTree = (p: string) => trees.some((t) => p === t || inside(p, t));
  const leadsToTarget = (p: string) => roots.has(p) || all.some((t) => inside(t, p));
  const wanted = (p: string, stats?: Stats) =>
    files.has(p) || (inTree(p) && !targets.ignoreInTree?.(p, stats)) || leadsToTarget(p);
  const w = watch([...roots], { ignoreInitial: true, ignored: (p, stats) => !wanted(path.resolve(p), stats) });
  w.on('all', (event, p) => {
    const abs = path.resolve(p);
    // The folders on the way are watched for what appears in them, not reported.
    if (files.has(abs) || inTree(abs)) onChange(event, abs);
  });
  w.on('error', (err) => onError(err as Error));
  await new Promise<void>((resolve) => w.once('ready', () => resolve()));
  return w;
}
