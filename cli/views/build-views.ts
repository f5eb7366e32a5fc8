/**
 * Building a project's views (`build:` in the manifest) into dist/src/views/, where the generated
 * server reads them: for `mcpgen build` and `mcpgen dev`. esbuild is the project's own (a dev
 * dependency), so the view is bundled by the version its package-lock pins.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as Esbuild from 'esbuild';
import type { Diagnostic } from '../diagnostics.js';
import { loadManifest } from '../load/load.js';
import { Codes } from '../manifest/codes.js';
import { isRecord } from '../manifest/json-path.js';
import { viewOutput } from '../manifest/views.js';
import { checkViewBuilds } from '../validate/checks/view-builds.js';
import type { BundleProblem } from '../bundle/esbuild.js';
import { bundleView } from './bundle.js';

export interface ViewSpec {
  name: string;
  uri: string;
  /** The folder with index.html (absolute). */
  folder: string;
  /** Relative to the built server's views/ folder. */
  output: string;
}

export interface ViewsBuilt {
  built: { name: string; file: string; target: string; bytes: number }[];
  diagnostics: Diagnostic[];
  /** Every file the views were built from (for watching). */
  sources: string[];
}

/** The manifest's built views, or its problems with them (a missing folder, a non-view). */
export function viewSpecs(manifest: string, display: string): { specs: ViewSpec[]; diagnostics: Diagnostic[] } {
  const loaded = loadManifest(manifest, display);
  if (!loaded.manifest) return { specs: [], diagnostics: loaded.diagnostics };
  const m = loaded.manifest;
  const specs: ViewSpec[] = [];
  const resources = isRecord(m.data) && isRecord(m.data.resources) ? m.data.resources : {};
  for (const [name, r] of Object.entries(resources))
    if (isRecord(r) && typeof r.build === 'string' && typeof r.uri === 'string')
      specs.push({ name, uri: r.uri, folder: path.resolve(m.dir, r.build), output: viewOutput(r.uri) });
  return { specs, diagnostics: specs.length ? checkViewBuilds(m) : [] };
}

/** Bundles each view and writes it whole (beside its target, then renamed over it). */
export async function buildViews(
  esbuild: typeof Esbuild,
  projectDir: string,
  specs: readonly ViewSpec[],
  cwd: string,
): Promise<ViewsBuilt> {
  const out: ViewsBuilt = { built: [], diagnostics: [], sources: [] };
  const shown = (p: string) => path.relative(cwd, p) || '.';
  for (const spec of specs) {
    const result = await bundleView(esbuild, spec.folder, projectDir);
    if ('problems' in result) {
      out.diagnostics.push(...problemDiagnostics(result.problems, Codes.VIEW_BUILD_FAILED, cwd, spec.name));
      continue;
    }
    out.sources.push(...result.files);
    const target = path.join(projectDir, 'dist', 'src', 'views', spec.output);
    const tmp = `${target}.${process.pid}.tmp`;
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      writeFileSync(tmp, result.html);
      renameSync(tmp, target);
    } finally {
      rmSync(tmp, { force: true });
    }
    out.built.push({ name: spec.name, file: shown(target), target, bytes: Buffer.byteLength(result.html) });
  }
  return out;
}

/** esbuild's problems as diagnostics (`entry`: the view they are about, if any). */
export function problemDiagnostics(
  problems: readonly BundleProblem[],
  code: string,
  cwd: string,
  entry?: string,
): Diagnostic[] {
  return problems.map((p) => ({
    code,
    severity: 'error',
    message: entry ? `view \`${entry}\`: ${p.message}` : p.message,
    file: path.relative(cwd, p.file) || p.file,
    line: p.line ?? 1,
    column: p.column ?? 1,
    ...(entry ? { entry } : {}),
  }));
}

/** The text of each file a diagnostic points into, for the report's code frames. */
export function diagnosticSources(diags: readonly Diagnostic[], cwd: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const d of diags) {
    if (sources.has(d.file)) continue;
    try {
      sources.set(d.file, readFileSync(path.resolve(cwd, d.file), 'utf8'));
    } catch {
      /* no frame for a file that cannot be read */
    }
  }
  return sources;
}
