/**
 * The built command (bin/mcpgen.js → dist, where the validate command is one bundled module, see
 * scripts/bundle-commands.mjs) prints exactly the golden output of every test/cases/invalid-* case,
 * as the in-process runs of validate-cases.test.ts do. Needs `npm run build` (npm test runs it).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ValidateOptions } from '../cli/commands/validate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = path.join(root, 'test/cases');
const bin = path.join(root, 'bin/mcpgen.js');

function run(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      // Paths of --format github are from the repository root: the checkout's `.git`, not a CI
      // runner's GITHUB_WORKSPACE, which may be a folder above it.
      { cwd, env: { ...process.env, NO_COLOR: '1', GITHUB_WORKSPACE: '' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function argsOf(o: ValidateOptions): string[] {
  return [
    ...(o.file !== undefined ? ['-f', o.file] : []),
    ...(o.format !== undefined ? ['--format', o.format] : []),
    ...(o.rule ?? []).flatMap((r) => ['--rule', r]),
    ...(o.maxWarnings !== undefined ? ['--max-warnings', String(o.maxWarnings)] : []),
  ];
}

const cases = fs
  .readdirSync(casesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name.startsWith('invalid-'))
  .map((d) => d.name)
  .sort();

describe('built validate command', () => {
  test('dist is built', () => expect(fs.existsSync(path.join(root, 'dist/commands/validate.js'))).toBe(true));

  test('prints the golden output of every invalid case', async () => {
    const read = (dir: string, f: string): string | undefined =>
      fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : undefined;
    // A few at a time: each is a process.
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async (name) => {
          const dir = path.join(casesDir, name);
          const opts = (read(dir, 'args.json') ? JSON.parse(read(dir, 'args.json')!) : {}) as ValidateOptions;
          const { code, stdout, stderr } = await run(dir, ['validate', ...argsOf(opts)]);
          expect(stderr, name).toBe(read(dir, 'stderr.txt'));
          expect(stdout, name).toBe(read(dir, 'stdout.txt') ?? '');
          expect(`${code}\n`, name).toBe(read(dir, 'exit.txt'));
        }),
      );
    }
  }, 300_000);
});
