/**
 * The format seed (cli/format/seed.ts): the format cache mcpgen ships with. Lookups must return
 * exactly what was stored and nothing for anything else, and a generate served from the seed must
 * write byte for byte what prettier itself produces.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeSeed, openSeed } from '../cli/format/seed.js';
import { REPO, scratch } from './helpers/project.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'mcpgen-seed-test-'));
const key = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 40);

describe('seed file', () => {
  it('finds every stored entry, shares equal texts, and answers nothing for other keys', async () => {
    const { writeFileSync } = await import('node:fs');
    const entries: Record<string, string> = {};
    for (let i = 0; i < 500; i++) entries[key(`in ${i}`)] = i % 7 === 0 ? 'shared text\n' : `formatted ${i} ✓ ${'x'.repeat(i % 13)}\n`;
    const file = path.join(tmp(), 'seed.bin');
    const bytes = encodeSeed('salt A', entries);
    writeFileSync(file, bytes);
    const seed = openSeed(file, 'salt A')!;
    for (const [k, v] of Object.entries(entries)) expect(seed.get(k)).toBe(v);
    for (let i = 500; i < 600; i++) expect(seed.get(key(`in ${i}`))).toBeUndefined();
    expect(seed.get('not a key')).toBeUndefined();
    // Another prettier or other options: the whole seed is ignored.
    expect(openSeed(file, 'salt B')).toBeNull();
    // Texts are read when asked for: one cut short by a damaged file is no entry, the others still are.
    writeFileSync(file, bytes.subarray(0, bytes.length - 3));
    const cut = openSeed(file, 'salt A')!;
    const answers = Object.entries(entries).map(([k, v]) => [cut.get(k), v] as const);
    expect(answers.filter(([got]) => got === undefined).length).toBeGreaterThan(0);
    for (const [got, v] of answers) if (got !== undefined) expect(got).toBe(v);
    // A damaged or foreign file is ignored, not trusted.
    writeFileSync(file, bytes.subarray(0, 40));
    expect(openSeed(file, 'salt A')).toBeNull();
    writeFileSync(file, 'not a seed');
    expect(openSeed(file, 'salt A')).toBeNull();
    expect(openSeed(path.join(tmp(), 'missing.bin'), 'salt A')).toBeNull();
  });
});

function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (name === 'node_modules') continue;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out.set(r, readFileSync(path.join(dir, r), 'utf8'));
    }
  };
  walk('');
  return out;
}

function generate(dir: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), 'generate', '-q'], {
    cwd: dir,
    env: { ...process.env, MCPGEN_CACHE_DIR: tmp(), MCPGEN_TIMINGS: '1', ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

describe('generate with the seed (the build)', () => {
  it.each(['weather', 'notes'])('examples/%s: same output as prettier itself, and nothing left to prettier', (name) => {
    const seeded = scratch(`seed-on-${name}`, path.join(REPO, 'examples', name));
    const plain = scratch(`seed-off-${name}`, path.join(REPO, 'examples', name));
    // Only the manifest and what it references: every file is generated, stubs included.
    for (const dir of [seeded, plain]) for (const f of ['src', 'test', 'package.json', 'tsconfig.json']) rmSync(path.join(dir, f), { recursive: true, force: true });
    const report = generate(seeded, {});
    generate(plain, { MCPGEN_FORMAT_SEED: '0' });
    expect(tree(seeded)).toEqual(tree(plain));
    // The examples are part of the seed's corpus: every formatting is served from it.
    expect(report).toMatch(/format seed hits \d+/);
    expect(report).not.toMatch(/format misses/);
  });
});
