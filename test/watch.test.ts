/**
 * `mcpgen watch` as a real process: regenerates on manifest and referenced-file changes, survives
 * a broken manifest, and stops cleanly on Ctrl-C (SIGINT).
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO, scratch } from './helpers/project.js';

it('regenerates on change, keeps going on errors, stops on SIGINT', async () => {
  const dir = scratch('watch');
  for (const f of ['mcpgen.yaml', 'logo.png', 'docs', 'ui'])
    cpSync(path.join(REPO, 'examples/weather', f), path.join(dir, f), { recursive: true });
  const child = spawn(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), 'watch', '-q'], { cwd: dir });
  // Two pipes: what arrives on one is not ordered with what arrives on the other.
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  /** Waits (bounded) until stdout (or stderr) since `from` matches. */
  const waitFor = async (re: RegExp, from: number, stream: 'out' | 'err' = 'out') => {
    for (let i = 0; i < 200; i++) {
      if (re.test((stream === 'out' ? out : err).slice(from))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${re} on std${stream}; stdout:\n${out}\nstderr:\n${err}`);
  };
  try {
    await waitFor(/watching mcpgen\.yaml and 3 referenced file/, 0);
    const manifest = path.join(dir, 'mcpgen.yaml');
    const original = readFileSync(manifest, 'utf8');

    let mark = out.length;
    writeFileSync(manifest, original.replace('Daily forecast for a city', 'Forecast for one city'));
    await waitFor(/ [1-9]\d* updated[\s\S]*watching/, mark);
    expect(out.slice(mark)).toMatch(/\nregenerated in \d+\.\d\d s\n/);
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).toContain(
      'Forecast for one city, up to 7 days ahead',
    );

    mark = out.length;
    writeFileSync(path.join(dir, 'docs/about.md'), '# Changed\n');
    await waitFor(/ [1-9]\d* updated[\s\S]*watching/, mark);
    expect(readFileSync(path.join(dir, 'src/generated/content.ts'), 'utf8')).toContain('# Changed');

    mark = out.length;
    const errMark = err.length;
    writeFileSync(manifest, original.replace('  version: 0.1.0', '  version: [1]'));
    await waitFor(/error MCPG1\d\d[\s\S]*nothing was written/, errMark, 'err');
    await waitFor(/change detected[\s\S]*watching/, mark);
    expect(out.slice(mark)).not.toMatch(/regenerated in/);
    expect(child.exitCode).toBeNull();

    mark = out.length;
    writeFileSync(manifest, original);
    await waitFor(/updated[\s\S]*watching/, mark);
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(out).toContain('stopped watching');
  expect(code).toBe(0);
});
