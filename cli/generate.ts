/**
 * The generator as a pure function (STYLE.md §1): manifest in, file set out. It reads the manifest
 * and the files it references and writes nothing; commands decide what to do with the result.
 *
 *   load → validate → normalize (IR) → render → format
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hasErrors, type Diagnostic } from './diagnostics.js';
import { FORMAT_SALT, formatFile as formatText } from './format/format.js';
import { headerLines } from './render/views.js';
import { FormatCache } from './format/cache.js';
import { spliceData, withJson } from './format/splice.js';
import { unmask } from './format/mask.js';
import { collapseSections, fillSections, ordinalRuns, withSections } from './format/sections.js';
import { loadManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import { normalize } from './normalize/normalize.js';
import type { OutputFile } from './plan/plan.js';
import { renderProject } from './render/render.js';
import { validateManifest } from './validate/validate.js';
import { lintManifest } from './lint/lint.js';
import { VERSION } from './version.js';
import { generatorFingerprint, sha, statOf, type Stamp } from './plan/stamp.js';
import { optionsKey } from './generate-options.js';
import { mark } from './timings.js';

export interface GenerateOptions {
  /** Absolute path of the manifest. */
  manifest: string;
  /** Absolute path of the project folder to generate into. */
  outDir: string;
  /** How to show the manifest's path in diagnostics (relative to the user's cwd). */
  displayPath?: string;
  /** Override the version written in headers (null = omit). Default: mcpgen's version, unless the manifest says otherwise. */
  generatorVersion?: string | null;
  /** The format cache (cli/format/cache.ts, per user): false = unused, 'read' = never written. */
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
  mark('startup');
  // Inputs are stat'ed before they are read: one that changes while generating gets no stamp.
  const readStats = new Map<string, [number, number] | null>([[opts.manifest, statOf(opts.manifest)]]);
  const { manifest, diagnostics: loadDiags } = loadManifest(opts.manifest, opts.displayPath);
  mark('load');
  if (!manifest || hasErrors(loadDiags)) return { files: [], diagnostics: loadDiags };
  const diagnostics = [...loadDiags, ...validateManifest(manifest)];
  mark('validate');
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  // Lint rules the manifest raised to `error` block generation like any other error.
  diagnostics.push(...lintManifest(manifest));
  mark('lint');
  if (hasErrors(diagnostics)) return { files: [], diagnostics };

  const manifestPath = path.relative(opts.outDir, opts.manifest).split(path.sep).join('/');
  const norm = normalize(manifest, {
    manifestPath,
    generatorVersion: opts.generatorVersion === undefined ? VERSION : opts.generatorVersion,
    beforeRead: (abs) => {
      if (!readStats.has(abs)) readStats.set(abs, statOf(abs));
    },
  });
  diagnostics.push(...norm.diagnostics);
  mark('normalize');
  if (!norm.ir) return { files: [], diagnostics };

  // A user-owned file that exists is never rewritten: it is neither rendered nor formatted.
  const seen = new Map<string, boolean>();
  const exists = (p: string) => {
    let e = seen.get(p);
    if (e === undefined) seen.set(p, (e = existsSync(path.join(opts.outDir, p))));
    return e;
  };
  const rendered = await renderProject(norm.ir, exists);
  mark('render');
  const keep = (f: OutputFile) => f.owner === 'user' && exists(f.path);
  const cache = opts.formatCache === false ? undefined : new FormatCache(FORMAT_SALT, opts.formatCache !== 'read');
  // The generated-code header (manifest path, version) is line comments prettier keeps as they
  // are: what goes through prettier and its cache is the code below it, the same in every project.
  const head = `${headerLines(norm.ir)}\n\n`;
  const formatFile = async (file: string, content: string, c?: FormatCache) =>
    content.startsWith(head) ? head + (await formatText(file, content.slice(head.length), c)) : formatText(file, content, c);
  // Stubs of one shape (cli/format/mask.ts) are formatted once per run.
  const shapes = new Map<string, Promise<string>>();
  const formatShape = (file: string, content: string) => {
    const key = `${path.extname(file)}\0${content}`;
    let formatted = shapes.get(key);
    if (!formatted) shapes.set(key, (formatted = formatFile(`shape${path.extname(file)}`, content, cache)));
    return formatted;
  };
  const format = async (file: OutputFile): Promise<OutputFile> => {
    if (file.shape) {
      const text = unmask(await formatShape(file.path, file.shape.content), file.shape.tokens);
      const spliced = file.data ? spliceData(text, file.data) : text;
      if (spliced !== null) return { path: file.path, owner: file.owner, content: spliced };
    }
    // The spread reads `content`: a stub's real text is rendered here, only when its shape fell back.
    const { data, shape: _s, formatted, sections, ...f } = file;
    if (formatted) return f;
    if (sections) {
      // Skeleton (with its own data) first, then the sections; else the whole file the slow way.
      const runs = ordinalRuns(collapseSections(f.content));
      const formattedSkeleton = runs.restore(await formatFile(f.path, runs.text, cache));
      const skeleton = formattedSkeleton === null ? null : data ? spliceData(formattedSkeleton, data) : formattedSkeleton;
      const filled = skeleton === null ? null : await fillSections(skeleton, sections, (c) => formatFile(f.path, c, cache), (c) => formatShape(f.path, c));
      if (filled !== null) return { ...f, content: filled };
      return { ...f, content: await formatFile(f.path, withJson(withSections(f.content, sections), data ?? []), cache) };
    }
    if (!data) return { ...f, content: await formatFile(f.path, f.content, cache) };
    // Data files: format the skeleton, splice the data in; else the whole file the slow way.
    const spliced = spliceData(await formatFile(f.path, f.content, cache), data);
    return { ...f, content: spliced ?? (await formatFile(f.path, withJson(f.content, data), cache)) };
  };
  const files = await Promise.all(rendered.map(async (f) => (keep(f) ? strip(f) : format(f))));
  mark('format');
  const stamp = stampOf(opts, norm.ir, files, readStats);
  mark('stamp');
  return { files, diagnostics, ir: norm.ir, ...(stamp ? { stamp } : {}) };
}

/** A user file that exists is kept as rendered: only its path and owner matter to the plan. */
function strip({ data: _d, shape: _s, formatted: _f, sections: _x, ...f }: OutputFile): OutputFile {
  return f;
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
