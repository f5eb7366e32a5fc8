/**
 * `mcpgen init`: the starter project installs, type-checks, passes its tests and serves, untouched.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, run, scratch } from './helpers/project.js';

describe('mcpgen init', () => {
  it('writes a valid starter manifest, generates, and prints next steps', async () => {
    const parent = scratch('init');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'my-app'], io), io.err).toBe(0);
    const dir = path.join(parent, 'my-app');
    const manifest = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    expect(manifest).toMatch(/^# yaml-language-server: \$schema=.*schemas\/manifest\.v1\.json\n/);
    expect(manifest).toContain('name: my-app');
    expect(io.out).toContain('cd my-app');
    expect(io.out).toContain('npm install');
    for (const f of [
      'package.json',
      'tsconfig.json',
      'src/main.ts',
      'src/handlers/tools/greet.ts',
      'src/handlers/templates/greeting.ts',
      'test/generated/contract.test.ts',
    ])
      expect(existsSync(path.join(dir, f)), f).toBe(true);

    const validate = memoryIO(dir);
    expect(await runCli(['validate'], validate), validate.err).toBe(0);

    // The project, untouched: strict type-check, its own tests, and a server that answers.
    const tsc = await buildServer(dir);
    expect(tsc.stdout + tsc.stderr).toBe('');
    const tests = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(tests.code, tests.stdout.slice(-3000)).toBe(0);
    const client = await connectStdio(dir);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('not implemented: edit src/handlers/tools/greet.ts');
      const about = await client.readResource({ uri: 'info://about' });
      expect(JSON.stringify(about.contents)).toContain('# my-app');
      const prompt = await client.getPrompt({ name: 'welcome', arguments: { name: 'Ada', tone: 'formal' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Write a formal welcome message for Ada.' });
    } finally {
      await client.close();
    }
  });

  it('--view gives the starter tool a view: index.html and main.ts (App) written once, built and served', async () => {
    const parent = scratch('init-view');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'viewed', '--view'], io), io.err).toBe(0);
    const dir = path.join(parent, 'viewed');
    for (const file of ['index.html', 'main.ts'])
      expect(io.out).toContain(`  create    ${path.join('viewed', 'ui', 'greet', file)}\n`);
    const manifest = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    expect(manifest).toContain('    ui: { resource: greet_view }\n');
    expect(manifest).toContain('    uri: ui://viewed/greet\n');
    expect(manifest).toContain('    build: ./ui/greet');
    const main = readFileSync(path.join(dir, 'ui/greet/main.ts'), 'utf8');
    expect(main).toContain("import { App } from '@modelcontextprotocol/ext-apps';");
    expect(main).toContain("app.callServerTool({ name: 'greet'");
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.scripts.build).toBe('mcpgen build');
    expect(Object.keys(pkg.devDependencies)).toEqual(
      expect.arrayContaining(['esbuild', '@modelcontextprotocol/ext-apps']),
    );
    const validate = memoryIO(dir);
    expect(await runCli(['validate'], validate), validate.err).toBe(0);
    expect(validate.err).toBe('✔ mcpgen.yaml is valid\n');

    // The view is the user's: an edit survives generate and is what `mcpgen build` bundles.
    const html = readFileSync(path.join(dir, 'ui/greet/index.html'), 'utf8');
    const edited = html.replace('Waiting for the result…', 'Waiting…');
    writeFileSync(path.join(dir, 'ui/greet/index.html'), edited);
    const again = memoryIO(dir);
    expect(await runCli(['generate', '-q'], again), again.err).toBe(0);
    expect(readFileSync(path.join(dir, 'ui/greet/index.html'), 'utf8')).toBe(edited);

    const build = memoryIO(dir);
    expect(await runCli(['build'], build), build.err).toBe(0);
    expect(build.out).toMatch(/view greet_view: dist\/src\/views\/viewed\/greet\.html \(\d+(\.\d)? KiB\)/);
    const built = readFileSync(path.join(dir, 'dist/src/views/viewed/greet.html'), 'utf8');
    // Booleans: a failure must not print the 600 KiB bundle.
    expect(built.includes('Waiting…')).toBe(true);
    expect(built.includes('src="./main.ts"')).toBe(false);
    expect(built.includes('<script type="module">') && built.includes('ui/initialize')).toBe(true);
    const tests = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(tests.code, tests.stdout.slice(-3000)).toBe(0);
    expect(tests.stdout).toMatch(/answers tools with a view with text too/);
    const client = new Client(
      { name: 'init-view', version: '0.0.0' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/src/main.js')] }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t._meta])).toEqual([['greet', { ui: { resourceUri: 'ui://viewed/greet' } }]]);
      const { contents } = await client.readResource({ uri: 'ui://viewed/greet' });
      const { text, ...rest } = contents[0] as { text: string };
      expect(rest).toEqual({ uri: 'ui://viewed/greet', mimeType: 'text/html;profile=mcp-app' });
      expect(contents.length === 1 && text === built).toBe(true);
    } finally {
      await client.close();
    }

    // The view's TypeScript is type-checked (esbuild only strips it): an error stops the build.
    const viewMain = path.join(dir, 'ui/greet/main.ts');
    const source = readFileSync(viewMain, 'utf8');
    writeFileSync(viewMain, `${source}\nconst count: number = output.textContent;\n`);
    const broken = memoryIO(dir);
    expect(await runCli(['build'], broken)).toBe(1);
    expect(broken.out).toMatch(/ui\/greet\/main\.ts\(\d+,\d+\): error TS2322/);
    expect(broken.err).toMatch(/✖ tsc failed on the views \(exit \d+\): they were not bundled/);
    expect(existsSync(path.join(dir, 'dist/src/views/viewed/greet.html'))).toBe(false);
    expect(existsSync(path.join(dir, 'dist/tsconfig.views.json'))).toBe(false);
    writeFileSync(viewMain, source);
  });

  it('--view keeps a ui/greet/ view already there', async () => {
    const dir = scratch('init-view-kept');
    mkdirSync(path.join(dir, 'ui/greet'), { recursive: true });
    writeFileSync(path.join(dir, 'ui/greet/index.html'), '<!doctype html><p>mine</p>\n');
    const io = memoryIO(dir);
    expect(await runCli(['init', '--view'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'ui/greet/index.html'), 'utf8')).toBe('<!doctype html><p>mine</p>\n');
    expect(io.out).toMatch(/Kept as they were \(yours\): .*ui\/greet\/index\.html\./);
    expect(io.out).toContain('create    ui/greet/main.ts');
  });

  it('refuses to overwrite an existing manifest, byte for byte', async () => {
    const dir = scratch('init-twice');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), 'mine\n');
    const io = memoryIO(dir);
    expect(await runCli(['init'], io)).toBe(2);
    expect(io.err).toContain('mcpgen.yaml already exists');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe('mine\n');
  });

  it('rejects a name that is not a valid package name', async () => {
    const dir = scratch('init-bad-name');
    const io = memoryIO(dir);
    expect(await runCli(['init', '--name', 'Bad Name'], io)).toBe(2);
    expect(io.err).toContain('not a valid npm package name');
    expect(io.err).toContain('scoped as @scope/name');
    expect(existsSync(path.join(dir, 'mcpgen.yaml'))).toBe(false);
  });

  it('writes names YAML would read as numbers, booleans or null as strings', async () => {
    const parent = scratch('init-number-names');
    // A folder named like a number, and --name values YAML reads as null, a float, a hex integer.
    for (const args of [['2024'], ['a', '--name', 'null'], ['b', '--name', '1e3'], ['c', '--name', '0x10']]) {
      const io = memoryIO(parent);
      expect(await runCli(['init', ...args], io), io.err).toBe(0);
      const name = args[2] ?? args[0]!;
      const manifest = readFileSync(path.join(parent, args[0]!, 'mcpgen.yaml'), 'utf8');
      expect(manifest).toContain(`  name: "${name}" `);
      expect(manifest).toContain(`  title: "${name}"\n`);
      expect(JSON.parse(readFileSync(path.join(parent, args[0]!, 'package.json'), 'utf8')).name).toBe(name);
    }
  });

  it('a scoped --name is the package; the server and its command are named without the scope', async () => {
    const parent = scratch('init-scoped');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'x', '--name', '@acme/weather'], io), io.err).toBe(0);
    const manifest = readFileSync(path.join(parent, 'x/mcpgen.yaml'), 'utf8');
    expect(manifest).toContain('  name: weather ');
    expect(manifest).toContain('  package: "@acme/weather" ');
    const pkg = JSON.parse(readFileSync(path.join(parent, 'x/package.json'), 'utf8'));
    expect([pkg.name, pkg.bin]).toEqual(['@acme/weather', { weather: 'dist/src/main.js' }]);
    expect(io.out).toContain('Your MCP server "weather" is ready.');
  });

  it('a folder name with accents becomes their letters', async () => {
    const parent = scratch('init-accents');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'ünï srv'], io), io.err).toBe(0);
    expect(readFileSync(path.join(parent, 'ünï srv/mcpgen.yaml'), 'utf8')).toContain('  name: uni-srv ');
  });

  it('leaves no manifest behind when generating the project fails, so init runs again', async () => {
    const dir = scratch('init-generate-fails');
    writeFileSync(path.join(dir, 'src'), 'a file where src/ goes\n');
    const io = memoryIO(dir);
    expect(await runCli(['init'], io)).toBe(1);
    expect(io.err).toContain('init removed what it wrote (mcpgen.yaml)');
    expect(existsSync(path.join(dir, 'mcpgen.yaml'))).toBe(false);
    rmSync(path.join(dir, 'src'));
    const again = memoryIO(dir);
    expect(await runCli(['init'], again), again.err).toBe(0);
  });

  it("says what a src/main.ts of the user's must do, and how to get the starter", async () => {
    const dir = scratch('init-own-main');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src/main.ts'), 'console.log("my app");\n');
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'src/main.ts'), 'utf8')).toBe('console.log("my app");\n');
    expect(io.out).toContain("! src/main.ts is yours and was kept, but it is the server's entry point");
    expect(io.out).toContain("import { app } from './generated/server.js'");
    expect(io.out).toContain('move yours aside (mv src/main.ts src/app.ts) and run mcpgen generate');
    rmSync(path.join(dir, 'mcpgen.yaml'));
    const json = memoryIO(dir);
    expect(await runCli(['init', '--json'], json), json.err).toBe(0);
    const next = (JSON.parse(json.out) as { next: { message: string; command: string | null }[] }).next;
    expect(next[0]).toMatchObject({ command: null, message: expect.stringContaining("the server's entry point") });
    expect(next[0]!.message).toContain('run mcpgen generate, which creates src/main.ts when it is missing');
  });

  it("run from npx's cache: the runtime copied into vendor/, mcpgen named by the tarball npx was given", async () => {
    const parent = scratch('init-npx');
    // mcpgen as `npx --package=<tarball>` installs it; npm records the tarball in the cache's package.json.
    const cache = path.join(parent, 'npm-cache/_npx/0123abcd');
    for (const part of ['bin', 'dist', 'templates', 'schemas', 'package.json'])
      cpSync(path.join(REPO, part), path.join(cache, 'node_modules/mcpgen', part), { recursive: true });
    const tarball = path.join(parent, 'mcpgen-0.1.0.tgz');
    writeFileSync(tarball, 'the tarball\n');
    writeFileSync(path.join(cache, 'package.json'), JSON.stringify({ _npx: { packages: [tarball] } }));
    const init = await run(
      process.execPath,
      [path.join(cache, 'node_modules/mcpgen/bin/mcpgen.js'), 'init', 'x'],
      parent,
    );
    expect(init.code, init.stderr).toBe(0);
    const dir = path.join(parent, 'x');
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies['@mcpgen/runtime']).toBe('file:vendor/mcpgen-runtime-0.1.0.tgz');
    expect(pkg.devDependencies.mcpgen).toBe('file:../mcpgen-0.1.0.tgz');
    expect(readFileSync(path.join(dir, 'vendor/mcpgen-runtime-0.1.0.tgz'))).toEqual(
      readFileSync(path.join(REPO, 'dist/mcpgen-runtime-0.1.0.tgz')),
    );
    expect(init.stdout).toContain(`! mcpgen runs from npx's cache (${cache}), which npm clears at will`);
  });

  // The real thing a newcomer does: a folder outside this repository, `npm install` from the registry.
  it.skipIf(process.env.MCPGEN_SKIP_NPM_INSTALL === '1')(
    'a fresh project installs from the registry and passes npm test',
    async () => {
      const parent = mkdtempSync(path.join(tmpdir(), 'mcpgen-init-'));
      const io = memoryIO(parent);
      expect(await runCli(['init', 'fresh'], io), io.err).toBe(0);
      const dir = path.join(parent, 'fresh');
      const install = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir, 300_000);
      expect(install.code, install.stderr).toBe(0);
      const test = await run('npm', ['test'], dir, 300_000);
      expect(test.code, test.stdout.slice(-3000) + test.stderr.slice(-2000)).toBe(0);
    },
    600_000,
  );
});

describe('mcpgen init in a folder with a package.json of its own', () => {
  /** The JSON object printed under "Merge these keys into it:", indented by four spaces. */
  function printedFragment(out: string): Record<string, unknown> {
    const start = out.indexOf('Merge these keys into it:\n');
    expect(start, out).toBeGreaterThan(-1);
    const lines = out.slice(start).split('\n').slice(1);
    const end = lines.indexOf('    }');
    return JSON.parse(
      lines
        .slice(0, end + 1)
        .map((l) => l.slice(4))
        .join('\n'),
    );
  }

  it('keeps it byte for byte, prints what to merge and next steps that then work', async () => {
    const dir = scratch('init-existing-package');
    const original =
      '{\n  "name": "legacy-tool",\n  "version": "3.0.0",\n  "scripts": { "test": "echo legacy tests" },\n  "dependencies": {}\n}\n';
    writeFileSync(path.join(dir, 'package.json'), original);
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(io.out).toContain('Kept as they were (yours): package.json.');
    expect(io.out).toContain(
      'scripts.test is yours ("echo legacy tests"); the generated project\'s is offered as scripts.test:mcp',
    );

    const add = printedFragment(io.out);
    expect(add.type).toBe('module');
    expect(Object.keys(add.scripts as object)).toEqual([
      'build',
      'start',
      'start:http',
      'typecheck',
      'dev',
      'test:mcp',
      'prepack',
    ]);
    expect(add.bin).toEqual({ 'legacy-tool': 'dist/src/main.js' });
    // The next steps name the renamed script, and the packages the generated code needs.
    expect(io.out).toContain('  npm run test:mcp ');
    expect(io.out).toMatch(
      / {2}npm install @mcpgen\/runtime@file:\S+\/dist\/mcpgen-runtime-0\.1\.0\.tgz @modelcontextprotocol\/server@"~2\.4\.0"/,
    );
    expect(io.out).toContain('  npm install -D @modelcontextprotocol/client@"~2.4.0"');
    expect(io.out).not.toMatch(/^ {2}npm test/m);

    // Merge as printed; the packages come from the repository's node_modules (the scratch folder is inside it).
    const pkg = JSON.parse(original);
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ ...pkg, ...add, scripts: { ...pkg.scripts, ...(add.scripts as object) } }, null, 2),
    );
    const test = await run('npm', ['run', 'test:mcp', '--silent'], dir, 300_000);
    expect(test.code, test.stdout.slice(-3000) + test.stderr.slice(-2000)).toBe(0);
    expect((await run('npm', ['test', '--silent'], dir)).stdout).toContain('legacy tests');
  }, 400_000);

  it('a package.json with everything needed gets no fragment, and the usual steps', async () => {
    const dir = scratch('init-complete-package');
    const first = memoryIO(path.dirname(dir));
    expect(await runCli(['init', path.basename(dir)], first), first.err).toBe(0);
    const kept = readFileSync(path.join(dir, 'package.json'), 'utf8');
    for (const f of ['mcpgen.yaml']) rmSync(path.join(dir, f));
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(io.out).not.toContain('Merge these keys');
    // The tsconfig.json the first init wrote is kept, and has all the project needs.
    expect(io.out).toContain('Kept as they were (yours): package.json, tsconfig.json');
    expect(io.out).not.toContain('tsconfig.json lacks');
    expect(io.out).toMatch(/^ {2}npm install$/m);
    expect(io.out).toMatch(/^ {2}npm test /m);
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(kept);
  });

  it('says so when the package.json is not JSON, and changes nothing', async () => {
    const dir = scratch('init-broken-package');
    writeFileSync(path.join(dir, 'package.json'), '{ not json');
    const io = memoryIO(dir);
    await runCli(['init'], io);
    expect(io.err).toContain('package.json is not a JSON object');
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('{ not json');
  });
});

