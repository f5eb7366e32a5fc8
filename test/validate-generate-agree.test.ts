/**
 * `mcpgen validate` in CI promises that a manifest it accepts generates, and that one it rejects
 * does not: over every manifest in the repository (golden cases valid and invalid, examples,
 * fixtures), validate and generate agree on whether there are errors, and every error generate
 * reports is one validate reports, at the same place. Warnings agree too when generate gets as far
 * as lint.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { validateCommand } from '../cli/commands/validate.js';
import type { Diagnostic } from '../cli/diagnostics.js';
import { generate } from '../cli/generate.js';
import type { CliIO } from '../cli/io.js';

const root = path.resolve(import.meta.dirname, '..');

function manifests(): { name: string; dir: string; file: string }[] {
  const out: { name: string; dir: string; file: string }[] = [];
  const scan = (base: string) => {
    if (!fs.existsSync(base)) return;
    for (const d of fs.readdirSync(base, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const dir = path.join(base, d.name);
      const argsFile = path.join(dir, 'args.json');
      const args = fs.existsSync(argsFile) ? (JSON.parse(fs.readFileSync(argsFile, 'utf8')) as { file?: string }) : {};
      const file = path.join(dir, args.file ?? 'mcpgen.yaml');
      // A case whose manifest is missing or a folder is about the path, not the manifest.
      if (fs.existsSync(file) && fs.statSync(file).isFile()) out.push({ name: path.relative(root, dir), dir, file });
    }
  };
  for (const base of ['test/cases', 'examples', 'test/fixtures/valid', 'test/real-world']) scan(path.join(root, base));
  return out;
}

async function validateJson(dir: string, file: string): Promise<Diagnostic[]> {
  let stdout = '';
  const io: CliIO = { cwd: dir, stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false, env: {} };
  await validateCommand({ file: path.relative(dir, file), format: 'json' }, io);
  return JSON.parse(stdout) as Diagnostic[];
}

const key = (d: { code: string; severity: string; line: number; column: number; message: string }) =>
  `${d.severity} ${d.line}:${d.column} ${d.code} ${d.message}`;

describe('validate and generate agree', () => {
  const all = manifests();
  test('the corpus is the whole repository', () => expect(all.length).toBeGreaterThan(60));
  test.each(all.map((m) => [m.name, m] as const))('%s', async (_name, m) => {
    const validated = (await validateJson(m.dir, m.file)).map(key).sort();
    const result = await generate({
      manifest: m.file,
      outDir: m.dir,
      displayPath: path.relative(m.dir, m.file),
      generatorVersion: null,
    });
    const generated = result.diagnostics.map(key).sort();
    const errors = (ks: string[]) => ks.filter((k) => k.startsWith('error '));
    expect(errors(generated).length > 0).toBe(errors(validated).length > 0);
    expect(errors(generated).filter((k) => !validated.includes(k))).toEqual([]);
    if (errors(generated).length === 0 && result.warningsNotListed === undefined) expect(generated).toEqual(validated);
  });
});
