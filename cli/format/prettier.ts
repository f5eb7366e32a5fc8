/**
 * `options.format: prettier`: the files a generate writes, through the project's own prettier and
 * its configuration, so `prettier --check` passes on the whole project. mcpgen's own layout needs no
 * formatter; this is for teams that want one style everywhere. The prettier is the project's
 * (its version, its plugins), never one of mcpgen's.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OutputFile } from '../plan/plan.js';

/** The files prettier lays out; the rest (.gitignore, …) are written as rendered. */
const FORMATTED = /\.(ts|json|md)$/;

type Prettier = {
  format(source: string, options: Record<string, unknown>): Promise<string>;
  resolveConfig(file: string): Promise<Record<string, unknown> | null>;
};

/** Why prettier could not run, for an MCPG920 diagnostic. */
export class FormatError extends Error {}

/** `files` with their content formatted; user-owned files that exist (content '') are left alone. */
export async function formatWithPrettier(files: OutputFile[], projectDir: string): Promise<OutputFile[]> {
  const prettier = await loadPrettier(projectDir);
  const out: OutputFile[] = [];
  for (const f of files) {
    if (!f.content || !FORMATTED.test(f.path)) {
      out.push(f);
      continue;
    }
    const filepath = path.join(projectDir, f.path);
    let config: Record<string, unknown> | null;
    try {
      config = await prettier.resolveConfig(filepath);
    } catch (err) {
      throw new FormatError(`the project's prettier configuration cannot be read: ${messageOf(err)}`);
    }
    try {
      out.push({ ...f, content: await prettier.format(f.content, { ...config, filepath }) });
    } catch (err) {
      throw new FormatError(`prettier refused ${f.path}: ${messageOf(err)}`);
    }
  }
  return out;
}

async function loadPrettier(projectDir: string): Promise<Prettier> {
  let entry: string;
  try {
    entry = createRequire(path.join(projectDir, 'package.json')).resolve('prettier');
  } catch {
    throw new FormatError(
      `prettier is not installed in ${projectDir}; install it there: npm install --save-dev prettier`,
    );
  }
  try {
    const loaded = (await import(pathToFileURL(entry).href)) as Prettier & { default?: Prettier };
    return typeof loaded.format === 'function' ? loaded : loaded.default!;
  } catch (err) {
    throw new FormatError(`the project's prettier (${entry}) cannot be loaded: ${messageOf(err)}`);
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err));
