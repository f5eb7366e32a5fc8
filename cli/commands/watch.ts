/**
 * `mcpgen watch`: generate, then regenerate whenever the manifest or a file it references changes
 * (debounced). Errors are printed and watching goes on; Ctrl-C stops cleanly.
 *
 * chokidar watches the files: it follows an editor that saves by writing a new file and renaming
 * it over the old one (its `atomic` handling), which ends a plain fs.watch on the old file.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
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

  /** The files to react to: the manifest and what it references (known after a successful load). */
  const refresh = async (ir: IR | undefined) => {
    const before = watched;
    // Keep the previous set on errors: a broken manifest must not stop the watch on its files.
    if (ir) watched = new Set([manifest, ...ir.referencedFiles.map((f) => path.resolve(path.dirname(manifest), f))]);
    watched.add(manifest);
    if (watcher && watched.size === before.size && [...watched].every((f) => before.has(f))) return;
    // A new watcher, ready before "watching" is printed: a save right after it is seen.
    const next = watch([...watched], { ignoreInitial: true });
    next.on('all', () => schedule());
    next.on('error', (err) => io.stderr(`! cannot watch: ${(err as Error).message}\n`));
    await new Promise<void>((resolve) => next.once('ready', () => resolve()));
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
    io.stdout(
      `watching ${path.relative(io.cwd, manifest) || manifest} and ${Math.max(0, watched.size - 1)} referenced file(s); Ctrl-C to stop\n`,
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
