/**
 * MCPG245/MCPG246: content too large to embed in generated code is reported by validate (and so
 * stops generate) from the file's size alone: a sparse 5 GiB file is never read. The files are
 * made here (sparse, so they take no disk space), not committed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { loadManifest } from '../cli/load/index.js';
import { MAX_EMBEDDED_FILE_BYTES, MAX_EMBEDDED_TOTAL_BYTES } from '../cli/validate/checks/files.js';
import { validateManifest } from '../cli/validate/validate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/mcpgen.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-embed-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const HEAD = 'version: 1\nserver:\n  name: big\n  version: 1.0.0\ntransports:\n  stdio: {}\n';

let n = 0;
/** A project folder with the manifest and sparse files of the given sizes. */
function project(manifest: string, files: Record<string, number>): string {
  const dir = path.join(tmp, `p${n++}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
  for (const [name, size] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), '');
    fs.truncateSync(path.join(dir, name), size);
  }
  return dir;
}

function validate(dir: string) {
  const { manifest, diagnostics } = loadManifest(path.join(dir, 'mcpgen.yaml'), 'mcpgen.yaml');
  expect(diagnostics).toEqual([]);
  return validateManifest(manifest!).filter((d) => d.severity === 'error');
}

const run = (cwd: string, args: string[]) =>
  new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 },
      (err, _o, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }),
    );
  });

describe('embedded content limits', () => {
  test('a 5 GiB file: validate and generate (built bin) stop fast with MCPG245 at its `file:`, reading nothing', async () => {
    const dir = project(
      `${HEAD}resources:\n  dump:\n    uri: big://dump\n    mimeType: application/octet-stream\n    file: dump.bin\n`,
      { 'dump.bin': 5 * 1024 * MiB },
    );
    for (const args of [['validate'], ['generate']]) {
      const t = performance.now();
      const r = await run(dir, args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        'mcpgen.yaml:11:11: error MCPG245 file `dump.bin` is 5 GiB; embedded files are limited to 4 MiB',
      );
      expect(r.stderr).toContain('hint: serve it from a dynamic resource: remove `file:`');
      expect(r.stderr).not.toMatch(/internal error|RangeError/);
      expect(performance.now() - t).toBeLessThan(10_000);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['dump.bin', 'mcpgen.yaml']);
  });

  test('`encoding: text` on a huge file: the size is reported, the file is not read to check its text', () => {
    const line = '  log: { uri: big://log, file: app.log, encoding: text }';
    const dir = project(`${HEAD}resources:\n${line}\n`, { 'app.log': 3 * 1024 * MiB });
    expect(validate(dir).map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      `8:${line.indexOf('app.log') + 1} MCPG245`,
    ]);
  });

  test('exactly the limit is fine; a byte more is not; prompt media get the prompt handler hint', () => {
    const message = '      - { role: user, image: { mimeType: image/png, file: b.png } }';
    const manifest = `${HEAD}resources:\n  a: { uri: big://a, file: a.bin }\nprompts:\n  show:\n    messages:\n${message}\n`;
    const ok = project(manifest, { 'a.bin': MAX_EMBEDDED_FILE_BYTES, 'b.png': 10 });
    expect(validate(ok)).toEqual([]);
    const bad = project(manifest, { 'a.bin': MAX_EMBEDDED_FILE_BYTES, 'b.png': MAX_EMBEDDED_FILE_BYTES + 1 });
    const found = validate(bad);
    expect(found.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      `12:${message.indexOf('b.png') + 1} MCPG245 file \`b.png\` is 4.1 MiB; embedded files are limited to 4 MiB`,
    ]);
    expect(found[0]!.hint).toMatch(/no `messages:`/);
  });

  test('the total over files and inline text: one MCPG246, where it is passed', () => {
    const count = Math.floor(MAX_EMBEDDED_TOTAL_BYTES / (3 * MiB)); // 5 files of 3 MiB: 15 MiB
    const files = Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}.bin`, 3 * MiB]));
    const resources = Array.from({ length: count }, (_, i) => `  f${i}: { uri: big://f${i}, file: f${i}.bin }\n`).join(
      '',
    );
    const text = 'x'.repeat(MAX_EMBEDDED_TOTAL_BYTES - count * 3 * MiB); // exactly the rest
    const manifest = (extra: string) =>
      `${HEAD}resources:\n  inline: { uri: big://inline, text: ${text}${extra} }\n${resources}`;
    const atLimit = validate(project(manifest(''), files)).filter((d) => d.code.startsWith('MCPG24'));
    expect(atLimit).toEqual([]);
    const over = validate(project(manifest('y'), files)).filter((d) => d.code.startsWith('MCPG24'));
    // The inline text counts first (it is in the manifest), then the files in order: the last one passes the limit.
    expect(over.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      `${8 + count}:${`  f${count - 1}: { uri: big://f${count - 1}, file: `.length + 1} MCPG246 embedded content passes 16 MiB here (16.1 MiB so far); the generated server carries all of it in its code`,
    ]);
  });
});

describe('inline text limits (MCPG247)', () => {
  const big = (bytes: number) => 'word '.repeat(Math.ceil(bytes / 5)).slice(0, bytes);

  test('a description past 256 KiB is refused at its position; generate writes nothing', async () => {
    const dir = project(`${HEAD}tools:\n  t:\n    description: "${big(10 * MiB - 200)}"\n`, {});
    const errors = validate(dir);
    expect(errors.map((d) => [d.code, d.line, d.column])).toEqual([['MCPG247', 9, 18]]);
    expect(errors[0]!.message).toBe('this text is 10 MiB; at most 256 KiB inline');
    const t = performance.now();
    const r = await run(dir, ['generate']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('mcpgen.yaml:9:18: error MCPG247 this text is 10 MiB; at most 256 KiB inline');
    expect(performance.now() - t).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(dir, 'src'))).toBe(false);
  });

  test('inline content is capped as a file is: 4 MiB of `text:` passes, a byte more does not', () => {
    const at = (bytes: number) => project(`${HEAD}resources:\n  r:\n    uri: big://r\n    text: "${big(bytes)}"\n`, {});
    expect(validate(at(MAX_EMBEDDED_FILE_BYTES))).toEqual([]);
    const errors = validate(at(MAX_EMBEDDED_FILE_BYTES + 1));
    expect(errors.map((d) => [d.code, d.message])).toEqual([
      ['MCPG247', 'this content is 4.1 MiB; at most 4 MiB inline'],
    ]);
  });

  test('text just under the cap passes', () => {
    expect(validate(project(`${HEAD}tools:\n  t:\n    description: "${big(256 * 1024)}"\n`, {}))).toEqual([]);
  });
});
