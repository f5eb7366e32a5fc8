/**
 * The golden generated projects (test/cases/<case>/expected, examples/<name>) keep a lean module
 * graph: their modules import each other without cycles, and carry no code the project does not
 * use. The handler types, content and schemas export only what another module uses; the server
 * and the HTTP entry may export what their API is made of, but nothing that is used nowhere at all.
 * File reads only.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blank, cycles, exportUses, idleImports, importGraph, tsModules } from './helpers/module-graph.js';
import { REPO } from './helpers/project.js';

interface Project {
  readonly name: string;
  readonly root: string;
}

// Cases without src/generated are validation failures: nothing was generated.
const PROJECTS: Project[] = [
  ...readdirSync(path.join(REPO, 'test/cases'))
    .sort()
    .map((c) => ({ name: `test/cases/${c}`, root: path.join(REPO, 'test/cases', c, 'expected') }))
    .filter((p) => existsSync(path.join(p.root, 'src/generated'))),
  ...readdirSync(path.join(REPO, 'examples'))
    .sort()
    .map((e) => ({ name: `examples/${e}`, root: path.join(REPO, 'examples', e) }))
    .filter((p) => existsSync(path.join(p.root, 'src/generated'))),
];

/**
 * Exports meant for the user's own code, documented as such, so unused until the user writes it
 * (`<module under src/generated>:<name>`; `:*` for a module whose every export is public).
 */
const PUBLIC = new Set([
  'http.ts:HttpOptions', // the options of startHttp, for the user's own entry code
  'types.ts:*', // a named type per shared schema and $defs entry (docs/manifest-reference.md, docs/json-schema.md)
]);

/** The modules whose every export another module must use: their parts follow the manifest. */
const STRICT = new Set(['handlers.ts', 'content.ts', 'schemas.ts']);

/** Whether `name` occurs in the module's own code besides its declaration (not as a property). */
function usedInside(root: string, module: string, name: string): boolean {
  const { bare } = blank(readFileSync(path.join(root, module), 'utf8'));
  return (bare.match(new RegExp(`(?<![\\w$])(?<![^.]\\.)${name}(?![\\w$])`, 'g')) ?? []).length > 1;
}

function projectModules(root: string): string[] {
  return ['src', 'test']
    .filter((dir) => existsSync(path.join(root, dir)))
    .flatMap((dir) => tsModules(path.join(root, dir)));
}

/** Modules that package.json runs (bin, main, `node dist/…` scripts): reached without a TypeScript import. */
function entryModules(root: string): Set<string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  const text = JSON.stringify([pkg.bin, pkg.main, pkg.exports, pkg.scripts]);
  return new Set([...text.matchAll(/dist\/([\w./-]+)\.js/g)].map((m) => `${m[1]}.ts`));
}

/**
 * `src/generated/<file>: <names>` for each generated module with exports nothing else uses; a name
 * some module imports without ever referring to it says where (`x (idle import in test/a.ts)`).
 */
function unusedExports(root: string): string[] {
  const files = projectModules(root);
  const entries = entryModules(root);
  const idle = idleImports(files, root);
  const found: string[] = [];
  for (const [module, names] of exportUses(files, root)) {
    if (!module.startsWith('src/generated/') || entries.has(module)) continue;
    const file = module.slice('src/generated/'.length);
    if (PUBLIC.has(`${file}:*`)) continue;
    const unused = [...names.keys()]
      .filter((name) => names.get(name)!.size === 0 && !PUBLIC.has(`${file}:${name}`))
      .filter((name) => STRICT.has(file) || !usedInside(root, module, name))
      .sort()
      .map((name) => {
        const where = idle.filter((i) => i.module === module && i.name === name).map((i) => i.importer);
        return where.length ? `${name} (idle import in ${where.join(', ')})` : name;
      });
    if (unused.length) found.push(`${module}: ${unused.join(', ')}`);
  }
  return found.sort();
}

