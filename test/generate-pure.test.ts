/**
 * generate() is a function of the manifest, the files it references and its options: it writes
 * nothing and lists nothing; which project files exist and what was read when come from the
 * caller (commands/generate.ts passes plan/existing.ts and plan/stamp.ts's recorder).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../cli/generate.js';
import { REPO } from './helpers/project.js';

const MANIFEST = path.join(REPO, 'test/cases/kitchen-sink/mcpgen.yaml');

describe('generate() is pure', () => {
  it('writes nothing, not even the folder it generates for', async () => {
    const outDir = path.join(REPO, '.tmp/generate-pure/never-created');
    const r = await generate({ manifest: MANIFEST, outDir, generatorVersion: null });
    expect(r.files.length).toBeGreaterThan(10);
    expect(existsSync(outDir)).toBe(false);
  });

  it('renders the user-owned files the caller says do not exist, and only those', async () => {
    const outDir = path.join(REPO, 'test/cases/kitchen-sink');
    const all = await generate({ manifest: MANIFEST, outDir, generatorVersion: null });
    const kept = new Set(
      all.files.filter((f) => f.owner === 'user' && f.path.startsWith('src/handlers/')).map((f) => f.path),
    );
    expect(kept.size).toBeGreaterThan(2);
    const asked: string[] = [];
    const some = await generate({
      manifest: MANIFEST,
      outDir,
      generatorVersion: null,
      exists: (file) => (asked.push(file), kept.has(file)),
    });
    expect(some.files.map((f) => f.path)).toEqual(all.files.map((f) => f.path));
    for (const f of some.files) {
      const want = all.files.find((g) => g.path === f.path)!;
      expect(f.content, f.path).toBe(kept.has(f.path) ? '' : want.content);
    }
    // Only user-owned files are looked up: generated ones are always rendered.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((p) => all.files.find((f) => f.path === p)?.owner === 'user')).toBe(true);
  });

  it('tells the caller each input just before reading it: the manifest first, then every file it references', async () => {
    const outDir = path.join(REPO, 'test/cases/kitchen-sink');
    const seen: string[] = [];
    const r = await generate({
      manifest: MANIFEST,
      outDir,
      generatorVersion: null,
      beforeRead: (abs) => seen.push(abs),
    });
    const referenced = r.ir!.referencedFiles.map((f) => path.resolve(path.dirname(MANIFEST), f));
    expect(referenced.length).toBeGreaterThan(0);
    expect(seen[0]).toBe(MANIFEST);
    expect(new Set(seen)).toEqual(new Set([MANIFEST, ...referenced]));
  });
});

describe('contract samples', () => {
  it('a template whose only sample is a lone surrogate gets no sample URI, not a crash (fuzzer m90025)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpgen-surrogate-'));
    try {
      writeFileSync(
        path.join(dir, 'mcpgen.yaml'),
        'version: 1\nserver: { name: lone, version: 1.0.0 }\nresourceTemplates:\n  note:\n    uriTemplate: notes://{id}\n    description: One note\n    params: { id: { type: string, enum: ["\\ud800"] } }\n',
      );
      const result = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(result.files.find((f) => f.path === 'test/generated/contract.test.ts')?.content).not.toMatch(
        /kind: 'resource', uri: 'notes:/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
