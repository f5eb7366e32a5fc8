/**
 * The built command (bin/mcpgen.js → dist, where generate is bundled into a few chunks, see
 * scripts/bundle-commands.mjs) writes exactly the golden tree of every test/cases/ case, as the
 * in-process runs of generate-cases.test.ts produce it: the bundle finds its templates and
 * precompiled templates as the modules tsc wrote do. It runs from a copy of the package without
 * prettier: generated files are printed in mcpgen's own layout, and only `options.format: prettier`
 * uses one, the project's. Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = path.join(root, 'test/cases');
const bin = path.join(root, 'bin/mcpgen.js');

function run(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  command = bin,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [command, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function listTree(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return r === 'node_modules' ? [] : listTree(dir, r);
    return [r];
  });
}

const cases = fs
  .readdirSync(casesDir, { withFileTypes: true })
  .filter(
    (d) =>
      d.isDirectory() && !d.name.startsWith('invalid-') && fs.existsSync(path.join(casesDir, d.name, 'mcpgen.yaml')),
  )
  .map((d) => d.name)
  .sort();

/** Copies the built package (what npm would install) into `pkg`, timestamps kept. */
function copyPackage(pkg: string): void {
  for (const d of ['bin', 'dist', 'templates', 'schemas', 'package.json'])
    fs.cpSync(path.join(root, d), path.join(pkg, d), { recursive: true, preserveTimestamps: true });
}

