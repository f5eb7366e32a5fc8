/**
 * `kill -9` during generate, with the built bin on an 80-tool project: whatever the kill point, the
 * project is the old one or carries a committed journal (which the next generate finishes), never
 * a mix; the next generate then writes exactly what a clean run writes, and leaves no temp file.
 *
 * Runs alternate between two manifests: A → B rewrites generated files, creates 20 handler stubs
 * and deletes stale generated files; B → A rewrites again. Kills land at a random time in the run,
 * a random time after the staging folder appears (staging, switch, stamp), or (half of them) just
 * after the journal appears, in the switch. A fixed seed; MCPGEN_KILL_RUNS=160 for a longer run.
 * Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BIN as bin,
  differences,
  HEADER as H,
  mcpgen,
  snapshot,
  temps,
  toolsManifest as manifest,
} from './helpers/tree.js';

const RUNS = Number(process.env.MCPGEN_KILL_RUNS ?? 20);

const same = (a: Map<string, string>, b: Map<string, string>) => differences(a, b).length === 0;

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-kill-'));
const env = { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '', MCPGEN_CACHE_DIR: path.join(work, 'cache') };

const generate = (dir: string, args: string[] = []) => mcpgen(dir, ['generate', '-q', ...args], env);

type KillPoint = { at: 'start' | 'staging'; delay: number } | { at: 'journal'; spinMs: number };

/**
 * A generate killed `delay` ms after it starts or after its staging folder appears, or right after
 * its journal appears (found by polling in a tight loop: the switch lasts a few milliseconds).
 */
function killedGenerate(dir: string, point: KillPoint): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'generate', '-q'], { cwd: dir, env, stdio: 'ignore' });
    const staging = path.join(dir, '.mcpgen-staging');
    let watcher: fs.FSWatcher | undefined;
    const onStaging = () => {
      if (point.at !== 'journal') return void setTimeout(() => child.kill('SIGKILL'), point.delay);
      const deadline = performance.now() + 2000;
      while (
        !fs.existsSync(path.join(staging, 'journal.json')) &&
        fs.existsSync(staging) &&
        performance.now() < deadline
      );
      const until = performance.now() + point.spinMs;
      while (performance.now() < until);
      child.kill('SIGKILL');
    };
    if (point.at === 'start') setTimeout(() => child.kill('SIGKILL'), point.delay);
    else {
      watcher = fs.watch(dir, (_e, name) => {
        if (name !== '.mcpgen-staging' || !watcher) return;
        watcher.close();
        watcher = undefined;
        onStaging();
      });
    }
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(guard);
      watcher?.close();
      resolve();
    });
  });
}

/** ms between the staging folder of a (not killed) generate appearing and going. */
function stagingLifetime(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const seen: number[] = [];
    const w = fs.watch(dir, (_e, name) => {
      if (name === '.mcpgen-staging') seen.push(performance.now());
    });
    const child = spawn(process.execPath, [bin, 'generate', '-q'], { cwd: dir, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => {
      w.close();
      if (code !== 0 || seen.length < 2) reject(new Error(`generate exited ${code}, staging events ${seen.length}`));
      else resolve(seen.at(-1)! - seen[0]!);
    });
  });
}

