/**
 * A view built from a folder (`build:`): its index.html with every local script and stylesheet it
 * refers to bundled by esbuild and inlined, so the view is one self-contained document, as hosts
 * need (they render it from a string, in a sandbox that may load nothing from elsewhere).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as Esbuild from 'esbuild';
import { type BundleProblem, bundleProblems } from '../bundle/esbuild.js';

export type BundleResult = { html: string; files: string[] } | { problems: BundleProblem[] };

// `<script … src="…">…</script>` and `<link … rel="stylesheet" … href="…">`: the two ways a page
// refers to code; anything else in the page is kept as written.
const SCRIPT = /<script\b([^>]*?)\bsrc\s*=\s*(["'])([^"']+)\2([^>]*)>\s*<\/script\s*>/gi;
const STYLESHEET = /<link\b(?=[^>]*\brel\s*=\s*(["'])stylesheet\1)[^>]*?\bhref\s*=\s*(["'])([^"']+)\2[^>]*>/gi;

/** Remote and inline references stay as they are: the view's CSP decides what they may load. */
const isLocal = (ref: string) => !/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(ref);

/** Files a page may import besides code: small assets become data: URLs in the bundle. */
const ASSET_LOADERS: Record<string, Esbuild.Loader> = {
  '.png': 'dataurl',
  '.jpg': 'dataurl',
  '.jpeg': 'dataurl',
  '.gif': 'dataurl',
  '.webp': 'dataurl',
  '.svg': 'dataurl',
  '.woff': 'dataurl',
  '.woff2': 'dataurl',
};

export async function bundleView(esbuild: typeof Esbuild, folder: string, projectDir: string): Promise<BundleResult> {
  const page = path.join(folder, 'index.html');
  let html: string;
  try {
    html = readFileSync(page, 'utf8');
  } catch (err) {
    return { problems: [{ file: page, message: `cannot read it (${(err as NodeJS.ErrnoException).code ?? err})` }] };
  }
  const problems: BundleProblem[] = [];
  const files = new Set<string>([page]);
  const scripts = [...html.matchAll(SCRIPT)].filter((m) => isLocal(m[3]!));
  const sheets = [...html.matchAll(STYLESHEET)].filter((m) => isLocal(m[3]!));
  const resolve = (ref: string) => path.resolve(folder, ref.split(/[?#]/)[0]!);
  for (const ref of [...scripts, ...sheets].map((m) => m[3]!)) {
    const file = resolve(ref);
    const rel = path.relative(projectDir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel))
      problems.push({ file: page, line: lineOf(html, ref), message: `${ref} is outside the project` });
  }
  if (problems.length) return { problems };

  const built = new Map<string, { js: string; css: string }>();
  for (const ref of new Set([...scripts, ...sheets].map((m) => m[3]!))) {
    const entry = resolve(ref);
    try {
      const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        loader: ASSET_LOADERS,
        outdir: 'out',
        write: false,
        metafile: true,
        logLevel: 'silent',
        absWorkingDir: projectDir,
      });
      for (const input of Object.keys(result.metafile.inputs)) files.add(path.resolve(projectDir, input));
      const text = (ext: string) =>
        result.outputFiles
          .filter((f) => f.path.endsWith(ext))
          .map((f) => f.text)
          .join('\n');
      built.set(ref, { js: text('.js'), css: text('.css') });
    } catch (err) {
      problems.push(...bundleProblems(err, projectDir, entry));
    }
  }
  if (problems.length) return { problems };

  // Styles a script imports go in the head, before the page's own, as a bundler's HTML plugin does.
  const importedCss = scripts.map((m) => built.get(m[3]!)!.css).filter(Boolean);
  let out = html
    .replace(SCRIPT, (tag, before: string, _q, ref: string, after: string) => {
      if (!isLocal(ref)) return tag;
      const attrs = `${before}${after}`.replace(/\btype\s*=\s*(["'])[^"']*\1/i, '').trim();
      return `<script type="module"${attrs ? ` ${attrs}` : ''}>${inlineScript(built.get(ref)!.js)}</script>`;
    })
    .replace(STYLESHEET, (tag, _q1, _q2, ref: string) =>
      isLocal(ref) ? `<style>${inlineStyle(built.get(ref)!.css)}</style>` : tag,
    );
  if (importedCss.length) {
    const style = `<style>${inlineStyle(importedCss.join('\n'))}</style>`;
    out = /<\/head\s*>/i.test(out) ? out.replace(/<\/head\s*>/i, `${style}</head>`) : `${style}${out}`;
  }
  return { html: out, files: [...files].sort() };
}

// A `</script` or `</style` inside the inlined code would end the element early.
const inlineScript = (js: string) => js.replace(/<\/(script)/gi, '<\\/$1').trimEnd();
const inlineStyle = (css: string) => css.replace(/<\/(style)/gi, '<\\/$1').trimEnd();

function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}
