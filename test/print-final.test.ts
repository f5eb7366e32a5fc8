/**
 * Files the generator prints in their final layout from the manifest's data (nothing formats them
 * afterwards) must be exactly what prettier prints, for every manifest: the golden cases, the examples,
 * the real-world manifests, a realistic 50-tool manifest with names and descriptions of every
 * width, and mutants of all of them (test/fuzz/mutant.mjs).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { PRETTIER_OPTIONS } from '../cli/format/style.js';
import { generate } from '../cli/generate.js';
import { loadSeeds, makeMutant } from './fuzz/mutant.mjs';
import { writeMutant } from './fuzz/oracle.mjs';
import { fiftyTools } from './helpers/fifty-tools.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const FINAL = ['src/generated/schemas.ts', 'src/generated/content.ts', 'src/generated/handlers.ts', 'src/generated/server.ts'];
const work = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-print-final-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const manifestsIn = (dir: string) =>
  readdirSync(path.join(REPO, dir))
    .filter((n) => !n.startsWith('invalid-') && existsSync(path.join(REPO, dir, n, 'mcpgen.yaml')))
    .map((n) => path.join(REPO, dir, n, 'mcpgen.yaml'));

/** The files printed final, as generated from `manifest` (none when it does not generate). */
async function finalFiles(manifest: string): Promise<{ path: string; content: string }[]> {
  const outDir = mkdtempSync(path.join(work, 'out-'));
  const r = await generate({ manifest, outDir });
  return r.files.filter((f) => FINAL.includes(f.path)).map((f) => ({ path: f.path, content: f.content }));
}

async function expectPrettierStable(manifest: string): Promise<number> {
  const files = await finalFiles(manifest);
  for (const f of files) expect(await prettier.format(f.content, { ...PRETTIER_OPTIONS, parser: 'typescript' }), `${manifest}: ${f.path}`).toBe(f.content);
  return files.length;
}

describe('files printed final are what prettier prints', () => {
  it.each([...manifestsIn('test/cases'), ...manifestsIn('examples'), ...manifestsIn('test/real-world')].map((m) => path.relative(REPO, m)))('%s', async (m) => {
    // handlers.ts and server.ts always; schemas.ts and content.ts when the manifest has their data.
    expect(await expectPrettierStable(path.join(REPO, m))).toBeGreaterThanOrEqual(2);
  });

  it('a realistic 50-tool manifest with names of every width', async () => {
    const dir = path.join(work, 'fifty');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), fiftyTools());
    expect(await expectPrettierStable(path.join(dir, 'mcpgen.yaml'))).toBe(FINAL.length);
  });

  it('mutants of every example and case', { timeout: 600_000 }, async () => {
    const seeds = loadSeeds(REPO);
    let generated = 0;
    for (let n = 1; n <= 150; n++) {
      const dir = path.join(work, `mutant-${n}`);
      writeMutant(makeMutant(n, seeds), dir);
      if ((await expectPrettierStable(path.join(dir, 'mcpgen.yaml'))) > 0) generated++;
    }
    // About one mutant in five still generates (the rest are rejected by validation): 32 of these 150.
    expect(generated).toBeGreaterThan(25);
  });
});
