/**
 * The project's own esbuild (a dev dependency, so builds use the version its lockfile pins), and
 * its errors as diagnostics at file:line:col.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import { UsageError } from '../diagnostics.js';

/** The esbuild a project builds with, as `npm install -D` should name it. */
export const ESBUILD_SPEC = 'esbuild@0.28.2';

/** Loads the project's esbuild; a usage error naming the install command when it has none. */
export async function projectEsbuild(projectDir: string): Promise<typeof Esbuild> {
  let entry: string;
  try {
    entry = createRequire(path.join(projectDir, 'package.json')).resolve('esbuild');
  } catch {
    throw new UsageError(
      `the project is bundled with esbuild, which it does not have: run \`npm install -D ${ESBUILD_SPEC}\` in ${projectDir}`,
    );
  }
  const mod = (await import(pathToFileURL(entry).href)) as typeof Esbuild & { default?: typeof Esbuild };
  return mod.default ?? mod;
}

/** A problem esbuild reported, at the file (absolute), line and column it names. */
export interface BundleProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** esbuild's errors from a failed build; the error itself again when it is not one of esbuild's. */
export function bundleProblems(err: unknown, projectDir: string, fallbackFile: string): BundleProblem[] {
  const errors = (err as { errors?: Esbuild.Message[] }).errors;
  if (!Array.isArray(errors)) throw err;
  return errors.map((e) => ({
    file: e.location ? path.resolve(projectDir, e.location.file) : fallbackFile,
    ...(e.location ? { line: e.location.line, column: e.location.column + 1 } : {}),
    message: e.text,
  }));
}
