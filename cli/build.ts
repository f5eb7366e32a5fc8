/**
 * The build: normalize → render → format, from a validated manifest to the project's files
 * (generate.ts loads this module only then).
 */
import path from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { FORMAT_SALT, formatFile as formatText } from './format/format.js';
import { headerLines } from './render/views.js';
import { FormatCache } from './format/cache.js';
import { spliceData, withJson } from './format/splice.js';
import { unmask } from './format/mask.js';
import { collapseSections, fillSections, ordinalRuns, withSections } from './format/sections.js';
import type { LoadedManifest } from './load/load.js';
import type { IR } from './normalize/ir.js';
import { normalize } from './normalize/normalize.js';
import type { OutputFile } from './plan/plan.js';
import { renderFiles } from './render/render.js';
import { VERSION } from './version.js';
import { mark, now, spent, timingsEnabled } from './timings.js';
import type { GenerateOptions } from './generate-options.js';

/** What the build (normalize → render → format) hands back; no files (nor IR) when normalize found errors. */
export interface Built {
  files?: OutputFile[];
  diagnostics: Diagnostic[];
  ir?: IR;
}

export async function buildFiles(manifest: LoadedManifest, opts: GenerateOptions): Promise<Built> {
  const manifestPath = path.relative(opts.outDir, opts.manifest).split(path.sep).join('/');
  const norm = normalize(manifest, {
    manifestPath,
    generatorVersion: opts.generatorVersion === undefined ? VERSION : opts.generatorVersion,
    ...(opts.beforeRead ? { beforeRead: opts.beforeRead } : {}),
  });
  mark('normalize');
  if (!norm.ir) return { diagnostics: norm.diagnostics };
  const ir = norm.ir;

  // A user-owned file that exists is never rewritten: it is neither rendered nor formatted.
  const exists = opts.exists ?? (() => false);
  const keep = (f: OutputFile) => f.owner === 'user' && exists(f.path);
  const cache = opts.formatCache === false ? undefined : new FormatCache(FORMAT_SALT, opts.formatCache !== 'read');
  // The generated-code header (manifest path, version) is line comments prettier keeps as they
  // are: what goes through prettier and its cache is the code below it, the same in every project.
  const head = `${headerLines(ir)}\n\n`;
  const formatFile = async (file: string, content: string, c?: FormatCache) =>
    content.startsWith(head) ? head + (await formatText(file, content.slice(head.length), c)) : formatText(file, content, c);
  // Stubs of one shape (cli/format/mask.ts) are formatted once per run.
  // Keyed by extension, then by the shape's text as it is (no key string built per stub).
  const shapes = new Map<string, Map<string, Promise<string>>>();
  const formatShape = (file: string, content: string) => {
    const ext = path.extname(file);
    let byText = shapes.get(ext);
    if (!byText) shapes.set(ext, (byText = new Map()));
    let formatted = byText.get(content);
    if (!formatted) byText.set(content, (formatted = formatFile(`shape${ext}`, content, cache)));
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
  // One file at a time, rendered then formatted (see renderFiles).
  const files: OutputFile[] = [];
  // Timed file by file under MCPGEN_TIMINGS (the render of each happens when it is pulled).
  const it = renderFiles(ir, exists);
  for (let t0 = now(), next = it.next(); !next.done; t0 = now(), next = it.next()) {
    const f = next.value;
    files.push(keep(f) ? strip(f) : await format(f));
    if (timingsEnabled) spent(partOf(f.path), now() - t0);
  }
  mark('render+format');
  return { files, diagnostics: norm.diagnostics, ir };
}

/** Where MCPGEN_TIMINGS reports a file's time: generated files one by one, the rest by kind. */
function partOf(file: string): string {
  if (file.startsWith('src/generated/') || file.startsWith('test/generated/')) return file;
  if (file.startsWith('src/handlers/')) return 'handler stubs';
  return file.startsWith('test/handlers/') ? 'handler tests' : 'project files';
}

/** A user file that exists is kept as rendered: only its path and owner matter to the plan. */
function strip({ data: _d, shape: _s, formatted: _f, sections: _x, ...f }: OutputFile): OutputFile {
  return f;
}

