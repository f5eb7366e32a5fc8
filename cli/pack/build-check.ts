/**
 * The build a bundle is made from must be this project's, and newer than its sources: a bundle of
 * another build would list tools it does not serve.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { newestMtime } from './files.js';
import { BUNDLE_ENTRY } from './mcpb-manifest.js';

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The `serverInfo` literal of generated server code (source or tsc's output), without whitespace; null when absent. */
function serverInfoOf(file: string): string | null {
  if (!isFile(file)) return null;
  const m = /export const serverInfo(?::\s*ServerInfo)?\s*=\s*(\{[\s\S]*?\});\s*$/m.exec(readFileSync(file, 'utf8'));
  return m ? m[1]!.replace(/\s+/g, '') : null;
}

/** Refuses (UsageError) a missing build, one older than `src/`, or one of another server. */
export function checkBuild(projectDir: string, rel: (abs: string) => string): void {
  const howToBuild = `\`npm run build\` in ${rel(projectDir)}, or \`mcpgen pack --build\``;
  const entry = path.join(projectDir, BUNDLE_ENTRY);
  if (!isFile(entry))
    throw new UsageError(
      `${rel(entry)} ${existsSync(entry) ? 'is not a file' : 'does not exist'}: build the project first (${howToBuild})`,
    );
  const src = newestMtime(path.join(projectDir, 'src'), ['.ts']);
  const built = newestMtime(path.join(projectDir, 'dist', 'src'), ['.js']);
  if (src.file && src.mtime > built.mtime)
    throw new UsageError(
      `${rel(src.file)} is newer than the build in ${rel(path.join(projectDir, 'dist'))}: run \`npm run build\` (or \`mcpgen pack --build\`)`,
    );
  // tsc keeps the literal as written, so the build of this project's generated server holds the same one.
  const source = path.join(projectDir, 'src', 'generated', 'server.ts');
  const output = path.join(projectDir, 'dist', 'src', 'generated', 'server.js');
  const want = serverInfoOf(source);
  const have = serverInfoOf(output);
  if (want !== null && have !== null && want !== have)
    throw new UsageError(
      `${rel(output)} was not built from this project's generated code (it serves ${identity(have)}; ${rel(source)} serves ${identity(want)}): build the project again (${howToBuild})`,
    );
}

/** `name version` of a serverInfo literal, for a message. */
function identity(literal: string): string {
  const field = (key: string) => new RegExp(`${key}:(['"])(.*?)\\1`).exec(literal)?.[2] ?? '?';
  return `${field('name')} ${field('version')}`;
}
