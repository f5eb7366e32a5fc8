/**
 * Every golden generated project (test/cases/<case>/expected, examples/<name>) compiles with
 * `noUnusedLocals`: what a template emits for a manifest is what that project uses, down to each
 * import and local helper (test/generated-modules.test.ts holds the exports to the same rule).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, run, TSC } from './helpers/project.js';

const projects = [
  ...readdirSync(path.join(REPO, 'test/cases')).map((c) => path.join('test/cases', c, 'expected')),
  ...readdirSync(path.join(REPO, 'examples')).map((e) => path.join('examples', e)),
].filter((dir) => existsSync(path.join(REPO, dir, 'src/generated')));

describe('golden projects compile with noUnusedLocals', () => {
  it('finds them', () => expect(projects.length).toBeGreaterThan(10));

  it.each(projects)(
    '%s',
    async (dir) => {
      const r = await run(TSC, ['-p', 'tsconfig.json', '--noEmit', '--noUnusedLocals'], path.join(REPO, dir));
      expect(r.code, r.stdout + r.stderr).toBe(0);
    },
    120_000,
  );
});
