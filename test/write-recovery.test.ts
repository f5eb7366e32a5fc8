/**
 * What the next run does with what an interrupted one left, in process and deterministic: a
 * generate is stopped after each of its switch renames in turn (every later rename fails too, as
 * if the process had died there), then `--check`, `--dry-run` and `diff` must report the
 * half-switched project without touching it, and `generate` must roll the journal forward and end
 * exactly where a clean generate ends. Also: an uncommitted staging folder is dropped, a running
 * generate's is left alone, and temp files of killed writes are swept. And a manifest an editor
 * replaces between generate's check and its read stops the run (exit 2, nothing written).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { differences, HEADER, snapshot, temps, toolsManifest } from './helpers/tree.js';
import { memoryIO } from './helpers/project.js';

/** Renames that touch the staging folder fail from the `after`-th on (a process dying there). */
const stop = vi.hoisted(() => ({ after: Infinity, seen: 0, errno: [] as string[] }));
/** Runs around generate's read of the manifest (its open without blocking): an editor saving it then. */
const reading = vi.hoisted(() => ({
  path: '',
  around: undefined as ((when: 'lookup' | 'before' | 'after') => void) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const renameSync: typeof actual.renameSync = (from, to) => {
    if (`${from}${to}`.includes('.mcpgen-staging') && stop.seen++ >= stop.after) {
      // With `errno`: the file system refuses (these codes, in turn), else the process dies here.
      const code = stop.errno.shift();
      if (!code) throw new Error('process killed here');
      throw Object.assign(new Error(`${code}: refused, rename '${from}' -> '${to}'`), {
        code,
        syscall: 'rename',
        path: String(from),
      });
    }
    actual.renameSync(from, to);
  };
  const openSync = ((file: fs.PathLike, flags?: unknown, ...rest: unknown[]) => {
    // The read opens with numeric flags (O_NONBLOCK); the lookups before it check with 'r'.
    const read = reading.around && String(file) === reading.path && typeof flags === 'number';
    if (reading.around && String(file) === reading.path && flags === 'r') reading.around('lookup');
    if (read) reading.around?.('before');
    const fd = (actual.openSync as (...a: unknown[]) => number)(file, flags, ...rest);
    if (read) reading.around?.('after');
    return fd;
  }) as typeof actual.openSync;
  return { ...actual, renameSync, openSync, default: { ...actual, renameSync, openSync } };
});

const { generateCommand } = await import('../cli/commands/generate.js');
const { diffCommand } = await import('../cli/commands/diff.js');
const { ownerText } = await import('../cli/write/owner.js');
const { runCli } = await import('../cli/main.js');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-write-recovery-'));
const fresh = path.join(work, 'fresh');
let target: Map<string, string>;
const prevCache = process.env.MCPGEN_CACHE_DIR;

async function generate(dir: string, opts: { check?: boolean; dryRun?: boolean } = {}) {
  const io = memoryIO(dir);
  const code = await generateCommand({ quiet: true, ...opts }, io);
  return { code, out: io.out, err: io.err };
}

function copyFresh(name: string): string {
  const dir = path.join(work, name);
  fs.cpSync(fresh, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  process.env.MCPGEN_CACHE_DIR = path.join(work, 'cache');
  fs.mkdirSync(fresh);
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('A', 3));
  expect((await generate(fresh)).code).toBe(0);
  for (let i = 0; i < 2; i++)
    fs.writeFileSync(path.join(fresh, `src/generated/stale_${i}.ts`), `${HEADER}export const stale = ${i};\n`);
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('B', 3));
  const ref = copyFresh('reference');
  expect((await generate(ref)).code).toBe(0);
  target = snapshot(ref);
}, 60_000);

