/**
 * `mcpgen watch` as a real process: regenerates on manifest and referenced-file changes, survives
 * a broken manifest, and stops cleanly on Ctrl-C (SIGINT).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startCli } from './helpers/cli-process.js';
import { REPO, scratch } from './helpers/project.js';

it('regenerates on change, keeps going on errors, stops on SIGINT', async () => {
  const dir = scratch('watch');
  for (const f of ['mcpgen.yaml', 'logo.png', 'docs', 'ui'])
    cpSync(path.join(REPO, 'examples/weather', f), path.join(dir, f), { recursive: true });
  const watch = startCli(['watch', '-q'], dir);
  const { child, waitFor } = watch;
  try {
    await waitFor(/watching mcpgen\.yaml and 3 referenced file/, 0);
    const manifest = path.join(dir, 'mcpgen.yaml');
    const original = readFileSync(manifest, 'utf8');

    let mark = watch.out().length;
    writeFileSync(manifest, original.replace('Daily forecast for a city', 'Forecast for one city'));
    await waitFor(/ [1-9]\d* updated[\s\S]*watching/, mark);
    expect(watch.out().slice(mark)).toMatch(/\nregenerated in \d+\.\d\d s\n/);
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).toContain(
      'Forecast for one city, up to 7 days ahead',
    );

    mark = watch.out().length;
    writeFileSync(path.join(dir, 'docs/about.md'), '# Changed\n');
    await waitFor(/ [1-9]\d* updated[\s\S]*watching/, mark);
    expect(readFileSync(path.join(dir, 'src/generated/content.ts'), 'utf8')).toContain('# Changed');

    mark = watch.out().length;
    const errMark = watch.err().length;
    writeFileSync(manifest, original.replace('  version: 0.1.0', '  version: [1]'));
    await waitFor(/error MCPG1\d\d[\s\S]*nothing was written/, errMark, 'err');
    await waitFor(/change detected[\s\S]*watching/, mark);
    expect(watch.out().slice(mark)).not.toMatch(/regenerated in/);
    expect(child.exitCode).toBeNull();

    mark = watch.out().length;
    writeFileSync(manifest, original);
    await waitFor(/updated[\s\S]*watching/, mark);
  } finally {
    expect(await watch.stop('SIGINT')).toBe(0);
  }
  expect(watch.out()).toContain('stopped watching');
});
