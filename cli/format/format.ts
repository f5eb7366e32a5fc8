/**
 * format: prettier, in memory, before any comparison or write (STYLE.md §9) — so `--check` and
 * a no-op regenerate compare formatted text with formatted text.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Options } from 'prettier';
import type { FormatCache } from './cache.js';

/** The style of every file mcpgen emits. Users' own prettier config does not apply to generated code. */
export const PRETTIER_OPTIONS: Options = {
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
  // Loaded on the first miss only: a run served from the cache never pays for prettier.
  const prettier = await import('prettier');
  const formatted = await prettier.format(content, { ...PRETTIER_OPTIONS, parser });
  cache?.set(file, content, formatted);
  return formatted;
}

/** prettier's version, read without loading prettier. */
export const PRETTIER_VERSION = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('prettier/package.json'), 'utf8')) as { version: string }
).version;

/** What makes a cached result valid: prettier's version and the options. */
export const FORMAT_SALT = `prettier ${PRETTIER_VERSION} ${JSON.stringify(PRETTIER_OPTIONS)}`;
