/** The generate options that change the output, as recorded in the stamp (kept light: fast path). */
export function optionsKey(opts: { generatorVersion?: string | null }): string {
  return `headerVersion=${opts.generatorVersion === null ? 'off' : 'on'}`;
}

/** How many warnings generate prints in full; past that, a count and a pointer to `mcpgen validate`. */
export const SHOWN_WARNINGS = 10;
