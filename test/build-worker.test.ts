/**
 * The build worker (cli/build-thread.ts, build-worker.ts) only runs from dist, so this runs the
 * built command: with the worker forced on (MCPGEN_THREADS=1) and off (=0), every test/cases
 * manifest — valid ones and every broken one — and the examples must give the same exit code,
 * the same messages and the same files, and a broken manifest must leave nothing written.
 * Needs `npm run build` (npm test runs it).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO, SCRATCH } from './helpers/project.js';

const bin = path.join(REPO, 'bin/mcpgen.js');

function run(cwd: string, threads: '0' | '1'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'generate', '-q'], { cwd, env: { ...process.env, NO_COLOR: '1', MCPGEN_THREADS: threads } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Every file under dir (but the local cache) with its text. */
function tree(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === 'node_modules') continue;
      if (e.isDirectory()) walk(r);
      else if (e.isSymbolicLink()) out.push([r, `-> ${readlinkSync(path.join(dir, r))}`]);
      else out.push([r, readFileSync(path.join(dir, r), 'latin1')]);
    }
  };
  walk('');
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** A copy of a case's or example's inputs (no generated output, no node_modules). */
function copyInputs(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from)) {
    if (['expected', 'src', 'test', 'node_modules', 'package.json', 'tsconfig.json', 'exit.txt', 'stderr.txt', 'stdout.txt', 'args.json'].includes(e)) continue;
    cpSync(path.join(from, e), path.join(to, e), { recursive: true, verbatimSymlinks: true });
  }
}

const sources = [
  ...readdirSync(path.join(REPO, 'test/cases'))
    .filter((n) => existsSync(path.join(REPO, 'test/cases', n, 'mcpgen.yaml')))
    .map((n) => path.join(REPO, 'test/cases', n)),
  ...readdirSync(path.join(REPO, 'examples')).map((n) => path.join(REPO, 'examples', n)),
];

describe('build worker', () => {
  test('dist has the worker', () => expect(existsSync(path.join(REPO, 'dist/build-worker.js'))).toBe(true));

  test('the same exit code, messages and files with and without it, for every case and example', async () => {
    expect(sources.length).toBeGreaterThan(50);
    let valid = 0;
    for (let i = 0; i < sources.length; i += 4) {
      await Promise.all(
        sources.slice(i, i + 4).map(async (src) => {
          const name = path.basename(src);
          const dirs = (['0', '1'] as const).map((t) => path.join(SCRATCH, `worker-${t}`, name));
          for (const d of dirs) copyInputs(src, d);
          const before = tree(dirs[0]!);
          const [off, on] = await Promise.all([run(dirs[0]!, '0'), run(dirs[1]!, '1')]);
          expect(on.code, `${name}: ${on.stderr}`).toBe(off.code);
          expect(on.stderr, name).toBe(off.stderr);
          expect(on.stdout, name).toBe(off.stdout);
          expect(on.stderr, name).not.toMatch(/\n\s+at /);
          expect(tree(dirs[1]!), name).toEqual(tree(dirs[0]!));
          if (off.code === 0) valid++;
          else expect(tree(dirs[1]!), `${name}: nothing written`).toEqual(before);
        }),
      );
    }
    expect(valid).toBeGreaterThanOrEqual(5);
  }, 240_000);
});
