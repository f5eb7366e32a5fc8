/**
 * The main thread's side of the build worker (build-worker.ts): on a large manifest and a machine
 * with a second core, generate builds the large generated files in a worker while this thread
 * validates, lints and builds the rest. The worker's result is used only once validation passed;
 * on errors it is stopped.
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Built } from './build.js';
import type { GenerateOptions } from './generate.js';
import { addStages, type stages } from './timings.js';

const ENTRY = new URL('./build-worker.js', import.meta.url);

/** Below this size the build is quicker than starting a worker and loading its modules twice. */
const MIN_MANIFEST_BYTES = 64 * 1024;

export interface BuildWorker {
  /** The build, with a hash of the manifest text it was built from (it read the file itself). */
  result: Promise<{ built: Built | null; sourceSha: string | null }>;
  cancel(): void;
}

/** What the worker posts back. */
export type BuildMessage =
  | { built: Built | null; sourceSha: string | null; stages: ReturnType<typeof stages> }
  | { error: { message: string; stack?: string } };

/**
 * Starts the worker when it can run (dist, not the TypeScript sources tests run) and pays off:
 * MCPGEN_THREADS=0 turns it off, =1 uses it whatever the manifest's size and the cores.
 */
export function startBuildWorker(opts: GenerateOptions): BuildWorker | undefined {
  const setting = process.env.MCPGEN_THREADS;
  if (setting === '0' || !existsSync(fileURLToPath(ENTRY))) return undefined;
  if (setting !== '1') {
    // One core: the two threads would take turns, and the worker's own start-up is pure cost.
    if (availableParallelism() < 2) return undefined;
    const size = statSync(opts.manifest, { throwIfNoEntry: false })?.size ?? 0;
    if (size < MIN_MANIFEST_BYTES) return undefined;
  }
  const worker = new Worker(ENTRY, { workerData: opts });
  const result = new Promise<{ built: Built | null; sourceSha: string | null }>((resolve, reject) => {
    worker.once('message', (m: BuildMessage) => {
      if ('error' in m) return reject(Object.assign(new Error(m.error.message), { stack: m.error.stack }));
      addStages('build: ', m.stages);
      resolve({ built: m.built, sourceSha: m.sourceSha });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`internal: the build worker stopped (exit code ${code}) without a result`)));
  });
  // A cancelled build's rejection concerns no one.
  result.catch(() => {});
  return { result, cancel: () => void worker.terminate() };
}
