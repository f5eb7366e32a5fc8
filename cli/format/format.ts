/**
 * format: prettier, in memory, before any comparison or write (STYLE.md §9) — so `--check` and
 * a no-op regenerate compare formatted text with formatted text.
 */
import * as prettier from 'prettier';

/** The style of every file mcpgen emits. Users' own prettier config does not apply to generated code. */
export const PRETTIER_OPTIONS: prettier.Options = {
  printWidth: 100,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
};

function parserFor(file: string): string | null {
  if (file.endsWith('.ts') || file.endsWith('.mts')) return 'typescript';
  if (file.endsWith('.json')) return 'json';
  if (file.endsWith('.md')) return 'markdown';
  return null;
}

export async function formatFile(file: string, content: string): Promise<string> {
  const parser = parserFor(file);
  if (!parser) return content;
  return prettier.format(content, { ...PRETTIER_OPTIONS, parser });
}
