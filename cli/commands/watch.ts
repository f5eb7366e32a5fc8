/**
 * `mcpgen watch`: generate, then regenerate whenever the manifest or a file it references changes
 * (debounced). Errors are printed and watching goes on; Ctrl-C stops cleanly.
 *
 * chokidar watches the files: it follows an editor that saves by writing a new file and renaming
 * it over the old one (its `atomic` handling), which ends a plain fs.watch on the old file. The
 * folders above them are watched too (cli/dev/watch-paths.ts), so a file deleted and created again,
 * or one the manifest names before it exists, is seen when it appears.
 */
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { referencedPaths } from '../dev/referenced.js';
import { watchPaths } from '../dev/watch-paths.js';
import { EXIT_OK, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { IR } from '../normalize/ir.js';
import { generateCommand, type GenerateCommandOptions } from './generate.js';

export interface WatchOptions extends GenerateCommandOptions {
  /** Debounce delay in ms; longer than chokidar's 50 ms throttle of changes to one file. */
  debounceMs?: number;
  /** Resolves when watching should stop (tests); default: SIGINT/SIGTERM. */
  until?: Promise<void>;
  /** Called after each generation (`mcpgen dev` builds and restarts from here); `startedAt` is performance.now() when it began. */
  onGenerated?: (result: { ok: boolean; first: boolean; startedAt: number; ir: IR | undefined }) => void;
}

export async function watchCommand(opts: WatchOptions, io: CliIO): Promise<number> {
  const manifest = findManifest(io.cwd, opts.file);
  let lastIR: IR | undefined;
  const genOpts: GenerateCommandOptions = { ...opts, file: manifest, fastPath: false, onIR: (ir) => (lastIR = ir) };
  let watched = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let watcher: FSWatcher | undefined;
  let stopping = false;
  let folders = 0;

  /**
   * The files to react to: the manifest and what it references, from the manifest as written when
   * it is not valid (a referenced file is missing, say). A view's folder counts by its index.html,
   * which makes it valid; `mcpgen dev` watches the rest of it.
   */
  const refresh = async (ir: IR | undefined) => {
    const before = watched;
    // Keep the previous set when the manifest cannot be read: its files stay watched.
    const refs = referencedPaths(manifest, ir);
    if (refs) {
      watched = new Set([manifest, ...refs.files, ...refs.folders.map((f) => path.join(f, 'index.html'))]);
      folders = refs.folders.length;
    }
    watched.add(manifest);
    if (watcher && watched.size === before.size && [...watched].every((f) => before.has(f))) return;
    // A new watcher, ready before "watching" is printed: a save right after it is seen.
    const next = await watchPaths(
      path.dirname(manifest),
      { files: [...watched] },
      () => schedule(),
      (err) => io.stderr(`! cannot watch: ${err.message}\n`),
    );
    await watcher?.close();
    watcher = next;
  };

  const run = async (first: boolean) => {
    if (!first) io.stdout(`\n↻ ${new Date().toLocaleTimeString()} change detected, regenerating\n`);
    lastIR = undefined;
    const t0 = performance.now();
    let ok = false;
    try {
      const code = await generateCommand(genOpts, io);
      ok = code === EXIT_OK;
      // Regenerations run in this warm process, about twice as fast as a cold `mcpgen generate`: say so.
      if (code === EXIT_OK)
        io.stdout(`${first ? 'generated' : 'regenerated'} in ${((performance.now() - t0) / 1000).toFixed(2)} s\n`);
    } catch (err) {
      // A usage problem (the manifest was deleted, say) must not end the watch.
      io.stderr(`mcpgen: ${(err as Error).message}\n`);
    }
    await refresh(lastIR);
    opts.onGenerated?.({ ok, first, startedAt: t0, ir: lastIR });
    const files = `${Math.max(0, watched.size - 1 - folders)} referenced file(s)`;
    io.stdout(
      `watching ${path.relative(io.cwd, manifest) || manifest}${folders ? `, ${files} and ${folders} view folder(s)` : ` and ${files}`}; Ctrl-C to stop\n`,
    );
  };

  // chokidar drops a second change to a file within 50 ms of the first; the debounce, longer than
  // that, runs the generation after the dropped write, so it reads the file as last saved.
  const schedule = () => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(() => run(false));
    }, opts.debounceMs ?? 100);
  };

  await run(true);
  await (opts.until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }));
  stopping = true;
  clearTimeout(timer);
  await running;
  await watcher?.close();
  io.stdout('stopped watching\n');
  return EXIT_OK;
}
