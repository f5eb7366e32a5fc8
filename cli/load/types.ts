import type { Diagnostic } from '../diagnostics.js';
import type { JsonPath } from '../manifest/json-path.js';

/** A span in the manifest source; all 1-based, columns in UTF-16 code units (as editors count). */
export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface LocateOptions {
  /** For a mapping entry: the key's range instead of the value's. */
  key?: boolean;
}

export interface LoadedManifest {
  /** Display path used in diagnostics (as the user gave it, relative to cwd). */
  file: string;
  absPath: string;
  /** Folder of the manifest: `file:` references resolve against it. */
  dir: string;
  source: string;
  /** Plain JS value (YAML → JSON data model), aliases and merge keys resolved. */
  data: unknown;
  /**
   * Range of the node at a JSON path (array of keys/indices); for a map entry, key: true gives the
   * key's range. Falls back to the nearest existing ancestor.
   */
  locate(path: JsonPath, opts?: LocateOptions): Range;
  /** Set when the source has no aliases (the quick parse declines them): no node is reachable twice. */
  aliasFree?: true;
}

export interface LoadResult {
  /** Absent when the file could not be read or parsed into a mapping. */
  manifest?: LoadedManifest;
  diagnostics: Diagnostic[];
  /** The text, whenever it could be read as UTF-8 (also when YAML parsing failed): for code frames. */
  source?: string;
}
