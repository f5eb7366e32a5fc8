import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';

/** File names looked for, in order of preference. */
export const MANIFEST_NAMES = ['mcpgen.yaml', 'mcpgen.yml'] as const;

/**
 * Absolute path of the manifest to use: `explicit` (-f) resolved against cwd, else the first
 * mcpgen.yaml / mcpgen.yml in cwd or a parent folder (like git, so commands work from any subfolder).
 * Throws UsageError when there is none.
 */
export function findManifest(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const abs = path.resolve(cwd, explicit);
    if (!fs.existsSync(abs)) throw new UsageError(`manifest ${explicit} does not exist`);
    return abs;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of MANIFEST_NAMES) {
      const candidate = path.join(dir, name);
      if (isFile(candidate)) return candidate;
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new UsageError(
    'no mcpgen.yaml (or mcpgen.yml) in this folder or any parent folder: run `mcpgen init` to create one, or pass -f <file>',
  );
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
