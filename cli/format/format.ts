/**
 * format: prettier, in memory, before any comparison or write (STYLE.md §9) — so `--check` and
 * a no-op regenerate compare formatted text with formatted text.
 */
import * as prettier from 'prettier';
import type { FormatCache } from './cache.js';

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

export async function formatFile(file: string, content: string, cache?: FormatCache): Promise<string> {
  const parser = parserFor(file);
  if (!parser) return content;
  const hit = cache?.get(file, content);
  if (hit !== undefined) return hit;
  const formatted = await prettier.format(content, { ...PRETTIER_OPTIONS, parser });
  cache?.set(file, content, formatted);
  return formatted;
}

/** What makes a cached result valid: prettier's version and the options. */
export const FORMAT_SALT = `prettier ${prettier.version} ${JSON.stringify(PRETTIER_OPTIONS)}`;
