/**
 * The built command (bin/mcpgen.js → dist, where the validate command is one bundled module, see
 * scripts/bundle-commands.mjs) prints exactly the golden output of every test/cases/invalid-* case,
 * as the in-process runs of validate-cases.test.ts do, and exits with its own code when its reader
 * stops early. Needs `npm run build` (npm test runs it).
 */
import { execFile, spawn } from 'node:child_process';
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

describe('a reader that stops early', () => {
  // `mcpgen validate 2>&1 | head` in a job run with pipefail: the exit code is validate's own.
  test('stdout and stderr closed: the exit code is what the manifest earns', async () => {
    const dir = path.join(root, '.tmp/validate-bin-epipe');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const tools = Array.from({ length: 500 }, (_, i) => `  t${i}: { description: x }\n`).join('');
    const head = 'version: 1\nserver: { name: many, version: 0.1.0 }\ntools:\n';
    fs.writeFileSync(path.join(dir, 'warnings.yaml'), head + tools);
    fs.writeFileSync(path.join(dir, 'errors.yaml'), `${head}${tools}  bad!: { description: x }\n`);
    const closed = (args: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [bin, 'validate', ...args], {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout.destroy();
        child.stderr.destroy();
        child.on('close', resolve);
      });
    expect(await closed(['-f', 'warnings.yaml'])).toBe(0);
    expect(await closed(['-f', 'warnings.yaml', '--format', 'github'])).toBe(0);
    expect(await closed(['-f', 'errors.yaml'])).toBe(1);
  });
});

describe('colours', () => {
  // `script` runs the command in a terminal and copies what the terminal shows to its stdout.
  test('follow stderr, where the report goes: none in a file stderr is sent to, with stdout on the terminal', async () => {
    const dir = path.join(root, '.tmp/validate-bin-colour');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      'version: 1\nserver: { name: c, version: 0.1.0 }\ntools:\n  t: { description: x }\n',
    );
    const env = { ...process.env };
    delete env.NO_COLOR;
    const inTerminal = (command: string) =>
      new Promise<string>((resolve) => {
        execFile('script', ['-qec', command, '/dev/null'], { cwd: dir, env }, (_err, stdout) => resolve(stdout));
      });
    const validate = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} validate`;
    expect(await inTerminal(validate)).toContain('\x1b[33mwarning');
    await inTerminal(`${validate} 2>report.txt`);
    const report = fs.readFileSync(path.join(dir, 'report.txt'), 'utf8');
    expect(report).toContain('warning MCPG302');
    expect(report).not.toContain('\x1b[');
  });
});
