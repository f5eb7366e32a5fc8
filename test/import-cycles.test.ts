/**
 * mcpgen's own modules import each other without cycles (static, type-only and dynamic imports
 * alike), so each pipeline stage can be read, tested and replaced on its own.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from './helpers/project.js';

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return modules(file);
    return file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
  });
}

/** The import graph's strongly connected components of more than one module (Tarjan). */
function cycles(files: string[]): string[][] {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const specifier = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const file of files) {
    const deps: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(specifier)) {
      const target = path.resolve(path.dirname(file), (m[1] ?? m[2])!.replace(/\.js$/, '.ts'));
      if (known.has(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(REPO, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

it('cli/ has no import cycles', () => {
  const files = modules(path.join(REPO, 'cli'));
  expect(files.length).toBeGreaterThan(50);
  expect(cycles(files)).toEqual([]);
});

it('finds a cycle when there is one, through type-only and dynamic imports too', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-cycles-'));
  try {
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    writeFileSync(path.join(dir, 'b.ts'), "export type B = number;\nexport const load = () => import('./c.js');\n");
    writeFileSync(path.join(dir, 'c.ts'), "export {\n  type A,\n} from './a.js';\n");
    writeFileSync(path.join(dir, 'd.ts'), "import { load } from './b.js';\nvoid load;\n");
    const found = cycles(modules(dir)).map((c) => c.map((f) => path.basename(f)));
    expect(found).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