describe('generate killed at random points', () => {
  const fresh = path.join(work, 'fresh-a');
  const project = path.join(work, 'project');
  let afterB: Map<string, string>;
  let afterBA: Map<string, string>;
  let freshA: Map<string, string>;
  /** How long a full A → B generate takes, from the staging folder appearing to exit (ms). */
  let window = 60;
  let total = 600;

  beforeAll(async () => {
    fs.mkdirSync(fresh);
    fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), manifest('A'));
    expect(generate(fresh).code).toBe(0);
    // Stale generated files (with the header): A → B deletes them in the same switch.
    for (let i = 0; i < 3; i++)
      fs.writeFileSync(path.join(fresh, `src/generated/stale_${i}.ts`), `${H}export const stale = ${i};\n`);
    freshA = snapshot(fresh);
    const ref = path.join(work, 'reference');
    fs.cpSync(fresh, ref, { recursive: true });
    fs.writeFileSync(path.join(ref, 'mcpgen.yaml'), manifest('B'));
    const t0 = performance.now();
    expect(generate(ref).code).toBe(0);
    total = performance.now() - t0;
    afterB = snapshot(ref);
    fs.writeFileSync(path.join(ref, 'mcpgen.yaml'), manifest('A'));
    expect(generate(ref).code).toBe(0);
    afterBA = snapshot(ref);
    expect(same(afterB, freshA)).toBe(false);
    expect(same(afterB, afterBA)).toBe(false);
    expect([...afterB.keys()].filter((k) => k.startsWith('src/generated/stale_'))).toEqual([]);
    // The write window: a real A → B run, from its staging folder appearing to its going.
    fs.cpSync(fresh, project, { recursive: true });
    fs.writeFileSync(path.join(project, 'mcpgen.yaml'), manifest('B'));
    window = await stagingLifetime(project);
    fs.rmSync(project, { recursive: true, force: true });
  }, 120_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test(
    `${RUNS} kills: old project or a journal, then exactly the new project and no temp`,
    async () => {
      const random = mulberry32(20240917);
      const outcomes = { old: 0, journal: 0, new: 0 };
      let checked = 0;
      for (let i = 0; i < RUNS; i++) {
        const toB = i % 2 === 0;
        if (toB) {
          fs.rmSync(project, { recursive: true, force: true });
          fs.cpSync(fresh, project, { recursive: true });
        }
        const [before, target] = toB ? [freshA, afterB] : [afterB, afterBA];
        fs.writeFileSync(path.join(project, 'mcpgen.yaml'), manifest(toB ? 'B' : 'A'));
        const r = random();
        const point: KillPoint =
          r < 0.15
            ? { at: 'start', delay: random() * total }
            : r < 0.45
              ? { at: 'staging', delay: random() * window }
              : { at: 'journal', spinMs: random() * 3 };
        await killedGenerate(project, point);

        const journal = fs.existsSync(path.join(project, '.mcpgen-staging/journal.json'));
        const now = snapshot(project);
        const state = journal ? 'journal' : same(now, before) ? 'old' : same(now, target) ? 'new' : 'mixed';
        expect(state, `run ${i}: the project after the kill`).not.toBe('mixed');
        outcomes[state as keyof typeof outcomes]++;
        if (journal && checked < 2) {
          // Read-only commands report the half-switched project instead of comparing against it.
          checked++;
          const check = generate(project, ['--check']);
          expect(check.code).toBe(1);
          expect(check.stderr).toMatch(
            /^\.mcpgen-staging: error MCPG912 an interrupted mcpgen generate left this project between two versions/m,
          );
          expect(same(snapshot(project), now)).toBe(true);
        }

        const again = generate(project);
        expect(again.stderr, `run ${i}`).not.toMatch(/internal error|error MCPG/);
        expect(again.code, `run ${i}`).toBe(0);
        const after = snapshot(project);
        expect(differences(after, target), `run ${i} (${state}): files that differ from a clean generate`).toEqual([]);
        expect(temps(project), `run ${i}`).toEqual([]);
      }
      if (process.env.MCPGEN_KILL_RUNS)
        console.log(`kills: ${JSON.stringify(outcomes)}, window ${Math.round(window)} ms of ${Math.round(total)} ms`);
      // The kills must have landed inside the writes, not only before or after them.
      expect(outcomes.journal, JSON.stringify(outcomes)).toBeGreaterThan(0);
      expect(outcomes.old, JSON.stringify(outcomes)).toBeGreaterThan(0);
    },
    Math.max(240_000, RUNS * 8000),
  );
});
