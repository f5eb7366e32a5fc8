/**
 * The no-op fast path (cli/plan/stamp.ts): a file whose size and mtime match the stamp, and that is
 * older than the stamp, is trusted without being read; anything else is hashed. These tests make
 * the changes a stat check alone could miss and require the full pipeline to see them.
 */
import { cpSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { provenUpToDate } from '../cli/commands/generate.js';
import { STAMP_PATH, type Stamp } from '../cli/plan/stamp.js';
import { memoryIO, REPO, scratch } from './helpers/project.js';

const WEATHER = path.join(REPO, 'examples/weather');

async function generated(name: string): Promise<string> {
  const dir = scratch(name);
  for (const f of ['mcpgen.yaml', 'logo.png', 'docs', 'ui'])
    cpSync(path.join(WEATHER, f), path.join(dir, f), { recursive: true });
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  return dir;
}

const stampOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, STAMP_PATH), 'utf8')) as Stamp;
const fast = (dir: string) => provenUpToDate({}, memoryIO(dir)) !== null;

/** Same length, different bytes: a size check alone cannot see it. */
function flipSameSize(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(from.length).toBe(to.length);
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

async function regenerate(dir: string) {
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  return io.out;
}

describe('the stamp', () => {
  it('records stats of every input and output, and a second generate takes the fast path', async () => {
    const dir = await generated('stamp-stats');
    const stamp = stampOf(dir);
    for (const f of [...Object.keys(stamp.inputs), ...Object.keys(stamp.outputs)]) {
      const s = statSync(path.join(dir, f));
      expect(stamp.stats?.[f], f).toEqual([s.size, s.mtimeMs]);
    }
    expect(Object.keys(stamp.inputs)).toEqual(expect.arrayContaining(['mcpgen.yaml', 'docs/about.md', 'logo.png']));
    expect(fast(dir)).toBe(true);
  });

  it('an up-to-date run prints what the full run printed: the same warnings, paths from its own folder, and the same counts', async () => {
    const dir = await generated('stamp-warnings');
    const manifest = path.join(dir, 'mcpgen.yaml');
    /** Generates twice, the stamp deleted in between: the second run is a full run with nothing to change. */
    const fullRun = async (args: string[]) => {
      expect(await runCli(args, memoryIO(dir))).toBe(0);
      unlinkSync(path.join(dir, STAMP_PATH));
      const io = memoryIO(dir);
      expect(await runCli(args, io), io.err).toBe(0);
      expect(fast(dir)).toBe(true);
      return io;
    };
    // One short description: one warning, listed in full.
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('Daily forecast for a city, up to 7 days ahead', 'Forecast.'),
    );
    const full = await fullRun(['generate']);
    expect(full.err).toMatch(/^mcpgen\.yaml:\d+:\d+: warning MCPG302 .*\n {2}hint: .*\n$/);
    const again = memoryIO(dir);
    expect(await runCli(['generate'], again)).toBe(0);
    expect(again.err).toBe(full.err);
    expect(again.out).toBe(full.out);
    expect(again.out).toMatch(/^✔ 0 created, 0 updated, 0 removed, \d+ unchanged, \d+ kept \(yours\)\n$/);
    // From the parent folder, the paths are the parent's.
    const parent = memoryIO(path.dirname(dir));
    expect(await runCli(['generate', '--check', '-f', path.join(path.basename(dir), 'mcpgen.yaml')], parent)).toBe(0);
    expect(parent.err).toBe(full.err.replace(/^mcpgen\.yaml:/, `${path.basename(dir)}/mcpgen.yaml:`));
    // Past SHOWN_WARNINGS only the count is printed, by both.
    const extra = Array.from({ length: 12 }, (_, i) => `  extra_${i}:\n    description: Short.\n`).join('');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^tools:\n/m, `tools:\n${extra}`));
    const many = await fullRun(['generate', '-q']);
    expect(many.err).toMatch(/^! \d+ warnings in mcpgen\.yaml; run mcpgen validate to see them\n$/);
    const manyAgain = memoryIO(dir);
    expect(await runCli(['generate', '-q'], manyAgain)).toBe(0);
    expect(manyAgain.err).toBe(many.err);
    expect(manyAgain.out).toBe(many.out);
  });

  it('a generated file edited to the same size is restored', async () => {
    const dir = await generated('stamp-same-size');
    const file = path.join(dir, 'src/generated/server.ts');
    const before = readFileSync(file, 'utf8');
    flipSameSize(file, 'export function', 'export  functio');
    expect(fast(dir)).toBe(false);
    expect(await regenerate(dir)).toContain('1 updated');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a file as new as the stamp is hashed even when its size and mtime match (a change within one clock tick)', async () => {
    const dir = await generated('stamp-racy');
    const rel = 'src/generated/server.ts';
    const file = path.join(dir, rel);
    flipSameSize(file, 'export function', 'export  functio');
    // The stamp records the edited file's size and mtime, and is no newer than it (whole seconds).
    const t = Math.floor(Date.now() / 1000);
    const stamp = stampOf(dir);
    stamp.stats![rel] = [statSync(file).size, t * 1000];
    writeFileSync(path.join(dir, STAMP_PATH), JSON.stringify(stamp));
    utimesSync(file, t, t);
    utimesSync(path.join(dir, STAMP_PATH), t, t);
    expect(statSync(file).mtimeMs).toBe(t * 1000);
    expect(fast(dir)).toBe(false);
    expect(await regenerate(dir)).toContain('1 updated');
  });

  it('an edit to a referenced file, same size, reaches the generated content', async () => {
    const dir = await generated('stamp-ref');
    const doc = path.join(dir, 'docs/about.md');
    const content = path.join(dir, 'src/generated/content.ts');
    const before = readFileSync(content, 'utf8');
    const text = readFileSync(doc, 'utf8');
    writeFileSync(doc, `X${text.slice(1)}`);
    expect(fast(dir)).toBe(false);
    expect(await regenerate(dir)).toMatch(/ [1-9]\d* updated/);
    expect(readFileSync(content, 'utf8')).not.toBe(before);
    expect(fast(dir)).toBe(true);
  });

  it('a deleted stub, or a foreign file in a handler folder, leaves the fast path', async () => {
    const dir = await generated('stamp-files');
    const stub = stampOf(dir).userFiles.find((f) => f.startsWith('src/handlers/tools/'))!;
    const text = readFileSync(path.join(dir, stub), 'utf8');
    unlinkSync(path.join(dir, stub));
    expect(fast(dir)).toBe(false);
    expect(await regenerate(dir)).toContain('1 created');
    expect(readFileSync(path.join(dir, stub), 'utf8')).toBe(text);
    expect(fast(dir)).toBe(true);
    writeFileSync(path.join(dir, 'src/handlers/tools/stray.ts'), '');
    expect(fast(dir)).toBe(false);
  });
});
