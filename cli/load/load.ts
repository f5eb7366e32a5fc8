import path from 'node:path';
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
  return loadManifestText(absPath, displayName, read.source);
}

/** A manifest's text, read already (or never on disk: an edit to check before writing it), loaded as loadManifest loads a file. */
export function loadManifestText(absPath: string, displayName: string, source: string): LoadResult {
  // Plain block YAML (most manifests) takes the quick path; everything else the yaml package, with its diagnostics.
  // MCPGEN_QUICK_YAML=0 sends every manifest through the yaml package, to rule the quick path out.
  const quick = process.env.MCPGEN_QUICK_YAML === '0' ? undefined : quickParseYaml(source);
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

export type { LoadedManifest, LoadResult, LocateOptions, Range } from './types.js';