/** A copy of the built package whose node_modules links every dependency but prettier. */
function packageWithoutFormatter(): string {
  const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-no-formatter-'));
  copyPackage(pkg);
  const modules = path.join(pkg, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (name !== 'prettier') fs.symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  return pkg;
}

describe('built generate command', () => {
  let pkg: string;
  beforeAll(() => {
    pkg = packageWithoutFormatter();
  });
  afterAll(() => fs.rmSync(pkg, { recursive: true, force: true }));

  test('the package copy has no prettier formatter to load', async () => {
    const probe = `import('prettier').then(() => console.log('loaded'), (e) => console.log(e.code))`;
    const out = await new Promise<string>((resolve) =>
      execFile(process.execPath, ['--input-type=module', '-e', probe], { cwd: path.join(pkg, 'bin') }, (_e, stdout) =>
        resolve(stdout.trim()),
      ),
    );
    expect(out).toBe('ERR_MODULE_NOT_FOUND');
  });

  test('dist holds the bundled command', () => {
    expect(fs.readFileSync(path.join(root, 'dist/commands/generate.js'), 'utf8')).toMatch(/^\/\/ Bundled/);
  });

  test.each(cases)(
    'writes the golden tree of %s',
    async (name) => {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), `mcpgen-bin-${name}-`));
      try {
        const src = path.join(casesDir, name);
        // The case without its expected tree: the manifest and the files it references.
        for (const f of fs.readdirSync(src))
          if (f !== 'expected') fs.cpSync(path.join(src, f), path.join(work, f), { recursive: true });
        const { code, stderr } = await run(
          work,
          ['generate', '-q', '--no-header-version'],
          { MCPGEN_TIMINGS: '1' },
          path.join(pkg, 'bin/mcpgen.js'),
        );
        expect(
          stderr.split('\n').filter((l) => l.includes('error')),
          name,
        ).toEqual([]);
        expect(code, name).toBe(0);
        // MCPGEN_TIMINGS lists the stages, then the build's generated files one by one.
        expect(stderr, name).toMatch(/^ {2}render +\d+ ms/m);
        expect(stderr, name).toMatch(/^ {4}src\/generated\/\S+\.ts +\d+ ms$/m);
        const expectedDir = path.join(src, 'expected');
        const inputs = new Set(fs.readdirSync(src).filter((f) => f !== 'expected'));
        // What the case brings (the manifest, the files and folders it references) is not output.
        const written = listTree(work)
          .filter((p) => !inputs.has(p.split('/')[0]!))
          .sort();
        expect(written, name).toEqual(listTree(expectedDir).sort());
        // package.json names the runtime and mcpgen from where this mcpgen runs (here: its copy in a temp folder).
        const located = (p: string, text: string) =>
          p === 'package.json' ? text.replace(/"file:[^"]*"/g, '"file:…"') : text;
        for (const p of written) {
          expect(located(p, fs.readFileSync(path.join(work, p), 'utf8')), `${name}: ${p}`).toBe(
            located(p, fs.readFileSync(path.join(expectedDir, p), 'utf8')),
          );
        }
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('the built generator id (dist/generator-id, scripts/generator-id.mjs)', () => {
  test('a stamp trusts it: the same id answers from the stamp, another one regenerates', async () => {
    const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-id-pkg-'));
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-id-work-'));
    try {
      // A copy of the built package, so its id can change without touching the real dist.
      copyPackage(pkg);
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(pkg, 'node_modules'));
      const id = fs.readFileSync(path.join(pkg, 'dist/generator-id'), 'utf8').trim();
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      fs.cpSync(path.join(casesDir, 'minimal', 'mcpgen.yaml'), path.join(work, 'mcpgen.yaml'));
      const gen = () =>
        new Promise<{ code: number; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [path.join(pkg, 'bin/mcpgen.js'), 'generate'],
            { cwd: work, env: { ...process.env, NO_COLOR: '1', MCPGEN_TIMINGS: '1' } },
            (err, _out, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
          );
        });
      const stamp = () =>
        JSON.parse(fs.readFileSync(path.join(work, 'node_modules/.cache/mcpgen/stamp.json'), 'utf8')) as {
          generator: string;
        };
      expect((await gen()).code).toBe(0);
      expect(stamp().generator).toMatch(new RegExp(`\\+${id}\\+[0-9a-f]{16}$`));
      // Nothing changed: answered from the stamp, nothing loaded (no load stage in the timings).
      const again = await gen();
      expect(again.code).toBe(0);
      expect(again.stderr).not.toMatch(/^ {2}load /m);
      // A rebuild that changed the generator: the full path runs and the stamp takes the new id.
      fs.writeFileSync(path.join(pkg, 'dist/generator-id'), '0123456789abcdef\n');
      const rebuilt = await gen();
      expect(rebuilt.code).toBe(0);
      expect(rebuilt.stderr).toMatch(/^ {2}load /m);
      expect(stamp().generator).toMatch(/\+0123456789abcdef\+/);
      expect((await gen()).stderr).not.toMatch(/^ {2}load /m);
      // A template edited after the build (compiled from source at run time): the full path.
      const later = new Date(Date.now() + 60_000);
      const template = fs
        .readdirSync(path.join(pkg, 'templates/src'), { recursive: true, encoding: 'utf8' })
        .find((f) => f.endsWith('.hbs'))!;
      fs.utimesSync(path.join(pkg, 'templates/src', template), later, later);
      expect((await gen()).stderr).toMatch(/^ {2}load /m);
      expect((await gen()).stderr).not.toMatch(/^ {2}load /m);
      // A step of the build that wrote after the id (a bare tsc over dist): the id is not trusted.
      fs.utimesSync(path.join(pkg, 'dist/main.js'), later, later);
      const retyped = await gen();
      expect(retyped.code).toBe(0);
      expect(retyped.stderr).toMatch(/^ {2}load /m);
      expect(stamp().generator).toMatch(/\+sources\+/);
    } finally {
      fs.rmSync(pkg, { recursive: true, force: true });
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  test('an up-to-date generate loads neither node:crypto nor node:perf_hooks', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-fastpath-'));
    try {
      fs.cpSync(path.join(casesDir, 'minimal', 'mcpgen.yaml'), path.join(work, 'mcpgen.yaml'));
      // Prints, at exit, the built-in modules the process loaded.
      const probe = `data:text/javascript,process.on('exit',()=>process.stderr.write('LOADED '+process.moduleLoadList.filter(m=>m.startsWith('NativeModule ')).map(m=>m.slice(13)).join(' ')+'\\n'))`;
      const loaded = () =>
        new Promise<string[]>((resolve) => {
          execFile(
            process.execPath,
            ['--import', probe, bin, 'generate', '-q'],
            { cwd: work, env: { ...process.env, NO_COLOR: '1' } },
            (_err, _out, stderr) => resolve((/^LOADED (.*)$/m.exec(stderr)?.[1] ?? '').split(' ')),
          );
        });
      // The full run loads node:crypto (the probe sees modules loaded late), and leaves a stamp.
      const full = await loaded();
      expect(full).toContain('crypto');
      const noop = await loaded();
      expect(noop.length).toBeGreaterThan(10);
      for (const m of ['crypto', 'perf_hooks']) expect(noop, m).not.toContain(m);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
