/**
 * The generator as a pure function (STYLE.md §1): manifest in, file set out. It reads the manifest
 * and the files it references and writes nothing; commands decide what to do with the result.
 *
 *   load → validate → normalize (IR) → render → format
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { loadManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import type { OutputFile } from './plan/plan.js';
import { validateManifest } from './validate/validate.js';
import { lintManifest } from './lint/lint.js';
import { VERSION } from './version.js';
import { generatorFingerprint, sha, statOf, type Stamp } from './plan/stamp.js';
import { type GenerateOptions, optionsKey, SHOWN_WARNINGS } from './generate-options.js';

export type { GenerateOptions };
import { mark } from './timings.js';

export interface GenerateResult {
  files: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
  /** Set when files were generated; the command writes it after applying the plan. */
  stamp?: Stamp;
  /** Lint warnings found but not in `diagnostics`: past SHOWN_WARNINGS generate only counts them. */
  warningsNotListed?: number;
}

export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  mark('startup');
  // Inputs are stat'ed before they are read: one that changes while generating gets no stamp.
  const readStats = new Map<string, [number, number] | null>([[opts.manifest, statOf(opts.manifest)]]);
  const { manifest, diagnostics: loadDiags } = loadManifest(opts.manifest, opts.displayPath);
  mark('load');
  if (!manifest || hasErrors(loadDiags)) return { files: [], diagnostics: loadDiags };
  const diagnostics = [...loadDiags, ...validateManifest(manifest)];
  mark('validate');
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  // Lint rules the manifest raised to `error` block generation like any other error. Warnings are
  // listed only when few (commands/generate.ts); past that, lint does not locate them and only
  // their count is kept, not ten thousand diagnostics for the whole run.
  const lint = lintManifest(manifest, {}, { locateUpTo: SHOWN_WARNINGS });
  const onlyCounted = lint.length > SHOWN_WARNINGS && !hasErrors(lint);
  if (!onlyCounted) diagnostics.push(...lint);
  const warningsNotListed = onlyCounted ? lint.length : 0;
  mark('lint');
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  const counted = warningsNotListed ? { warningsNotListed } : {};

  // The build's modules (renderer, templates, formatter) load only for a valid manifest.
  const built = await (await import('./build.js')).buildFiles(manifest, opts, (abs) => {
    if (!readStats.has(abs)) readStats.set(abs, statOf(abs));
  });
  diagnostics.push(...built.diagnostics);
  if (!built.files || !built.ir) return { files: [], diagnostics, ...counted };
  const stamp = stampOf(opts, built.ir, built.files, readStats);
  mark('stamp');
  return { files: built.files, diagnostics, ir: built.ir, ...counted, ...(stamp ? { stamp } : {}) };
}

/**
 * What this run read and wrote, so an unchanged project is detected cheaply next time (plan/stamp.ts).
 * None when an input changed while it was being generated from: the next run must not trust it.
 */
function stampOf(opts: GenerateOptions, ir: IR, files: OutputFile[], readStats: Map<string, [number, number] | null>): Stamp | undefined {
  const rel = (abs: string) => path.relative(opts.outDir, abs).split(path.sep).join('/');
  const inputs: Record<string, string> = {};
  const stats: Record<string, [number, number]> = {};
  const paths = [opts.manifest, ...ir.referencedFiles.map((f) => path.resolve(path.dirname(opts.manifest), f))];
  for (const abs of paths) {
    const before = readStats.get(abs);
    const r = rel(abs);
    inputs[r] = sha(readFileSync(abs));
    const after = statOf(abs);
    if (!before || !after || before[0] !== after[0] || before[1] !== after[1]) return undefined;
    stats[r] = after;
  }
  const outputs: Record<string, string> = {};
  for (const f of files) if (f.owner === 'generated') outputs[f.path] = sha(f.content);
  return {
    generator: generatorFingerprint(VERSION),
    options: optionsKey(opts),
    inputs: Object.fromEntries(Object.entries(inputs).sort()),
    outputs,
    userFiles: files.filter((f) => f.owner === 'user').map((f) => f.path).sort(),
    stats,
  };
}
