/** Documentation generated from the schema must match it. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');

it('docs/manifest-reference.md is up to date with the schema', () => {
  expect(() =>
    execFileSync(process.execPath, ['scripts/manifest-reference.mjs', '--check'], { cwd: REPO, stdio: 'pipe' }),
  ).not.toThrow();
});
