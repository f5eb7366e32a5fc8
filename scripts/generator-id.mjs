#!/usr/bin/env node
// Last step of `npm run build`: writes dist/generator-id, a hash of the contents of every file that
// makes mcpgen's output what it is (cli/plan/stamp.ts generatorFiles: compiled code, templates,
// schemas). A stamp records it, so a rebuild that changes any of them
// makes the next generate take the full path; one that changes nothing keeps stamps valid.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// First step of the build: an empty dist, so a module whose source is gone is not left to be
// imported or packed; and until the last step writes the new id, none is there to vouch for code
// that is half rebuilt (a failed build leaves the slower but always right file walk).
if (process.argv[2] === '--clear') {
  rmSync(path.join(repo, 'dist'), { recursive: true, force: true });
  process.exit(0);
}
const { generatorFiles, GENERATOR_ID_FILE } = await import(path.join(repo, 'dist/plan/stamp.js'));
const h = createHash('sha256');
for (const f of generatorFiles()) {
  // Names relative to the package: the id does not depend on where mcpgen is installed.
  const rel = path.relative(repo, f);
  h.update(`${rel.split(path.sep).join('/')}\0`)
    .update(readFileSync(f))
    .update('\0');
}
writeFileSync(path.join(repo, 'dist', GENERATOR_ID_FILE), `${h.digest('hex').slice(0, 16)}\n`);
