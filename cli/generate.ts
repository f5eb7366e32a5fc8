/**
 * The generator as a pure function (STYLE.md §1): manifest in, file set out. It reads the manifest
 * and the files it references and writes nothing; commands decide what to do with the result.
 *
 *   load → validate → normalize (IR) → render → format
 */
import path from 'node:path';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { formatFile } from './format/format.js';
import { loadManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import { normalize } from './normalize/normalize.js';
import type { OutputFile } from './plan/plan.js';
import { renderProject } from './render/render.js';
import { validateManifest } from './validate/validate.js';
import { VERSION } from './version.js';

export interface GenerateOptions {
  /** Absolute path of the manifest. */
  manifest: string;
  /** Absolute path of the project folder to generate into. */
  outDir: string;
  /** How to show the manifest's path in diagnostics (relative to the user's cwd). */
  displayPath?: string;
  /** Override the version written in headers (null = omit). Default: mcpgen's version, unless the manifest says otherwise. */
  generatorVersion?: string | null;
}

export interface GenerateResult {
  files: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
}

export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  const { manifest, diagnostics: loadDiags } = loadManifest(opts.manifest, opts.displayPath);
  if (!manifest || hasErrors(loadDiags)) return { files: [], diagnostics: loadDiags };
  const diagnostics = [...loadDiags, ...validateManifest(manifest)];
  if (hasErrors(diagnostics)) return { files: [], diagnostics };

  const manifestPath = path.relative(opts.outDir, opts.manifest).split(path.sep).join('/');
  const norm = normalize(manifest, {
    manifestPath,
    generatorVersion: opts.generatorVersion === undefined ? VERSION : opts.generatorVersion,
  });
  diagnostics.push(...norm.diagnostics);
  if (!norm.ir) return { files: [], diagnostics };

  const rendered = await renderProject(norm.ir);
  const files = await Promise.all(rendered.map(async (f) => ({ ...f, content: await formatFile(f.path, f.content) })));
  return { files, diagnostics, ir: norm.ir };
}
