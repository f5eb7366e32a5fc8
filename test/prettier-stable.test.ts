/**
 * Every generated file is prettier-clean: formatting it again changes nothing. Data spliced in
 * without prettier (cli/format/splice.ts) must be exactly what prettier would print.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { PRETTIER_OPTIONS } from '../cli/format/style.js';

const REPO = path.resolve(import.meta.dirname, '..');
const roots = [
  ...readdirSync(path.join(REPO, 'test/cases')).filter((n) => !n.startsWith('invalid-')).map((n) => `test/cases/${n}/expected`),
  ...readdirSync(path.join(REPO, 'examples')).map((n) => `examples/${n}`),
].filter((r) => existsSync(path.join(REPO, r, 'src/generated')));

function generatedFiles(root: string): string[] {
  const out: string[] = [];
  // Generated code, and the stubs of the golden cases.
  const dirs = root.startsWith('test/cases') ? ['src/generated', 'test/generated', 'src/handlers', 'test/handlers'] : ['src/generated', 'test/generated'];
  // package.json (printJson) and tsconfig.json (written prettier-clean) skip prettier;
  // README.md goes through prettier's markdown parser.
  if (root.startsWith('test/cases')) for (const f of ['package.json', 'tsconfig.json', 'README.md']) if (existsSync(path.join(REPO, root, f))) out.push(path.join(root, f));
  for (const dir of dirs) {
    const abs = path.join(REPO, root, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.ts') || f.endsWith('.json')) out.push(path.join(root, dir, f));
  }
  return out;
}

describe.each(roots)('%s', (root) => {
  it.each(generatedFiles(root))('%s is prettier-stable', async (file) => {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    const parser = file.endsWith('.json') ? 'json' : file.endsWith('.md') ? 'markdown' : 'typescript';
    expect(await prettier.format(text, { ...PRETTIER_OPTIONS, parser })).toBe(text);
  });
});
