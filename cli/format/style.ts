/**
 * The style of every file mcpgen emits, as prettier options: the printers (cli/format/literal.ts,
 * cli/render/) print exactly this layout themselves, and the tests hold every file to
 * `prettier.format` with these options. Users' own prettier config does not apply to generated code.
 */
import type { Options } from 'prettier';

export const PRETTIER_OPTIONS: Options = {
  printWidth: 100,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
};
