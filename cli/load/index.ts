export { loadManifest } from './load.js';
export { findManifest, MANIFEST_NAMES } from './find.js';
export { locateInString } from './locators.js';
export { MAX_MANIFEST_BYTES } from './read.js';
export { MAX_ALIAS_COUNT } from './yaml.js';
export type { LoadedManifest, LoadResult, LocateOptions, Range } from './types.js';