it('finds the golden projects', () => {
  expect(PROJECTS.filter((p) => p.name.startsWith('test/cases/')).length).toBeGreaterThan(5);
  expect(PROJECTS.filter((p) => p.name.startsWith('examples/')).length).toBeGreaterThan(0);
});

it('lists in PUBLIC only names some project exports', () => {
  const exported = new Set<string>();
  for (const { root } of PROJECTS)
    for (const [module, names] of exportUses(projectModules(root), root))
      if (module.startsWith('src/generated/')) {
        const file = module.slice('src/generated/'.length);
        exported.add(`${file}:*`);
        for (const name of names.keys()) exported.add(`${file}:${name}`);
      }
  expect([...PUBLIC].filter((entry) => !exported.has(entry))).toEqual([]);
});

describe.each(PROJECTS.map((p) => [p.name, p.root] as const))('%s', (name, root) => {
  it('has no import cycles', () => {
    const graph = importGraph(projectModules(root), root);
    expect(graph.size).toBeGreaterThan(5);
    expect(cycles(graph), `${name}: modules importing each other in a cycle`).toEqual([]);
  });

  it('carries no export of src/generated/ the project does not use', () => {
    expect(unusedExports(root), `${name}: exports nothing uses (drop the export, or the code)`).toEqual([]);
  });
});

describe('the detector', () => {
  const project = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-modules-'));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), source);
    }
    return dir;
  };

  it('reads multi-line, type-only, renamed, namespace, dynamic and re-exported uses', () => {
    const dir = project({
      'src/generated/content.ts': [
        'export function used() {}',
        'export async function alsoUsed() {}',
        'export const viaNamespace = 1;',
        'export class Renamed {}',
        'export type Typed = string;',
        'export type Idle = number;',
        'export interface Shape {}',
        'const a = 1, b = 2;',
        'export { a, b as bee };',
        'export function unused() {}',
        'export const onlyInside = 1;',
        'export const onlyReexported = 2;',
        'export const forwarded = 3;',
        'export const dynamic = 4;',
        'export const notDynamic = 5;',
        'void onlyInside;',
      ].join('\n'),
      'src/generated/server.ts': [
        'import {',
        '  used,',
        '  type Typed,',
        '  Renamed as R,',
        '  a,',
        '  onlyReexported,',
        "} from './content.js';",
        'const quote = /[\'"]/;',
        "import type { Shape, Idle } from './content.js';",
        "import * as rt from './content.js';",
        "// import { unused } from './content.js';",
        'const s = "import { unused } from \'./content.js\'";',
        'const t = `${used()} import { unused } from x`;',
        'export { onlyReexported };',
        "export { forwarded } from './content.js';",
        'export const x: Typed = String(new R()) + a + rt.viaNamespace + s + t + String(quote);',
        'export type S = Shape;',
        'export async function load() {',
        "  const { dynamic } = await import('./content.js');",
        '  return dynamic;',
        '}',
      ].join('\n'),
      'src/main.ts': [
        "import { alsoUsed, bee } from './generated/content.js';",
        "import { forwarded, load, x, type S } from './generated/server.js';",
        'void [alsoUsed, bee, forwarded, load, x] as S[];',
      ].join('\n'),
      'package.json': '{}',
    });
    try {
      const uses = exportUses(projectModules(dir), dir).get('src/generated/content.ts')!;
      const unused = [...uses]
        .filter(([, users]) => users.size === 0)
        .map(([n]) => n)
        .sort();
      expect(unused).toEqual(['Idle', 'notDynamic', 'onlyInside', 'onlyReexported', 'unused']);
      expect([...uses.get('forwarded')!]).toEqual(['src/main.ts']);
      expect(unusedExports(dir)).toEqual([
        'src/generated/content.ts: Idle (idle import in src/generated/server.ts), notDynamic, onlyInside, onlyReexported, unused',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
