/**
 * Types by construct (docs/types.md): test/types-constructs/mcpgen.yaml holds every JSON Schema
 * construct real servers use in one tool input; check.ts assigns valid inputs (what the server's
 * validator accepts) to the generated types and marks invalid ones `@ts-expect-error`. tsc --strict
 * over both must be clean: a valid input rejected, or an invalid one accepted, fails.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../cli/generate.js';
import { REPO, run, TSC } from './helpers/project.js';

const CASE = path.join(REPO, 'test/types-constructs');
const DIR = path.join(REPO, '.tmp/types-constructs');

describe('types.ts is right for every construct', () => {
  it('valid inputs are assignable, invalid ones rejected (tsc --strict)', async () => {
    const result = await generate({ manifest: path.join(CASE, 'mcpgen.yaml'), outDir: CASE, generatorVersion: null });
    const types = result.files.find((f) => f.path === 'src/generated/types.ts')!.content;
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path.join(DIR, 'types.ts'), types);
    copyFileSync(path.join(CASE, 'check.ts'), path.join(DIR, 'check.ts'));
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      skipLibCheck: true,
      types: [],
    };
    writeFileSync(path.join(DIR, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const r = await run(TSC, ['-p', 'tsconfig.json'], DIR);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);

    // Descriptions become JSDoc; a `title` never becomes a type of its own. (A property named
    // `__proto__` is refused by validate, MCPG214; test/ts-types.test.ts prints one.)
    expect(types).toMatch(/\/\*\* A described field \*\/\n {2}described\?: string;/);
    expect(types).toMatch(/\/\*\* An amount of money \*\/\nexport interface Money \{/);
    expect(types).not.toMatch(/Titled/);
    // The same manifest gives the same text.
    const again = await generate({ manifest: path.join(CASE, 'mcpgen.yaml'), outDir: CASE, generatorVersion: null });
    expect(again.files.find((f) => f.path === 'src/generated/types.ts')!.content).toBe(types);
  }, 60_000);
});