describe('mcpgen init in a folder with a tsconfig.json of its own', () => {
  /** The JSON object printed under "Set these in its compilerOptions:", indented by four spaces. */
  function printedOptions(out: string): Record<string, unknown> {
    const start = out.indexOf('Set these in its compilerOptions:\n');
    expect(start, out).toBeGreaterThan(-1);
    const lines = out.slice(start).split('\n').slice(1);
    const end = lines.indexOf('    }');
    return JSON.parse(
      lines
        .slice(0, end + 1)
        .map((l) => l.slice(4))
        .join('\n'),
    );
  }

  it('reads it as tsc does (comments, trailing commas, extends), keeps it, says what to set, and that works', async () => {
    const dir = scratch('init-existing-tsconfig');
    const own = [
      '{',
      '  // an older "CommonJS" setup; the base sets module and target',
      '  "extends": "./tsconfig.base.json",',
      '  "compilerOptions": {',
      '    "outDir": "build", /* not dist */',
      '    "types": [],',
      '  },',
      '  "include": ["src/**/*.ts",],',
      '}',
      '',
    ].join('\n');
    const base =
      '{ "compilerOptions": { "module": "commonjs", "target": "es2019", "rootDir": "src", "strict": true } }\n';
    writeFileSync(path.join(dir, 'tsconfig.json'), own);
    writeFileSync(path.join(dir, 'tsconfig.base.json'), base);
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).toBe(own);
    expect(readFileSync(path.join(dir, 'tsconfig.base.json'), 'utf8')).toBe(base);
    expect(io.out).toContain('Your tsconfig.json lacks what the generated project needs; mcpgen left it unchanged:');
    expect(io.out).toContain('  - compilerOptions.module is "commonjs": ');
    expect(io.out).toContain('  - compilerOptions.outDir is "build": ');
    expect(io.out).toContain(
      '  - include leaves out test/generated/contract.test.ts: add "src/**/*.ts" and "test/**/*.ts" to it',
    );
    const set = printedOptions(io.out);
    expect(set).toEqual({ module: 'NodeNext', target: 'ES2022', types: ['node'], outDir: 'dist', rootDir: '.' });
    expect(io.out).toContain('  # set those compilerOptions in tsconfig.json (and its include), then:');

    // As it is, the project does not build; with what was printed set, its tests pass. The
    // packages come from the repository's node_modules (the scratch folder is inside it).
    expect((await run('npm', ['run', 'build', '--silent'], dir, 120_000)).code).not.toBe(0);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify(
        {
          extends: './tsconfig.base.json',
          compilerOptions: { outDir: 'build', types: [], ...set },
          include: ['src/**/*.ts', 'test/**/*.ts'],
        },
        null,
        2,
      ),
    );
    const test = await run('npm', ['test', '--silent'], dir, 300_000);
    expect(test.code, test.stdout.slice(-3000) + test.stderr.slice(-2000)).toBe(0);
  }, 400_000);

  it('asks for "types": ["node"] when types is not set (TypeScript 7 then loads no @types), and that builds', async () => {
    const dir = scratch('init-tsconfig-no-types');
    const own = { compilerOptions: { target: 'ES2019', strict: false, outDir: 'build' } };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(own));
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(io.out).toContain('  - compilerOptions.types is not set: ');
    const set = printedOptions(io.out);
    expect(set).toEqual({ module: 'NodeNext', target: 'ES2022', types: ['node'], outDir: 'dist' });
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...own.compilerOptions, ...set } }),
    );
    const build = await buildServer(dir);
    expect(build.code, build.stdout + build.stderr).toBe(0);
  }, 120_000);

  it('says why when it cannot read it, and changes nothing', async () => {
    const dir = scratch('init-broken-tsconfig');
    writeFileSync(path.join(dir, 'tsconfig.json'), '{ "compilerOptions": { "module": } }');
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(io.out).toMatch(/^! tsconfig\.json is not JSON with comments, as tsc reads it: /m);
    expect(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).toBe('{ "compilerOptions": { "module": } }');

    const other = scratch('init-tsconfig-extends-package');
    writeFileSync(path.join(other, 'tsconfig.json'), '{ "extends": "@tsconfig/not-installed-here/tsconfig.json" }');
    const io2 = memoryIO(other);
    expect(await runCli(['init'], io2), io2.err).toBe(0);
    expect(io2.out).toContain(
      '! tsconfig.json extends "@tsconfig/not-installed-here/tsconfig.json", which is not installed yet, so mcpgen could not check it.',
    );
  });
});

describe('the yaml-language-server modeline', () => {
  it('points into node_modules in a fresh project: the package.json init writes lists mcpgen', async () => {
    const dir = scratch('init-modeline-fresh');
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).devDependencies.mcpgen).toBeDefined();
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=./node_modules/mcpgen/schemas/manifest.v1.json',
    );
  });

  it("points at a stable URL of this version when the user's package.json does not list mcpgen", async () => {
    const dir = scratch('init-modeline-url');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'url', type: 'module' }));
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8').split('\n')[0]).toBe(
      `# yaml-language-server: $schema=https://unpkg.com/mcpgen@${version}/schemas/manifest.v1.json`,
    );
  });

  it('points into node_modules when mcpgen is a dev dependency, and that path is the shipped schema', async () => {
    const dir = scratch('init-modeline-local');
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'local', type: 'module', devDependencies: { mcpgen: '*' } }),
    );
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    const ref = /\$schema=(\S+)/.exec(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8'))![1]!;
    expect(ref).toBe('./node_modules/mcpgen/schemas/manifest.v1.json');
    // What `npm install` puts there is this package's schema (its `files` ship schemas/).
    expect(existsSync(path.join(REPO, ref.replace('./node_modules/mcpgen/', '')))).toBe(true);
  });
});
