import path from 'node:path';
import type { LoadedManifest, LoadResult } from './types.js';
import { attachLocator } from './locate.js';
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
  const parsed = parseManifestYaml(source, displayName);
  if (parsed.data === undefined) return { diagnostics: parsed.diagnostics, source };
  const locator = parsed.locator;
  const manifest: LoadedManifest = {
    file: displayName,
    absPath,
    dir: path.dirname(absPath),
    source,
    data: parsed.data,
    locate: (p, opts) => locator.range(p, opts),
  };
  attachLocator(manifest, locator);
  return { manifest, diagnostics: parsed.diagnostics, source };
}

export type { LoadedManifest, LoadResult, LocateOptions, Range } from './types.js';
