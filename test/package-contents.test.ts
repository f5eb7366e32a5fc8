/**
 * mcpgen's own npm package: what `npm pack` would ship (after `npm run build`). The licence,
 * README and docs the README links are in it, source maps are not, every file `bin` and the
 * modeline need is there, and the whole stays inside a size budget.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, run } from './helpers/project.js';

interface Packed {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** Packed (gzip) and unpacked budgets, about 25 % above the tarball of 0.1.0 (1.0 MB packed, 6.0 MB unpacked): growth past them is a decision. */
const PACKED_BUDGET = 1_300_000;
const UNPACKED_BUDGET = 7_500_000;

let packed: Packed;
let files: string[];

beforeAll(async () => {
  const result = await run('npm', ['pack', '--dry-run', '--json', '--silent', '--ignore-scripts'], REPO, 120_000);
  expect(result.code, result.stderr).toBe(0);
  packed = (JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as Packed[])[0]!;
  files = packed.files.map((f) => f.path);
}, 130_000);

describe('the mcpgen tarball', () => {
  it('ships the licence, the README and the docs it links', () => {
    for (const f of ['LICENSE', 'README.md', 'package.json', 'bin/mcpgen.js', 'schemas/manifest.v1.json'])
      expect(files, f).toContain(f);
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(0);
    for (const doc of new Set(linked)) expect(files, doc).toContain(doc);
  });

  it('ships no source maps, sources or tests', () => {
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(
      files.filter(
        (f) =>
          /^(cli|test|scripts|bench|examples)\//.test(f) ||
          (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('templates/')),
      ),
    ).toEqual([]);
  });

  it('ships the built commands and the templates', () => {
    expect(files.some((f) => f.startsWith('dist/') && f.endsWith('.js'))).toBe(true);
    expect(files).toContain('templates/src/main.ts.hbs');
    expect(files).toContain('templates/project/README.md.hbs');
  });

  it('declares where it comes from', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(path.join(REPO, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} mcpgen contributors\n/,
    );
    expect(pkg.repository.url).toBe('git+https://github.com/mcpgen/mcpgen.git');
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\/mcpgen\/mcpgen/);
    expect(pkg.bugs.url).toBe('https://github.com/mcpgen/mcpgen/issues');
  });

  it('stays inside its size budget', () => {
    expect(packed.size, `packed ${packed.size} bytes`).toBeLessThan(PACKED_BUDGET);
    expect(packed.unpackedSize, `unpacked ${packed.unpackedSize} bytes`).toBeLessThan(UNPACKED_BUDGET);
  });
});
