/** The generate options that change the output, as recorded in the stamp (kept light: fast path). */
export function optionsKey(opts: { generatorVersion?: string | null }): string {
  return `headerVersion=${opts.generatorVersion === null ? 'off' : 'on'}`;
}