afterAll(() => {
  if (prevCache === undefined) delete process.env.MCPGEN_CACHE_DIR;
  else process.env.MCPGEN_CACHE_DIR = prevCache;
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a generate interrupted in its switch', () => {
  test('after each rename in turn: read-only commands report it, generate rolls it forward', async () => {
    const old = snapshot(fresh);
    let interrupted = 0;
    for (let after = 1; ; after++) {
      const dir = copyFresh(`stopped-${after}`);
      stop.seen = 0;
      stop.after = after;
      const run = await generate(dir).catch((err: Error) => err);
      stop.after = Infinity;
      if (!(run instanceof Error)) break; // fewer renames than `after`: the switch completed
      expect(run.message).toBe('process killed here');
      if (after === 1) {
        // The first switch failed, none to undo: the project is the old one, the staging folder gone.
        expect(differences(snapshot(dir), old)).toEqual([]);
        expect(temps(dir)).toEqual([]);
        continue;
      }
      interrupted++;
      expect(fs.existsSync(path.join(dir, '.mcpgen-staging/journal.json'))).toBe(true);
      const half = snapshot(dir);
      expect(differences(half, old).length, `stopped after ${after} renames`).toBeGreaterThan(0);

      for (const opts of [{ check: true }, { dryRun: true }]) {
        const r = await generate(dir, opts);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(
          /^\.mcpgen-staging: error MCPG912 an interrupted mcpgen generate left this project between two versions \(its journal is in \.mcpgen-staging\/\); run mcpgen generate to finish it$/m,
        );
      }
      const io = memoryIO(dir);
      expect(await diffCommand({}, io)).toBe(1);
      expect(io.out).toBe('');
      expect(io.err).toMatch(/error MCPG912/);
      expect(differences(snapshot(dir), half), 'read-only commands wrote something').toEqual([]);

      const done = await generate(dir);
      expect(done.code, done.err).toBe(0);
      expect(done.err).toMatch(/^! finished the switch of an interrupted mcpgen generate \(\.mcpgen-staging\/\)$/m);
      // Rolled forward: this run found the switched project, nothing left to write.
      expect(done.out).toMatch(/✔ 0 created, 0 updated, 0 removed/);
      expect(differences(snapshot(dir), target), `stopped after ${after} renames`).toEqual([]);
      expect(temps(dir)).toEqual([]);
    }
    // Each rename after the commit (updated files, new stubs, stale files) is a stop point.
    expect(interrupted).toBeGreaterThan(10);
  }, 120_000);

  test('an uncommitted staging folder (killed while staging) is dropped: the old project is generated as usual', async () => {
    const dir = copyFresh('uncommitted');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.mkdirSync(path.join(dir, '.mcpgen-staging/new/src/generated'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.mcpgen-staging/owner'), `${dead}\n`);
    fs.writeFileSync(path.join(dir, '.mcpgen-staging/new/src/generated/server.ts'), '');
    // Nothing committed: the project is the old one, and a check compares it as such.
    const check = await generate(dir, { check: true });
    expect(check.code).toBe(1);
    expect(check.err).not.toMatch(/MCPG91/);
    expect(check.out).toMatch(/update +src\/generated\/server\.ts/);
    const r = await generate(dir);
    expect(r.code, r.err).toBe(0);
    expect(differences(snapshot(dir), target)).toEqual([]);
    expect(temps(dir)).toEqual([]);
  });

  test('the staging folder of a generate still running is left alone: MCPG913', async () => {
    const dir = copyFresh('busy');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.join(dir, '.mcpgen-staging'));
      // As that process would have written it: its PID and start time.
      fs.writeFileSync(path.join(dir, '.mcpgen-staging/owner'), ownerText(other.pid!));
      const before = snapshot(dir, []);
      const r = await generate(dir);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        new RegExp(
          `^\\.mcpgen-staging: error MCPG913 another mcpgen generate \\(process ${other.pid}\\) is writing this project; run again when it is done`,
          'm',
        ),
      );
      expect(differences(snapshot(dir, []), before)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });

  test('temp files of killed writes in generated and handler folders are swept, never user files', async () => {
    const dir = copyFresh('temps');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.writeFileSync(path.join(dir, `src/generated/.server.ts.mcpgen-${dead}.tmp`), '');
    fs.writeFileSync(path.join(dir, `src/handlers/tools/.tool_10.ts.mcpgen-${dead}.tmp`), 'half a stub');
    fs.writeFileSync(path.join(dir, 'src/handlers/tools/notes.tmp'), 'mine\n');
    const r = await generate(dir);
    expect(r.code, r.err).toBe(0);
    expect(temps(dir)).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'src/handlers/tools/notes.tmp'), 'utf8')).toBe('mine\n');
    fs.rmSync(path.join(dir, 'src/handlers/tools/notes.tmp'));
    expect(differences(snapshot(dir), target)).toEqual([]);
  });

  test('a failed write whose undo fails too: MCPG915, the journal kept, the next generate finishes', async () => {
    const dir = copyFresh('undo-failed');
    stop.seen = 0;
    stop.after = 4;
    stop.errno = ['EPERM', 'EIO', 'EIO', 'EIO', 'EIO'];
    const r = await generate(dir);
    stop.after = Infinity;
    stop.errno = [];
    expect(r.code).toBe(1);
    const lines = r.err.split('\n').filter((l) => l.includes('error'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /: error MCPG915 cannot (replace|create) \S+: operation not permitted \(EPERM; .*\); and undoing the files already switched failed too \(cannot restore \S+: input\/output error \(EIO\); the journal in \.mcpgen-staging\/ lets the next mcpgen generate finish the switch\)$/,
    );
    expect(fs.existsSync(path.join(dir, '.mcpgen-staging/journal.json'))).toBe(true);
    const done = await generate(dir);
    expect(done.code, done.err).toBe(0);
    expect(differences(snapshot(dir), target)).toEqual([]);
    expect(temps(dir)).toEqual([]);
  });
});

