/**
 * The build worker (started by build-thread.ts): loads the manifest itself, builds its part of the
 * files (cli/build.ts PARTS; the main thread builds the rest once it has validated) and posts them
 * back, with a hash of the text it read so the main thread can tell it built what it validated.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildFiles } from './build.js';
import type { BuildMessage } from './build-thread.js';
import type { GenerateOptions } from './generate.js';
import { loadManifest } from './load/load.js';
import { sha } from './plan/stamp.js';
import { mark, stages } from './timings.js';

const opts = workerData as GenerateOptions;
let message: BuildMessage;
try {
  mark('startup');
  const { manifest } = loadManifest(opts.manifest, opts.displayPath);
  mark('load');
  // Unreadable or unparsable: the main thread reports why.
  const built = manifest ? await buildFiles(manifest, opts, 'worker') : null;
  message = { built, sourceSha: manifest ? sha(manifest.source) : null, stages: stages() };
} catch (e) {
  message = { error: e instanceof Error ? { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } : { message: String(e) } };
}
parentPort!.postMessage(message);
