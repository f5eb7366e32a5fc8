/**
 * Long steps say what they are doing (a spinner on a terminal, plain lines otherwise, nothing for
 * a step under a second), and a quiet generate (watch, dev) still names the files created for the
 * user to edit.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { withProgress } from '../cli/progress.js';
import { memoryIO, scratch } from './helpers/project.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('withProgress', () => {
  it('says nothing for a step under a second', async () => {
    const io = memoryIO('.');
    expect(await withProgress(io, 'building', later(200, 'done'))).toBe('done');
    expect(io.err).toBe('');
  });

  it('prints one plain line past a second when not on a terminal', async () => {
    const io = memoryIO('.');
    await withProgress(io, 'building (tsc --incremental)', later(1300, null));
    expect(io.err).toBe('… building (tsc --incremental)\n');
  });

  it('draws a spinner with the seconds on a terminal, and clears it', async () => {
    const io = { ...memoryIO('.'), isTTY: true };
    let err = '';
    io.stderr = (t: string) => void (err += t);
    await withProgress(io, 'building', later(1400, null));
    expect(err).toMatch(/^\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] building \(1 s\)/);
    expect(err.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('passes a failure on, and stops', async () => {
    const io = memoryIO('.');
    await expect(withProgress(io, 'building', Promise.reject(new Error('tsc failed')))).rejects.toThrow('tsc failed');
    await later(1200, null);
    expect(io.err).toBe('');
  });
});

describe('generate -q', () => {
  it('names the files created for the user to edit, and only those', async () => {
    const dir = scratch('quiet-names');
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      'version: 1\nserver: { name: quiet, version: 0.1.0 }\ntransports: { stdio: {} }\ntools:\n  ping: { description: Answers pong }\n',
    );
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    const lines = io.out.trimEnd().split('\n');
    expect(lines).toContain('  create    src/handlers/tools/ping.ts  (yours: edit it)');
    expect(lines.some((l) => l.includes('src/generated/'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^✔ \d+ created/);
  });
});
