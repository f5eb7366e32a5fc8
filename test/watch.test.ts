/**
 * `mcpgen watch` as a real process: regenerates on manifest and referenced-file changes, survives
 * a broken manifest, and stops cleanly on Ctrl-C (SIGINT).
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

it('sees a referenced file deleted and created again, and files and view folders named before they exist', async () => {
  const dir = scratch('watch-recreate');
  const guide = path.join(dir, 'docs dir', 'ünï guide.md');
  mkdirSync(path.dirname(guide));
  writeFileSync(guide, '# one\n');
  const manifest = path.join(dir, 'mcpgen.yaml');
  const base = `version: 1
server: { name: my-server, version: 0.1.0 }
resources:
  guide: { uri: 'doc://guide', mimeType: text/markdown, file: ./docs dir/ünï guide.md }
`;
  writeFileSync(manifest, base);
  const content = () => readFileSync(path.join(dir, 'src/generated/content.ts'), 'utf8');
  const watch = startCli(['watch', '-q'], dir);
  const { waitFor } = watch;
  try {
    await waitFor(/watching mcpgen\.yaml and 1 referenced file/, 0);

    // A git checkout: the file goes, then comes back, then is edited.
    let errMark = watch.err().length;
    rmSync(guide);
    await waitFor(/MCPG240 file `\.\/docs dir\/ünï guide\.md` does not exist/, errMark, 'err');
    let mark = watch.out().length;
    writeFileSync(guide, '# two\n');
    await waitFor(/regenerated in [\s\S]*watching/, mark);
    expect(content()).toContain('# two');
    mark = watch.out().length;
    writeFileSync(guide, '# three\n');
    await waitFor(/regenerated in [\s\S]*watching/, mark);
    expect(content()).toContain('# three');

    // Named before they exist, in folders that do not exist yet.
    errMark = watch.err().length;
    writeFileSync(
      manifest,
      `${base}  later: { uri: 'doc://later', mimeType: text/plain, file: ./later/new.md }
  view: { uri: 'ui://my-server/view', build: ./ui/view }
`,
    );
    await waitFor(/MCPG240[\s\S]*MCPG286[\s\S]*nothing was written/, errMark, 'err');
    mark = watch.out().length;
    mkdirSync(path.join(dir, 'later'));
    writeFileSync(path.join(dir, 'later/new.md'), 'later\n');
    await waitFor(/watching mcpgen\.yaml, 2 referenced file\(s\) and 1 view folder/, mark);
    mark = watch.out().length;
    mkdirSync(path.join(dir, 'ui/view'), { recursive: true });
    writeFileSync(path.join(dir, 'ui/view/index.html'), '<p>view</p>\n');
    await waitFor(/regenerated in [\s\S]*watching/, mark);
    expect(content()).toContain('later\\n');
  } finally {
    expect(await watch.stop('SIGINT')).toBe(0);
  }
});
