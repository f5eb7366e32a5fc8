/**
 * mcpgen's own modules import each other without cycles (static, type-only and dynamic imports
 * alike), so each pipeline stage can be read, tested and replaced on its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cycles, importGraph, tsModules } from './helpers/module-graph.js';
import { REPO } from './helpers/project.js';

it('cli/ has no import cycles', () => {
  const files = tsModules(path.join(REPO, 'cli'));
  expect(files.length).toBeGreaterThan(50);
  expect(cycles(importGraph(files, REPO))).toEqual([]);
});

it('finds a cycle when there is one, through type-only and dynamic imports too', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-cycles-'));
  try {
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    writeFileSync(path.join(dir, 'b.ts'), "export type B = number;\nexport const load = () => import('./c.js');\n");
    writeFileSync(path.join(dir, 'c.ts'), "export {\n  type A,\n} from './a.js';\n");
    writeFileSync(path.join(dir, 'd.ts'), "import { load } from './b.js';\nvoid load;\n");
    expect(cycles(importGraph(tsModules(dir), dir))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
