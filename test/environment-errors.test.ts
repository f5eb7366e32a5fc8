/**
 * The machine refusing something (permissions, a full disk) is not a bug in mcpgen: outside the
 * write path, which reports its own MCPG91x diagnostics, such an error still gets one plain line
 * naming what failed and where, never "internal error" or a stack.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { environmentError, runCli } from '../cli/main.js';
import { memoryIO } from './helpers/project.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-env-errors-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Makes a folder refuse new files: `chattr +i` stops root too; chmod does for anyone else. */
function protect(dir: string): () => void {
  if (process.getuid?.() === 0 && spawnSync('chattr', ['+i', dir]).status === 0)
    return () => void spawnSync('chattr', ['-i', dir]);
  fs.chmodSync(dir, 0o555);
  return () => fs.chmodSync(dir, 0o755);
}

describe('environment errors', () => {
  test('are described by their errno code, with the path', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/srv/x.ts',
    });
    expect(environmentError(full)).toBe('cannot write /srv/x.ts: no space left on the device (ENOSPC)');
    expect(environmentError(new Error('plain'))).toBeNull();
    expect(environmentError(Object.assign(new Error('?'), { code: 'ERR_SOMETHING' }))).toBeNull();
  });

  test('init into a folder that refuses new files: one plain line, exit 2, nothing created', async () => {
    const dir = path.join(work, 'locked');
    fs.mkdirSync(dir);
    const undo = protect(dir);
    try {
      const io = memoryIO(work);
      const code = await runCli(['init', 'locked'], io);
      expect(code).toBe(2);
      expect(io.err).toMatch(
        /^mcpgen: cannot \w+ \S*locked\S*: (operation not permitted|permission denied) \((EPERM|EACCES)\)\n$/,
      );
      expect(io.err).not.toMatch(/internal error| {4}at /);
    } finally {
      undo();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
