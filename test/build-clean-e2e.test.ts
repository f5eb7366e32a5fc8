/**
 * A generated project's build leaves nothing of a removed source behind: `npm run build` starts
 * from an empty dist (so `npm test`, which runs what dist/test holds, no longer runs a deleted
 * test), and `mcpgen dev`'s incremental rebuild removes what a deleted handler or test compiled
 * to. A real project in .tmp/e2e, built by its own scripts and by the dev loop's build().
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { build, findTsc } from '../cli/dev/build.js';
import { memoryIO, run, scratch } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: build-clean, version: 1.0.0 }
transports: { stdio: {} }
tools:
  keep: { description: Stays }
  drop: { description: Goes away }
`;

/** Every file under dist/ whose path names `what`. */
function traces(dir: string, what: string): string[] {
  const dist = path.join(dir, 'dist');
  if (!existsSync(dist)) return [];
  return (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.includes(what));
}

async function generateProject(name: string, manifest = MANIFEST): Promise<string> {
  const dir = scratch(name);
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  return dir;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('npm run build starts from an empty dist', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await generateProject('build-clean-npm');
  });

  it('a deleted handler test leaves no trace in dist and npm test does not run it', async () => {
    const first = await run(npm, ['test'], dir, 240_000);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(traces(dir, 'drop.test')).toEqual(
      ['test/handlers/tools/drop.test.js', 'test/handlers/tools/drop.test.js.map'].map((f) => path.normalize(f)),
    );

    expect(first.stdout).toMatch(/drop handler/);

    rmSync(path.join(dir, 'test/handlers/tools/drop.test.ts'));
    const second = await run(npm, ['test'], dir, 240_000);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(traces(dir, 'drop.test')).toEqual([]);
    // The stub's tests ran the first time, not the second; the contract tests (which still reach
    // the tool, only its test file is gone) and keep's ran both times.
    const count = (out: string) => Number(/^[#ℹ] tests (\d+)$/m.exec(out)?.[1]);
    expect(count(second.stdout)).toBeGreaterThan(0);
    expect(count(second.stdout)).toBeLessThan(count(first.stdout));
    expect(second.stdout).toMatch(/^[#ℹ] fail 0$/m);
    expect(second.stdout).not.toMatch(/drop handler/);
  });
});

describe('mcpgen dev’s incremental build removes what a removed source compiled to', () => {
  it('a handler removed with its tool, and its test, are gone from dist after the rebuild', async () => {
    const dir = await generateProject('build-clean-dev');
    const tsc = findTsc(dir)!;
    const first = await build(dir, tsc, () => {});
    expect(first.ok, first.output).toBe(true);
    expect(traces(dir, 'drop').sort()).toEqual(
      [
        'src/handlers/tools/drop.js',
        'src/handlers/tools/drop.js.map',
        'test/handlers/tools/drop.test.js',
        'test/handlers/tools/drop.test.js.map',
      ].map((f) => path.normalize(f)),
    );
    // Something of the user's in dist/ that tsc did not emit stays.
    writeFileSync(path.join(dir, 'dist/src/handlers/tools/notes.txt'), 'mine');

    // The tool leaves the manifest; its handler and test are the user's to delete.
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('  drop: { description: Goes away }\n', ''));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    rmSync(path.join(dir, 'src/handlers/tools/drop.ts'));
    rmSync(path.join(dir, 'test/handlers/tools/drop.test.ts'));

    const second = await build(dir, tsc, () => {});
    expect(second.ok, second.output).toBe(true);
    expect(traces(dir, 'drop')).toEqual([]);
    expect(existsSync(path.join(dir, 'dist/src/handlers/tools/keep.js'))).toBe(true);
    expect(existsSync(path.join(dir, 'dist/src/handlers/tools/notes.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'dist/test/handlers/tools/keep.test.js'))).toBe(true);
  });
});
