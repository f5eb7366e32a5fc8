/**
 * The build: normalize → render, from a validated manifest to the project's files (generate.ts
 * loads this module only then). Every file is printed in its final layout by its template and
 * view (cli/render/), so nothing is formatted afterwards.
 */
import path from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import type { LoadedManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import { normalize } from './normalize/normalize.js';
import type { OutputFile } from './plan/plan.js';
import { renderFiles } from './render/render.js';
import { toolchainSpecs } from './plan/dependencies.js';
import { VERSION } from './version.js';
import { mark, now, spent, timingsEnabled } from './timings.js';
import type { GenerateOptions } from './generate-options.js';

/** What the build (normalize → render) hands back; no files (nor IR) when normalize found errors. */
export interface Built {
  files?: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
}

export function buildFiles(manifest: LoadedManifest, opts: GenerateOptions): Built {
  const manifestPath = path.relative(opts.outDir, opts.manifest).split(path.sep).join('/');
  const norm = normalize(manifest, {
    manifestPath,
    generatorVersion: opts.generatorVersion === undefined ? VERSION : opts.generatorVersion,
    ...(opts.beforeRead ? { beforeRead: opts.beforeRead } : {}),
  });
  mark('normalize');
  if (!norm.ir) return { diagnostics: norm.diagnostics };
  // A user-owned file that exists is never rewritten, so it is not rendered either.
  const files: OutputFile[] = [];
  // Timed file by file under MCPGEN_TIMINGS (each is rendered when it is pulled).
  const it = renderFiles(norm.ir, opts.exists ?? (() => false), opts.specs ?? toolchainSpecs(opts.outDir));
  for (let t0 = now(), next = it.next(); !next.done; t0 = now(), next = it.next()) {
    files.push(next.value);
    if (timingsEnabled) spent(partOf(next.value.path), now() - t0);
  }
  mark('render');
  return { files, diagnostics: norm.diagnostics, ir: norm.ir };
}

/** Where MCPGEN_TIMINGS reports a file's time: generated files one by one, the rest by kind. */
function partOf(file: string): string {
  if (file.startsWith('src/generated/') || file.startsWith('test/generated/')) return file;
  if (file.startsWith('src/handlers/')) return 'handler stubs';
  return file.startsWith('test/handlers/') ? 'handler tests' : 'project files';
}
