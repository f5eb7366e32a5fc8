/**
 * The generator as a pure function (STYLE.md §1): manifest in, file set out. It reads the manifest
 * and the files it references and writes nothing; commands decide what to do with the result.
 *
 *   load → validate → normalize (IR) → render → format
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { FORMAT_SALT, formatFile } from './format/format.js';
import { FormatCache } from './format/cache.js';
import { spliceData, withJson } from './format/splice.js';
import { loadManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import { normalize } from './normalize/normalize.js';
import type { OutputFile } from './plan/plan.js';
import { renderProject } from './render/render.js';
import { validateManifest } from './validate/validate.js';
import { lintManifest } from './lint/lint.js';
import { VERSION } from './version.js';
import { generatorFingerprint, sha, type Stamp } from './plan/stamp.js';
import { optionsKey } from './generate-options.js';

export interface GenerateOptions {
  /** Absolute path of the manifest. */
  manifest: string;
  /** Absolute path of the project folder to generate into. */
  outDir: string;
  /** How to show the manifest's path in diagnostics (relative to the user's cwd). */
  displayPath?: string;
  /** Override the version written in headers (null = omit). Default: mcpgen's version, unless the manifest says otherwise. */
  generatorVersion?: string | null;
  /** The format cache (node_modules/.cache/mcpgen/format): false = unused, 'read' = never written. */
  formatCache?: boolean | 'read';
}

export interface GenerateResult {
  files: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
  /** Set when files were generated; the command writes it after applying the plan. */
  stamp?: Stamp;
}

export async function generate(opts: GenerateOptions): Promise<GenerateResult> {
  const { manifest, diagnostics: loadDiags } = loadManifest(opts.manifest, opts.displayPath);
  if (!manifest || hasErrors(loadDiags)) return { files: [], diagnostics: loadDiags };
  const diagnostics = [...loadDiags, ...validateManifest(manifest)];
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  // Lint rules the manifest raised to `error` block generation like any other error.
  diagnostics.push(...lintManifest(manifest));
  if (hasErrors(diagnostics)) return { files: [], diagnostics };

  const manifestPath = path.relative(opts.outDir, opts.manifest).split(path.sep).join('/');
  const norm = normalize(manifest, {
    manifestPath,
    generatorVersion: opts.generatorVersion === undefined ? VERSION : opts.generatorVersion,
  });
  diagnostics.push(...norm.diagnostics);
  if (!norm.ir) return { files: [], diagnostics };

  const rendered = await renderProject(norm.ir);
  // A user-owned file that exists is never rewritten, so its new text need not be formatted.
  const cache = opts.formatCache === false ? undefined : new FormatCache(opts.outDir, FORMAT_SALT, opts.formatCache !== 'read');
  const keep = (f: OutputFile) => f.owner === 'user' && existsSync(path.join(opts.outDir, f.path));
  const format = async (f: OutputFile): Promise<OutputFile> => {
    if (f.formatted) return f;
    if (!f.data) return { ...f, content: await formatFile(f.path, f.content, cache) };
    // Data files: format the skeleton, splice the data in; else the whole file the slow way.
    const { data, ...rest } = f;
    const spliced = spliceData(await formatFile(f.path, f.content, cache), data);
    return { ...rest, content: spliced ?? (await formatFile(f.path, withJson(f.content, data), cache)) };
  };
  const files = await Promise.all(rendered.map(async (f) => (keep(f) ? f : format(f))));
  return { files, diagnostics, ir: norm.ir, stamp: stampOf(opts, norm.ir, files) };
}

/** What this run read and wrote, so an unchanged project is detected cheaply next time (plan/stamp.ts). */
function stampOf(opts: GenerateOptions, ir: IR, files: OutputFile[]): Stamp {
  const rel = (abs: string) => path.relative(opts.outDir, abs).split(path.sep).join('/');
  const inputs: Record<string, string> = { [rel(opts.manifest)]: sha(readFileSync(opts.manifest)) };
  for (const f of ir.referencedFiles) {
    const abs = path.resolve(path.dirname(opts.manifest), f);
    inputs[rel(abs)] = sha(readFileSync(abs));
  }
  const outputs: Record<string, string> = {};
  for (const f of files) if (f.owner === 'generated') outputs[f.path] = sha(f.content);
  return {
    generator: generatorFingerprint(VERSION),
    options: optionsKey(opts),
    inputs: Object.fromEntries(Object.entries(inputs).sort()),
    outputs,
    userFiles: files.filter((f) => f.owner === 'user').map((f) => f.path).sort(),
  };
}