describe('a manifest that changes while generate reads it', () => {
  /** A generate during which `edit` runs right before or right after the manifest is opened to be read. */
  async function racing(name: string, moment: 'lookup' | 'before' | 'after', edit: (manifest: string) => void) {
    const dir = copyFresh(name);
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true }); // no stamp: the full path
    const before = snapshot(dir);
    const manifest = path.join(dir, 'mcpgen.yaml');
    Object.assign(reading, { path: manifest, around: (when: string) => when === moment && edit(manifest) });
    const io = memoryIO(dir);
    try {
      return { dir, before, code: await runCli(['generate', '-q'], io), err: io.err };
    } finally {
      reading.around = undefined;
    }
  }

  test.each([
    ['gone', (m: string) => fs.rmSync(m)],
    ['replaced by a folder', (m: string) => (fs.rmSync(m), fs.mkdirSync(m))],
  ] as const)('%s between the check and the read: one line, exit 2, nothing written', async (what, edit) => {
    const r = await racing(`race-${what.replaceAll(' ', '-')}`, 'before', edit);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'mcpgen: mcpgen.yaml changed while it was being read (it could not be read as a file): nothing was written; run the command again\n',
    );
    expect(differences(r.before, snapshot(r.dir))).toEqual([]);
  });

  test('gone between finding it and opening it: one line, exit 2, nothing read or written', async () => {
    const r = await racing('race-lookup', 'lookup', (m) => fs.rmSync(m));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'mcpgen: mcpgen.yaml was removed while mcpgen was opening it: nothing was read; run the command again\n',
    );
    expect(differences(r.before, snapshot(r.dir)).every((d) => d.includes('mcpgen.yaml'))).toBe(true);
  });

  test('gone once read: generated from what was read, with no stamp to trust next time', async () => {
    const r = await racing('race-after-read', 'after', (m) => fs.rmSync(m));
    expect(r.code, r.err).toBe(0);
    expect(fs.existsSync(path.join(r.dir, 'node_modules/.cache/mcpgen/stamp.json'))).toBe(false);
  });
});
