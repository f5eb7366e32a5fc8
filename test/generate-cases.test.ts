/**
 * Golden cases: every `test/cases/<name>/` (not `invalid-*`) holds a manifest and
 * the expected generated tree under `expected/`. Update with `npx vitest run -u`.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../cli/generate.js';
import { formatDiagnostic } from '../cli/diagnostics.js';

const CASES = path.resolve(import.meta.dirname, 'cases');
const cases = existsSync(CASES)
  ? readdirSync(CASES).filter((n) => !n.startsWith('invalid-') && existsSync(path.join(CASES, n, 'mcpgen.yaml')))
  : [];

function listTree(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listTree(dir, r) : [r];
  });
}

describe.each(cases)('case %s', (name) => {
  const dir = path.join(CASES, name);
  it('generates the expected tree', async () => {
    const result = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    const expectedDir = path.join(dir, 'expected');
    for (const f of result.files) {
      await expect(f.content).toMatchFileSnapshot(path.join(expectedDir, f.path));
    }
    // A file in expected/ that is no longer generated is a stale golden.
    const generated = new Set(result.files.map((f) => f.path));
    expect(listTree(expectedDir).filter((p) => !generated.has(p))).toEqual([]);
  });

  it('is deterministic', async () => {
    const a = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
    const b = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
    expect(b.files).toEqual(a.files);
  });
});
