/**
 * Nothing is written outside the project, also through symlinks: with node_modules (or the stamp's
 * folders under it) a symlink to a folder elsewhere, generate writes the project, leaves the folder
 * elsewhere as it was, and only goes without its stamp (a cache). The built bin.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { differences, mcpgen, snapshot, temps, toolsManifest } from './helpers/tree.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-write-outside-'));
const env = { MCPGEN_CACHE_DIR: path.join(work, 'cache') };

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('a symlink that leaves the project', () => {
  test.each([
    ['node_modules', 'node_modules'],
    ['node_modules/.cache', 'node_modules/.cache'],
    ['node_modules/.cache/mcpgen', 'node_modules/.cache/mcpgen'],
  ])('%s → a folder outside: nothing is written there', (_name, link) => {
    const base = path.join(work, link.replace(/\W/g, '_'));
    const project = path.join(base, 'project');
    const outside = path.join(base, 'outside');
    fs.mkdirSync(project, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'theirs.txt'), "not mcpgen's\n");
    fs.mkdirSync(path.dirname(path.join(project, link)), { recursive: true });
    fs.symlinkSync(outside, path.join(project, link));
    fs.writeFileSync(path.join(project, 'mcpgen.yaml'), toolsManifest('A', 3));
    const before = snapshot(outside, []);
    for (let run = 0; run < 2; run++) {
      const r = mcpgen(project, ['generate', '-q'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(differences(snapshot(outside, []), before)).toEqual([]);
    }
    expect(fs.existsSync(path.join(project, 'src/generated/server.ts'))).toBe(true);
    expect(temps(project)).toEqual([]);
    // Without its stamp a generate takes the full path, and still finds nothing to change.
    expect(mcpgen(project, ['generate', '--check'], env).code).toBe(0);
  });

  test('a stamp.json that is a symlink to a file outside is replaced, not written through', () => {
    const base = path.join(work, 'stamp-link');
    const project = path.join(base, 'project');
    const outside = path.join(base, 'outside.json');
    fs.mkdirSync(path.join(project, 'node_modules/.cache/mcpgen'), { recursive: true });
    fs.writeFileSync(outside, '{"theirs": true}\n');
    fs.symlinkSync(outside, path.join(project, 'node_modules/.cache/mcpgen/stamp.json'));
    fs.writeFileSync(path.join(project, 'mcpgen.yaml'), toolsManifest('A', 3));
    expect(mcpgen(project, ['generate', '-q'], env).code).toBe(0);
    expect(fs.readFileSync(outside, 'utf8')).toBe('{"theirs": true}\n');
    expect(fs.lstatSync(path.join(project, 'node_modules/.cache/mcpgen/stamp.json')).isFile()).toBe(true);
  });
});
