/**
 * The file system refuses part of a generate (the built bin, A → B on a 12-tool project: files
 * updated, stubs created, stale files removed): the run says where and why in one line with a
 * stable code, exits 1 without a stack, and leaves every file of the project byte for byte as it
 * was, with no temp file anywhere. Immutable files and folders (`chattr +i`) stop root too; without
 * root, folders are made read-only instead, and the immutable-file cases are skipped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { differences, HEADER, mcpgen, snapshot, temps, toolsManifest } from './helpers/tree.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-write-errors-'));
const env = { MCPGEN_CACHE_DIR: path.join(work, 'cache') };
const fresh = path.join(work, 'fresh');
const root = process.getuid?.() === 0;

/** Makes `abs` refuse writes; the undo, or null when this system cannot (then the test is skipped). */
function protect(abs: string): (() => void) | null {
  if (root) {
    if (spawnSync('chattr', ['+i', abs]).status === 0) return () => void spawnSync('chattr', ['-i', abs]);
    return null;
  }
  if (!fs.statSync(abs).isDirectory()) return null; // a read-only file can still be renamed over
  const mode = fs.statSync(abs).mode;
  fs.chmodSync(abs, 0o555);
  return () => fs.chmodSync(abs, mode);
}

beforeAll(() => {
  fs.mkdirSync(fresh);
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('A', 12));
  expect(mcpgen(fresh, ['generate', '-q'], env).code).toBe(0);
  for (let i = 0; i < 2; i++)
    fs.writeFileSync(path.join(fresh, `src/generated/stale_${i}.ts`), `${HEADER}export const stale = ${i};\n`);
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('B', 12));
}, 60_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const refused = root
  ? /operation not permitted \(EPERM; immutable or append-only\? see lsattr\)/
  : /permission denied \(EACCES\)/;

describe('generate when the file system refuses', () => {
  test.each([
    // What is protected, and the line the run must print (its path, what failed).
    [
      'a generated file it replaces',
      'src/generated/server.ts',
      'src/generated/server.ts: error MCPG911 cannot replace src/generated/server.ts: ',
      'nothing was changed',
    ],
    [
      'a stale file it removes (after the others were switched)',
      'src/generated/stale_1.ts',
      'src/generated/stale_1.ts: error MCPG911 cannot remove stale src/generated/stale_1.ts: ',
      'nothing was changed',
    ],
    [
      'the handler folder it creates stubs in',
      'src/handlers/tools',
      'src/handlers/tools: error MCPG911 cannot write into src/handlers/tools: ',
      'nothing was written',
    ],
    [
      'the generated folder',
      'src/generated',
      'src/generated: error MCPG911 cannot write into src/generated: ',
      'nothing was written',
    ],
    // The root alone is not enough: staging then goes into a folder under it (test/write-staging.test.ts).
    [
      'the project folder and every folder staging could go in',
      '.,src/generated,test/generated,src,test',
      '.mcpgen-staging: error MCPG911 cannot write .mcpgen-staging: ',
      'nothing was written',
    ],
  ])('%s', (_what, targets, line, outcome, ctx) => {
    const project = path.join(work, `p-${targets.replace(/\W/g, '_')}`);
    fs.cpSync(fresh, project, { recursive: true });
    const before = snapshot(project, []);
    const undos = targets.split(',').map((target) => protect(path.join(project, target)));
    const undo = () => undos.reverse().forEach((u) => u?.());
    if (undos.some((u) => !u)) {
      undo();
      return ctx.skip();
    }
    let r: ReturnType<typeof mcpgen>;
    try {
      r = mcpgen(project, ['generate'], env);
    } finally {
      undo();
    }
    const errors = r.stderr.split('\n').filter((l) => /error|internal|^\s+at /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.startsWith(line), errors[0]).toBe(true);
    expect(errors[0]).toMatch(refused);
    expect(errors[0]!.endsWith(`; ${outcome}`), errors[0]).toBe(true);
    expect(r.stderr).not.toMatch(/internal error|This is a bug|\n\s+at /);
    expect(r.code).toBe(1);
    expect(differences(snapshot(project, []), before)).toEqual([]);
    expect(temps(project)).toEqual([]);
    // Once allowed, the same generate goes through.
    const again = mcpgen(project, ['generate', '-q'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(fs.existsSync(path.join(project, 'src/handlers/tools/tool_21.ts'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'src/generated/stale_1.ts'))).toBe(false);
  });
});
