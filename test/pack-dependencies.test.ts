/**
 * The bundle's node_modules layout (cli/pack/dependencies.ts) on installed trees with conflicting
 * versions: every package must find, inside the bundle, the version it finds in the project.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { productionDependencies } from '../cli/pack/dependencies.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-deps-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project from `{ 'node_modules/a': { version, dependencies… } }`; '' is the project itself. */
function project(name: string, tree: Record<string, Record<string, unknown>>): string {
  const dir = path.join(root, name);
  for (const [rel, pkg] of Object.entries(tree)) {
    mkdirSync(path.join(dir, rel), { recursive: true });
    const pkgName = rel ? rel.slice(rel.lastIndexOf('node_modules/') + 13) : name;
    writeFileSync(path.join(dir, rel, 'package.json'), JSON.stringify({ name: pkgName, version: '1.0.0', ...pkg }));
  }
  return dir;
}
const layout = (dir: string) => productionDependencies(dir).map((p) => `${p.to}@${p.version}`);

it('keeps each version where its dependants find it, however the tree is visited', () => {
  // The project needs b@2 and d@1 (top); a needs b@1 and d@2 (nested under it); c, nested under a
  // in the project, finds a's d@2 there, but lands at the top of the bundle, where d is d@1.
  const dir = project('conflicts', {
    '': { dependencies: { a: '*', b: '2', d: '1' } },
    'node_modules/a': { dependencies: { b: '1', c: '*', d: '2' } },
    'node_modules/a/node_modules/b': {},
    'node_modules/a/node_modules/c': { version: '3.0.0', dependencies: { d: '*' } },
    'node_modules/a/node_modules/d': { version: '2.0.0' },
    'node_modules/b': { version: '2.0.0' },
    'node_modules/d': { version: '1.0.0' },
  });
  expect(layout(dir)).toEqual([
    'node_modules/a@1.0.0',
    'node_modules/a/node_modules/b@1.0.0',
    'node_modules/a/node_modules/d@2.0.0',
    'node_modules/b@2.0.0',
    'node_modules/c@3.0.0',
    'node_modules/c/node_modules/d@2.0.0',
    'node_modules/d@1.0.0',
  ]);
});

it('leaves out dev dependencies, optional peers and uninstalled optional dependencies; keeps required peers', () => {
  const dir = project('kinds', {
    '': { dependencies: { a: '*' }, devDependencies: { dev: '*' }, peerDependencies: { peer: '*' } },
    'node_modules/a': {
      optionalDependencies: { absent: '*', present: '*' },
      peerDependencies: { required: '*', feature: '*' },
      peerDependenciesMeta: { feature: { optional: true } },
    },
    'node_modules/dev': {},
    'node_modules/peer': {},
    'node_modules/present': {},
    'node_modules/required': {},
    'node_modules/feature': {},
  });
  expect(layout(dir)).toEqual(['node_modules/a@1.0.0', 'node_modules/present@1.0.0', 'node_modules/required@1.0.0']);
});

it('names the chain to a dependency that is not installed', () => {
  const dir = project('missing', {
    '': { dependencies: { a: '*' } },
    'node_modules/a': { dependencies: { gone: '*' } },
  });
  expect(() => productionDependencies(dir)).toThrow(/cannot bundle: gone \(needed by missing → a\) is not installed/);
});
