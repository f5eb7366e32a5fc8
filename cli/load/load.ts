import path from 'node:path';
import v8 from 'node:v8';
import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest, LoadResult } from './types.js';
import { attachLocator, type ManifestLocator } from './locators.js';
import { QuickLocator } from './quick-locate.js';
import { quickParseYaml } from './quick-yaml.js';
import { readManifestText } from './read.js';
import { parseManifestYaml } from './yaml.js';

/**
 * Read and parse a manifest, keeping every node's source position. Never throws for bad input:
 * every problem (missing file, encoding, YAML syntax, duplicate keys…) is a diagnostic.
 * `manifest` is present when the data could be built, even if some (non-syntax) YAML errors were found,
 * so validation can still report everything else in one run.
 */
export function loadManifest(file: string, displayName: string = file): LoadResult {
  const absPath = path.resolve(file);
  const read = readManifestText(absPath, displayName);
  if (read.source === undefined) return { diagnostics: read.diagnostics };
  const source = read.source;
  // Plain block YAML (most manifests) takes the quick path; everything else the yaml package, with its diagnostics.
  // MCPGEN_QUICK_YAML=0 sends every manifest through the yaml package, to rule the quick path out.
  const quick = process.env.MCPGEN_QUICK_YAML === '0' ? undefined : holdingYoungGeneration(() => quickParseYaml(source));
  let data: unknown;
  let locator: ManifestLocator;
  const diagnostics: Diagnostic[] = [];
  if (quick) {
    data = quick.data;
    locator = new QuickLocator(quick.data, quick.positions, source, quick.lines);
  } else {
    const parsed = parseManifestYaml(source, displayName);
    if (parsed.data === undefined) return { diagnostics: parsed.diagnostics, source };
    data = parsed.data;
    locator = parsed.locator;
    diagnostics.push(...parsed.diagnostics);
  }
  const manifest: LoadedManifest = {
    file: displayName,
    absPath,
    dir: path.dirname(absPath),
    source,
    data,
    locate: (p, opts) => locator.range(p, opts),
    ...(quick ? { aliasFree: true as const } : {}),
  };
  attachLocator(manifest, locator);
  return { manifest, diagnostics, source };
}

/**
 * Runs `fn` with V8's young generation kept at its present size. The quick parse keeps nearly all
 * it allocates (the manifest's data), which a growing young generation only copies once more
 * before promoting it: validate of a 1000-tool manifest 0.49 → 0.45 s. Not for whole runs: where
 * most allocations die young (building a schema-heavy project), a small young generation made
 * generate 45 % slower. The factor is read whenever the young generation would grow, so setting
 * it at run time takes effect. Only on V8s known to have the flag (Node 20–24; an unknown one
 * prints an error), and never over a setting of the user's own.
 */
function holdingYoungGeneration<T>(fn: () => T): T {
  if (!TUNE_YOUNG_GENERATION) return fn();
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return fn();
  } finally {
    v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  }
}

const DEFAULT_GROWTH_FACTOR = 2;
const TUNE_YOUNG_GENERATION = (() => {
  const major = Number(process.versions.v8.split('.')[0]);
  const userFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return major >= 11 && major <= 13 && !userFlags.includes('semi-space');
})();

export type { LoadedManifest, LoadResult, LocateOptions, Range } from './types.js';
