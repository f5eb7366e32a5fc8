/**
 * vitest setup file: `mcpgen` on PATH, as a project's node_modules/.bin has it once mcpgen is its
 * dev dependency. Scratch projects live inside this repository and take their packages from its
 * node_modules, where npm does not link the repository's own bin; their `npm run build` (mcpgen
 * build) and `npm run dev` need it.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(REPO, '.tmp', 'bin');

mkdirSync(BIN, { recursive: true });
try {
  symlinkSync(path.join(REPO, 'bin', 'mcpgen.js'), path.join(BIN, 'mcpgen'));
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
}
if (!process.env.PATH?.split(path.delimiter).includes(BIN))
  process.env.PATH = `${BIN}${path.delimiter}${process.env.PATH ?? ''}`;
