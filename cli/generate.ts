/**
 * The generator as a pure function: manifest in, file set out. It reads the manifest
 * and the files it references and writes nothing; which project files exist, the stamp and the
 * writing belong to the commands (plan/existing.ts, plan/stamp.ts, write/).
 *
 *   load → validate → normalize (IR) → render (each file in its final layout)
 */
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { loadManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import type { OutputFile } from './plan/plan.js';
import { validateManifest } from './validate/validate.js';
import { lintManifest } from './lint/lint.js';
import { type GenerateOptions, SHOWN_WARNINGS } from './generate-options.js';

export type { GenerateOptions };
import { mark } from './timings.js';
import type { LoadedManifest } from './load/types.js';
import type { Manifest } from './manifest/types.js';
import { diagAt } from './validate/diagnostic.js';
import { Codes } from './manifest/codes.js';

export interface GenerateResult {
  files: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
  /** Lint warnings found but not in `diagnostics`: past SHOWN_WARNINGS generate only counts them. */
  warningsNotListed?: number;
  /** True when the files went through the project's prettier (`options.format: prettier`). */
  prettier?: boolean;
}

export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  mark('startup');
  opts.beforeRead?.(opts.manifest);
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
  const built = await (await import('./build.js')).buildFiles(manifest, opts);
  diagnostics.push(...built.diagnostics);
  if (!built.files || !built.ir) return { files: [], diagnostics, ...counted };
  if (formatOf(manifest, opts) === 'mcpgen') return { files: built.files, diagnostics, ir: built.ir, ...counted };
  const { formatWithPrettier, FormatError } = await import('./format/prettier.js');
  try {
    return {
      files: await formatWithPrettier(built.files, opts.outDir),
      diagnostics,
      ir: built.ir,
      prettier: true,
      ...counted,
    };
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    // Where the choice was made: the manifest's `options.format`, else (`--format`) the manifest's top.
    const set = (manifest.data as Manifest).options?.format !== undefined;
    const at = set
      ? diagAt(manifest, ['options', 'format'], Codes.FORMAT_FAILED, err.message)
      : { ...diagAt(manifest, [], Codes.FORMAT_FAILED, err.message), line: 1, column: 1 };
    return { files: [], diagnostics: [...diagnostics, at], ...counted };
  }
}

/** How the files are laid out: `--format` first, then the manifest's `options.format`. */
export function formatOf(manifest: LoadedManifest, opts: GenerateOptions): 'mcpgen' | 'prettier' {
  return opts.format ?? (manifest.data as Manifest).options?.format ?? 'mcpgen';
}
