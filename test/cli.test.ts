/**
 * The command line, in-process: exit codes, messages, and the promise that a user's files are
 * never changed and nothing is half-written.
 */
import { cpSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, quickGenerateOptions, quickValidateOptions, runCli, type Actions } from '../cli/main.js';
import { provenUpToDate } from '../cli/commands/generate.js';
import { memoryIO, REPO, scratch } from './helpers/project.js';

const WEATHER = path.join(REPO, 'examples/weather');

function seed(name: string): string {
  const dir = scratch(name);
  for (const f of ['mcpgen.yaml', 'logo.png', 'docs', 'ui'])
    cpSync(path.join(WEATHER, f), path.join(dir, f), { recursive: true });
  return dir;
}

/** Every file under dir with its content and mtime. */
function snapshot(dir: string): Map<string, { text: string; mtime: number }> {
  const out = new Map<string, { text: string; mtime: number }>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, { text: readFileSync(path.join(dir, r), 'utf8'), mtime: statSync(path.join(dir, r)).mtimeMs });
    }
  };
  walk('');
  return out;
}

async function cli(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

describe('exit codes and usage', () => {
  it('--help and --version exit 0', async () => {
    expect((await cli(REPO, '--help')).code).toBe(0);
    const v = await cli(REPO, '--version');
    expect(v.code).toBe(0);
    expect(v.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('an unknown command or option exits 2 with a suggestion', async () => {
    const r = await cli(REPO, 'generat');
    expect(r.code).toBe(2);
    expect(r.err).toContain('generate');
    expect((await cli(REPO, 'generate', '--bogus')).code).toBe(2);
  });

  it('no manifest found exits 2 and says what to do, without a stack', async () => {
    const dir = scratch('cli-none');
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/mcpgen init|-f/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('a broken manifest exits 1 with file:line:col diagnostics and writes nothing', async () => {
    const dir = seed('cli-broken');
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8').replace('  version: 0.1.0', '  version: 1'),
    );
    const before = snapshot(dir);
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^mcpgen\.yaml:\d+:\d+: error MCPG1\d\d /m);
    expect(r.err).toContain('nothing was written');
    expect(snapshot(dir)).toEqual(before);
  });
});

/** The options commander passes to the command argv names (undefined: it ran no command). */
async function commanderOptions(argv: string[]): Promise<{ command: string; options: unknown } | undefined> {
  let seen: { command: string; options: unknown } | undefined;
  const record = (command: string) => async (o: unknown) => ((seen = { command, options: { ...(o as object) } }), 0);
  const actions = {
    init: record('init'),
    validate: record('validate'),
    generate: record('generate'),
    watch: record('watch'),
    diff: record('diff'),
    schema: record('schema'),
    dev: record('dev'),
    pack: record('pack'),
  } as unknown as Actions;
  const { program } = await buildProgram(memoryIO(REPO), actions);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return undefined;
  }
  return seen;
}

describe('the quick paths past commander', () => {
  const lines = [
    ['generate'],
    ['generate', '-q'],
    ['generate', '--quiet', '-f', 'a.yaml'],
    ['generate', '--file=a.yaml', '--out=b', '--dry-run'],
    ['generate', '-o', 'out dir', '--check', '--no-header-version', '-q'],
    ['generate', '--no-header-version', '--file', 'x/y.yaml'],
    ['generate', '-f', 'a', '-f', 'b'],
    ['generate', '-q', '-q'],
    ['generate', '-qf', 'a'],
    ['generate', '-f=a'],
    ['generate', '-f'],
    ['generate', '-f', '-q'],
    ['generate', '--file='],
    ['generate', 'extra'],
    ['generate', '--dry-run=yes'],
    ['generate', '--help'],
    ['generate', '--debug'],
    ['generate', '--bogus'],
    ['validate'],
    ['validate', '-f', 'a.yaml', '--format', 'json', '--rule', 'x=off', '--rule=y=error', '--max-warnings', '3'],
    ['validate', '--format'],
    ['validate', '-f', 'a', '-f', 'b'],
    ['validate', '--rule', '-x'],
  ];
  it.each(lines.map((l) => [l.join(' '), l] as const))(
    '%s: what commander would run, or commander',
    async (_name, argv) => {
      const quick = quickValidateOptions(argv) ?? quickGenerateOptions(argv);
      if (quick === undefined) return; // commander parses it, as before
      expect(await commanderOptions(argv)).toEqual({ command: argv[0], options: quick });
    },
  );
  it('takes the plain command lines, leaves the rest to commander', () => {
    expect(quickGenerateOptions(['generate', '-q'])).toEqual({ headerVersion: true, quiet: true });
    expect(quickGenerateOptions(['generate', '-o', 'out dir', '--check', '--no-header-version', '-q'])).toEqual({
      out: 'out dir',
      check: true,
      headerVersion: false,
      quiet: true,
    });
    for (const argv of [
      ['generate', '-f', 'a', '-f', 'b'],
      ['generate', '-qf', 'a'],
      ['generate', '-f=a'],
      ['generate', 'extra'],
      ['generate', '--help'],
      ['generate', '--bogus'],
      ['init'],
    ]) {
      expect(quickGenerateOptions(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

describe('generate, regenerate, diff, check', () => {
  it('generating twice is a no-op: nothing written, mtimes untouched', async () => {
    const dir = seed('cli-twice');
    expect((await cli(dir, 'generate')).code).toBe(0);
    const first = snapshot(dir);
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/0 created, 0 updated, 0 removed/);
    expect(snapshot(dir)).toEqual(first);
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const dir = seed('cli-dry');
    const before = snapshot(dir);
    const r = await cli(dir, 'generate', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.out).toContain('create    src/generated/server.ts');
    expect(r.out).toContain('dry run, nothing written');
    expect(snapshot(dir)).toEqual(before);
  });

  it('never changes a handler; a manifest edit shows in diff and --check until regenerated', async () => {
    const dir = seed('cli-evolve');
    await cli(dir, 'generate');
    const handler = path.join(dir, 'src/handlers/tools/get_forecast.ts');
    writeFileSync(
      handler,
      '// my own code\nexport const handler = async () => ({ city: "x", units: "metric" as const, days: [] });\n',
    );
    const manifest = path.join(dir, 'mcpgen.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace(
        'description: Daily forecast for a city, up to 7 days ahead',
        'description: Forecast for a city',
      ),
    );

    const check = await cli(dir, 'generate', '--check');
    expect(check.code).toBe(1);
    expect(check.out).toContain('src/generated/server.ts');
    const diff = await cli(dir, 'diff');
    expect(diff.code).toBe(1);
    expect(diff.out).toContain('--- a/src/generated/server.ts');
    expect(diff.out).toMatch(/^-\s+description: 'Daily forecast for a city, up to 7 days ahead',$/m);
    expect(diff.out).toMatch(/^\+\s+description: 'Forecast for a city',$/m);

    const gen = await cli(dir, 'generate');
    expect(gen.code).toBe(0);
    expect(gen.out).toContain('update    src/generated/server.ts');
    expect(readFileSync(handler, 'utf8')).toContain('// my own code');
    expect((await cli(dir, 'generate', '--check')).code).toBe(0);
    expect((await cli(dir, 'diff')).code).toBe(0);
  });

  it('diff run from above the project (-f into a subfolder) names files from where it ran', async () => {
    const root = scratch('cli-diff-mono');
    const dir = path.join(root, 'servers/weather');
    mkdirSync(dir, { recursive: true });
    for (const f of ['mcpgen.yaml', 'logo.png', 'docs', 'ui'])
      cpSync(path.join(WEATHER, f), path.join(dir, f), { recursive: true });
    await cli(dir, 'generate');
    const manifest = path.join(dir, 'mcpgen.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('up to 7 days ahead', 'up to a week ahead'));
    const diff = await cli(root, 'diff', '-f', 'servers/weather/mcpgen.yaml');
    expect(diff.code).toBe(1);
    expect(diff.out).toContain(
      '--- a/servers/weather/src/generated/server.ts\n+++ b/servers/weather/src/generated/server.ts\n',
    );
    expect(diff.out).not.toMatch(/^[-+]{3} [ab]\/src\//m);
    // The same as generate --check lists them.
    expect((await cli(root, 'generate', '--check', '-f', 'servers/weather/mcpgen.yaml')).out).toContain(
      'servers/weather/src/generated/server.ts',
    );
  });

  it('generated files checked out with CRLF (core.autocrlf): .gitattributes keeps them LF, diff names the cause', async () => {
    const dir = seed('cli-diff-crlf');
    await cli(dir, 'generate');
    expect(readFileSync(path.join(dir, '.gitattributes'), 'utf8')).toContain(
      'src/generated/** linguist-generated=true eol=lf\n',
    );
    const server = path.join(dir, 'src/generated/server.ts');
    writeFileSync(server, readFileSync(server, 'utf8').replace(/\n/g, '\r\n'));
    const diff = await cli(dir, 'diff');
    expect(diff.code).toBe(1);
    expect(diff.err).toContain(
      "! src/generated/server.ts differs only in line endings (CRLF on disk, LF generated: git's core.autocrlf converts them on checkout): add `src/generated/** eol=lf` and `test/generated/** eol=lf` to the project's .gitattributes, then run mcpgen generate\n",
    );
  });

  it('removes stale generated files, reports orphaned handlers and keeps them', async () => {
    const dir = seed('cli-remove');
    await cli(dir, 'generate');
    const manifest = path.join(dir, 'mcpgen.yaml');
    // Drop the convert_temperature tool.
    const text = readFileSync(manifest, 'utf8');
    const start = text.indexOf('  convert_temperature:');
    const end = text.indexOf('\nresources:');
    writeFileSync(manifest, text.slice(0, start) + text.slice(end + 1).replace(/^/, ''));
    writeFileSync(path.join(dir, 'src/generated/old-file.ts'), '// Code generated by mcpgen. DO NOT EDIT.\n');
    const r = await cli(dir, 'generate');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('remove    src/generated/old-file.ts');
    expect(existsSync(path.join(dir, 'src/generated/old-file.ts'))).toBe(false);
    expect(r.err).toContain('src/handlers/tools/convert_temperature.ts is no longer used by the manifest; it was kept');
    expect(existsSync(path.join(dir, 'src/handlers/tools/convert_temperature.ts'))).toBe(true);
  });

  it('refuses to overwrite a generated file whose header was removed', async () => {
    const dir = seed('cli-header');
    await cli(dir, 'generate');
    const server = path.join(dir, 'src/generated/server.ts');
    writeFileSync(server, 'my edits\n');
    const before = snapshot(dir);
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('src/generated/server.ts is in a generated folder but has no');
    expect(snapshot(dir)).toEqual(before);
  });

  it('names missing dependencies with the exact npm command, never touching package.json', async () => {
    const dir = seed('cli-deps');
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "weather", "dependencies": {} }\n');
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(0);
    // The runtime from the tarball this mcpgen ships (dist/), named relative to the project.
    expect(r.err).toContain(
      'npm install @mcpgen/runtime@file:../../../dist/mcpgen-runtime-0.1.0.tgz @modelcontextprotocol/server@"~2.4.0"',
    );
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('{ "name": "weather", "dependencies": {} }\n');
  });

  it('names the npm install when the installed runtime is out of the range the generated code needs', async () => {
    const dir = seed('cli-deps-runtime');
    await cli(dir, 'generate', '-q');
    const installed = path.join(dir, 'node_modules/@mcpgen/runtime');
    mkdirSync(installed, { recursive: true });
    writeFileSync(path.join(installed, 'package.json'), '{ "name": "@mcpgen/runtime", "version": "0.0.3" }\n');
    const r = await cli(dir, 'generate');
    expect(r.code).toBe(0);
    expect(r.err).toContain('@mcpgen/runtime 0.0.3 is installed, the generated code needs ^0.1.0');
    expect(r.err).toContain('npm install @mcpgen/runtime@file:../../../dist/mcpgen-runtime-0.1.0.tgz');
    writeFileSync(path.join(installed, 'package.json'), '{ "name": "@mcpgen/runtime", "version": "0.1.7" }\n');
    expect((await cli(dir, 'generate')).err).not.toContain('@mcpgen/runtime');
  });

  it('recreates a deleted stub but leaves the others alone', async () => {
    const dir = seed('cli-stub');
    await cli(dir, 'generate');
    unlinkSync(path.join(dir, 'src/handlers/resources/stations.ts'));
    const r = await cli(dir, 'generate');
    expect(r.out).toContain('create    src/handlers/resources/stations.ts');
    expect(r.out).toMatch(/1 created/);
  });

  it('--out generates elsewhere; file: references still resolve from the manifest folder', async () => {
    const src = seed('cli-out-src');
    const out = scratch('cli-out-dest');
    const r = await cli(src, 'generate', '-o', out, '-q');
    expect(r.code, r.err).toBe(0);
    expect(existsSync(path.join(out, 'src/generated/server.ts'))).toBe(true);
    expect(readFileSync(path.join(out, 'src/generated/content.ts'), 'utf8')).toContain(
      'This server gives daily forecasts',
    );
    expect(readFileSync(path.join(out, 'src/generated/server.ts'), 'utf8')).toMatch(
      /^\/\/ Code generated by mcpgen \S+ from \.\.\/cli-out-src\/mcpgen\.yaml\. DO NOT EDIT\./,
    );
    expect(existsSync(path.join(src, 'src'))).toBe(false);
  });
});

describe('warnings during generate', () => {
  const manifest = (tools: number) =>
    `${[
      'version: 1',
      'server: { name: warn-count, version: 1.0.0 }',
      'tools:',
      ...Array.from(
        { length: tools },
        (_, i) => `  tool_${i}:\n    input: { type: object, properties: { q: { type: string } } }`,
      ),
    ].join('\n')}\n`;

  it('a few are listed with their positions; many are counted, as many as validate reports', async () => {
    const few = scratch('cli-warn-few');
    writeFileSync(path.join(few, 'mcpgen.yaml'), manifest(1));
    const a = await cli(few, 'generate', '-q');
    expect(a.code).toBe(0);
    expect(a.err).toMatch(/mcpgen\.yaml:4:3: warning MCPG301/);
    expect(a.err).not.toContain('to see them');

    const many = scratch('cli-warn-many');
    writeFileSync(path.join(many, 'mcpgen.yaml'), manifest(12));
    const b = await cli(many, 'generate', '-q');
    expect(b.code).toBe(0);
    const v = await cli(many, 'validate', '--format', 'json');
    const count = (JSON.parse(v.out) as unknown[]).length;
    expect(count).toBeGreaterThan(10);
    expect(b.err).toContain(`! ${count} warnings in mcpgen.yaml; run mcpgen validate to see them`);
    expect(b.err).not.toMatch(/warning MCPG/);
  });
});

describe('contract changes', () => {
  const MANIFEST = [
    'version: 1',
    'server: { name: waver, version: 1.0.0 }',
    'tools:',
    '  wave:',
    '    description: Wave at someone nearby',
    '    input:',
    '      type: object',
    '      properties: { who: { type: string, description: Who to wave at } }',
    '      required: [who]',
    'resourceTemplates:',
    '  page:',
    '    uriTemplate: "pages://{n}"',
    '    description: One page by its number',
    '    mimeType: text/plain',
    '    params: { n: { type: string, minLength: 1 } }',
    '',
  ].join('\n');
  const NOTICE = '! contract changed: tool wave (input) → update src/handlers/tools/wave.ts';

  function project(name: string): { dir: string; edit: (from: string, to: string) => void } {
    const dir = scratch(name);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    const edit = (from: string, to: string) => {
      const file = path.join(dir, 'mcpgen.yaml');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(from);
      writeFileSync(file, text.replace(from, to));
    };
    return { dir, edit };
  }

  it('annotations (description, examples) change no contract; a type does', async () => {
    const { dir, edit } = project('cli-contract-annotations');
    expect((await cli(dir, 'generate', '-q')).code).toBe(0);
    edit('Who to wave at', 'The person to wave at');
    edit('minLength: 1 }', "minLength: 1, examples: ['3'], title: Page }");
    const annotated = await cli(dir, 'generate', '-q');
    expect(annotated.code).toBe(0);
    expect(annotated.out).toMatch(/[1-9]\d* updated/); // the schemas clients see did change
    expect(annotated.err).not.toContain('contract changed');
    edit('who: { type: string', 'who: { type: integer');
    expect((await cli(dir, 'generate', '-q')).err).toContain(NOTICE);
  });

  it('a contracts.json of the earlier hash scheme is rewritten without naming any handler', async () => {
    const { dir } = project('cli-contract-upgrade');
    expect((await cli(dir, 'generate', '-q')).code).toBe(0);
    const file = path.join(dir, 'src/generated/contracts.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as {
      version?: number;
      contracts: Record<string, { parts: Record<string, string> }>;
    };
    delete record.version;
    record.contracts['tool wave']!.parts.input = '000000000000';
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    const r = await cli(dir, 'generate', '-q');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('contract changed');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 2 });
  });

  it('the notice is given again on every generate, --json and up to date included, until the handler is edited', async () => {
    const { dir, edit } = project('cli-contract-pending');
    expect((await cli(dir, 'generate', '-q')).code).toBe(0);
    edit('who: { type: string', 'who: { type: integer');
    expect((await cli(dir, 'generate', '-q')).err).toContain(NOTICE);
    expect(provenUpToDate({}, memoryIO(dir))).not.toBeNull();
    const again = await cli(dir, 'generate', '-q');
    expect(again.out).toMatch(/0 created, 0 updated, 0 removed/);
    expect(again.err).toContain(NOTICE);
    const json = JSON.parse((await cli(dir, 'generate', '--json')).out) as { next: { message: string }[] };
    expect(json.next.map((n) => n.message)).toContainEqual(
      expect.stringContaining('contract changed: tool wave (input)'),
    );
    // A run that regenerates (the manifest edited elsewhere) names it too.
    edit('One page by its number', 'One page, by its number');
    expect((await cli(dir, 'generate', '-q')).err).toContain(NOTICE);

    const handler = path.join(dir, 'src/handlers/tools/wave.ts');
    writeFileSync(handler, `${readFileSync(handler, 'utf8')}// who is a number now\n`);
    const answered = await cli(dir, 'generate', '-q');
    expect(answered.code).toBe(0);
    expect(answered.err).not.toContain('contract changed');
  });
});
