export interface GenerateOptions {
  /** Absolute path of the manifest. */
  manifest: string;
  /** Absolute path of the project folder to generate into. */
  outDir: string;
  /** How to show the manifest's path in diagnostics (relative to the user's cwd). */
  displayPath?: string;
  /** Override the version written in headers (null = omit). Default: mcpgen's version, unless the manifest says otherwise. */
  generatorVersion?: string | null;
  /**
   * Which project files exist (POSIX paths relative to `outDir`): a user-owned file that exists is
   * kept, so it is not rendered. The command layer lists the folder (plan/existing.ts); by default
   * none exists and every file is rendered.
   */
  exists?: (file: string) => boolean;
  /** How package.json names the runtime and mcpgen (default: from where this mcpgen runs). */
  specs?: { runtime: string; mcpgen: string };
  /** Called with each input file (the manifest, then each file it references) just before it is read. */
  beforeRead?: (abs: string) => void;
  /** The layout of generated files (`--format`); default: the manifest's `options.format`. */
  format?: 'mcpgen' | 'prettier';
}

/** The generate options that change the output, as recorded in the stamp (kept light: fast path). */
export function optionsKey(opts: { generatorVersion?: string | null; format?: 'mcpgen' | 'prettier' }): string {
  return `headerVersion=${opts.generatorVersion === null ? 'off' : 'on'}${opts.format === 'prettier' ? ' format=prettier' : ''}`;
}

/** How many warnings generate prints in full; past that, a count and a pointer to `mcpgen validate`. */
export const SHOWN_WARNINGS = 10;
