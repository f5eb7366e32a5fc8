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

/** The generate options that change the output, as recorded in the stamp (kept light: fast path). */
export function optionsKey(opts: { generatorVersion?: string | null }): string {
  return `headerVersion=${opts.generatorVersion === null ? 'off' : 'on'}`;
}

/** How many warnings generate prints in full; past that, a count and a pointer to `mcpgen validate`. */
export const SHOWN_WARNINGS = 10;
