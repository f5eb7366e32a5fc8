/**
 * Golden cases: each test/cases/invalid-<name>/ holds an mcpgen.yaml (and the files it
 * references), the exact stderr of `mcpgen validate` run in that folder, and its exit code. An optional
 * args.json gives the command's options (e.g. {"file": "other.yaml"}, {"rule": ["max-tools=error"]},
 * {"format": "json"}: then stdout.txt holds the report). `vitest -u` rewrites the expectations;
 * review the diff like code. A case must fail (exit 1/2) or at least warn: lint cases (invalid-lint-*)
 * exit 0 with warnings.
 *
 * Below them: every valid manifest in the repo (examples, generation cases, test/fixtures/valid)
 * must validate without errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validateCommand, type ValidateOptions } from '../cli/commands/validate.js';
import { hasErrors } from '../cli/diagnostics.js';
import type { CliIO } from '../cli/io.js';
import { loadManifest } from '../cli/load/load.js';
import { validateManifest } from '../cli/validate/validate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = path.join(root, 'test/cases');

function subdirs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

async function runValidate(
  cwd: string,
  opts: ValidateOptions,
): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const io: CliIO = {
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    env: {},
  };
  const code = await validateCommand(opts, io);
  return { code, stderr, stdout };
}

describe('invalid manifests (golden)', () => {
  const cases = subdirs(casesDir).filter((n) => n.startsWith('invalid-'));
  test('there are at least 50 broken manifests', () => expect(cases.length).toBeGreaterThanOrEqual(50));
  test.each(cases)('%s', async (name) => {
    const dir = path.join(casesDir, name);
    const argsFile = path.join(dir, 'args.json');
    const opts = fs.existsSync(argsFile) ? (JSON.parse(fs.readFileSync(argsFile, 'utf8')) as ValidateOptions) : {};
    const { code, stderr, stdout } = await runValidate(dir, opts);
    if ((opts.format ?? 'stylish') === 'stylish') expect(stdout).toBe('');
    else await expect(stdout).toMatchFileSnapshot(path.join(dir, 'stdout.txt'));
    await expect(stderr).toMatchFileSnapshot(path.join(dir, 'stderr.txt'));
    await expect(`${code}\n`).toMatchFileSnapshot(path.join(dir, 'exit.txt'));
    // An invalid-* case that passes silently has lost its point.
    expect(code !== 0 || /: warning MCPG/.test(stderr + stdout) || /"severity": "warning"/.test(stdout)).toBe(true);
  });
});

describe('valid manifests', () => {
  const manifests = [
    ...subdirs(path.join(root, 'examples')).map((n) => path.join(root, 'examples', n, 'mcpgen.yaml')),
    ...subdirs(casesDir)
      .filter((n) => !n.startsWith('invalid-'))
      .map((n) => path.join(casesDir, n, 'mcpgen.yaml')),
    ...subdirs(path.join(root, 'test/fixtures/valid')).map((n) =>
      path.join(root, 'test/fixtures/valid', n, 'mcpgen.yaml'),
    ),
  ].filter((f) => fs.existsSync(f));
  const rel = (f: string): string => path.relative(root, f).split(path.sep).join('/');

  test.each(manifests.map(rel))('%s has no errors', (file) => {
    const { manifest, diagnostics } = loadManifest(path.join(root, file), file);
    const all = manifest ? [...diagnostics, ...validateManifest(manifest)] : diagnostics;
    expect(manifest).toBeDefined();
    expect(all.filter((d) => d.severity === 'error')).toEqual([]);
    expect(hasErrors(all)).toBe(false);
  });

  // The weather fixture's `Region` is recursive on purpose, which is worth its MCPG207 warning.
  const expectedWarnings: Record<string, number> = { weather: 1 };
  test.each(subdirs(path.join(root, 'test/fixtures/valid')))(
    'fixture %s is clean (no warnings either)',
    async (name) => {
      const { code, stderr } = await runValidate(path.join(root, 'test/fixtures/valid', name), {});
      const n = expectedWarnings[name] ?? 0;
      expect(
        stderr.endsWith(
          n ? `✔ mcpgen.yaml is valid (${n} warning${n === 1 ? '' : 's'})\n` : '✔ mcpgen.yaml is valid\n',
        ),
      ).toBe(true);
      expect(stderr.split('\n').filter((l) => / warning MCPG/.test(l) && !l.includes('MCPG207'))).toEqual([]);
      expect(code).toBe(0);
    },
  );
});
