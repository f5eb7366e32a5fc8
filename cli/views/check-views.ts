/**
 * Type-checking the views' TypeScript, which esbuild only strips: under the project's
 * tsconfig.json, with the DOM's types instead of Node's and a bundler's module resolution, through
 * a config written in dist/ for the run. For `mcpgen build` and `mcpgen dev`.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { slashes } from '../report/outcome.js';
import type { ViewSpec } from './build-views.js';

/** Where the config is written, relative to the project (removed after each run). */
export const VIEWS_TSCONFIG = 'dist/tsconfig.views.json';

/**
 * Writes the views' tsconfig into dist/ and returns its path relative to the project, or null when
 * no view holds TypeScript (nothing to check).
 */
export function writeViewsTsconfig(projectDir: string, specs: readonly ViewSpec[]): string | null {
  const folders = [...new Set(specs.map((s) => s.folder).filter(hasTypeScript))];
  if (folders.length === 0) return null;
  const dist = path.join(projectDir, 'dist');
  mkdirSync(dist, { recursive: true });
  const config = {
    extends: '../tsconfig.json',
    compilerOptions: {
      noEmit: true,
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      allowImportingTsExtensions: true,
    },
    include: folders.map((folder) => `${slashes(path.relative(dist, folder))}/**/*`),
  };
  writeFileSync(path.join(projectDir, VIEWS_TSCONFIG), `${JSON.stringify(config, null, 2)}\n`);
  return VIEWS_TSCONFIG;
}

/** Whether a view's folder holds TypeScript (outside node_modules). */
function hasTypeScript(folder: string): boolean {
  if (!existsSync(folder)) return false;
  return (readdirSync(folder, { recursive: true }) as string[]).some(
    (file) => /\.(?:m|c)?tsx?$/.test(file) && !file.split(/[\\/]/).includes('node_modules'),
  );
}
