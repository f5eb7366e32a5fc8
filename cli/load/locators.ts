import type { JsonPath } from '../manifest/json-path.js';
import type { LoadedManifest, LocateOptions, Range } from './types.js';

/** Resolves JSON paths of the loaded data back to source ranges (of a yaml Document or of the quick parse). */
export interface ManifestLocator {
  /** Range of an absolute source span [start, end), clamped to the source. */
  span(start: number, end: number): Range;
  /** Range of the node at `path` (its key with `key: true`); the nearest existing ancestor when it is missing. */
  range(path: JsonPath, opts?: LocateOptions): Range;
  /** Range of the characters [start, end) of the string value at `path`, else of the whole value. */
  rangeInString(path: JsonPath, start: number, end: number): Range;
}

const locators = new WeakMap<LoadedManifest, ManifestLocator>();

export function attachLocator(m: LoadedManifest, locator: ManifestLocator): void {
  locators.set(m, locator);
}

/** Precise range inside a string value (see ManifestLocator.rangeInString); the whole value for manifests built by hand. */
export function locateInString(m: LoadedManifest, path: JsonPath, start: number, end: number): Range {
  return locators.get(m)?.rangeInString(path, start, end) ?? m.locate(path);
}
