/**
 * `mcpgen pack` on a built scratch project: the bundle passes the MCPB package's own unpacker and
 * validator, the unpacked bundle runs on its own (outside the repository, so nothing resolves from
 * mcpgen's node_modules) for a real client, and server.json passes the Registry's schema.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unpackExtension, validateManifest } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, run, scratch } from './helpers/project.js';
import { bundledFiles, reachablePackages } from './helpers/bundle.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
const MCPGEN = path.join(REPO, 'bin/mcpgen.js');
const SCHEMA = JSON.parse(
  readFileSync(path.join(REPO, 'schemas/vendor/mcp-registry-server.2025-12-11.schema.json'), 'utf8'),
);
const validateServerJson = addFormats(new Ajv({ strict: false, allErrors: true })).compile(SCHEMA);
// The MCPB manifest's own JSON Schema, as the @anthropic-ai/mcpb package publishes it.
const validateMcpb = addFormats(new Ajv({ strict: false, allErrors: true })).compile(
  JSON.parse(
    readFileSync(path.join(REPO, 'node_modules/@anthropic-ai/mcpb/dist/mcpb-manifest-v0.3.schema.json'), 'utf8'),
  ),
);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const outside: string[] = [];
afterAll(() => {
  for (const d of outside) rmSync(d, { recursive: true, force: true });
});

const pack = (dir: string, ...args: string[]) => run(process.execPath, [MCPGEN, 'pack', ...args], dir);

describe('stdio server (examples/weather)', () => {
  let dir: string;
  beforeAll(() => {
    dir = scratch('pack', path.join(REPO, 'examples/weather'));
  });

  it('refuses an unbuilt project, saying how to build it, and writes nothing', async () => {
    const r = await pack(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'mcpgen: dist/src/main.js does not exist: build the project first (`npm run build` in ., or `mcpgen pack --build`)',
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.mcpb') || f === 'server.json' || f.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('builds a bundle the MCPB validator accepts and that serves on its own', async () => {
    // Generated with the mcpgen under test, whatever the state of the example's copy.
    expect((await run(process.execPath, [MCPGEN, 'generate', '-q'], dir)).code).toBe(0);
    expect((await buildServer(dir)).code).toBe(0);
    const r = await pack(dir, '--registry-name', 'io.github.example/weather');
    expect(r.stderr).toContain('! server.json: bundle URL is a placeholder');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /✔ weather-0\.1\.0\.mcpb: \d+ KiB, \d+ files \(\d+ packages, 2 tool\(s\), 2 prompt\(s\)\), for darwin, linux, win32\n {2}sha256 [0-9a-f]{64}\n/,
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // The same build packs to the same bytes.
    const again = await pack(dir, '--registry-name', 'io.github.example/weather');
    expect(/sha256 (\w+)/.exec(again.stdout)![1]).toBe(/sha256 (\w+)/.exec(r.stdout)![1]);

    const unpacked = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-mcpb-'));
    outside.push(unpacked);
    expect(
      await unpackExtension({ mcpbPath: path.join(dir, 'weather-0.1.0.mcpb'), outputDir: unpacked, silent: true }),
    ).toBe(true);
    expect(validateManifest(unpacked)).toBe(true);
    const m = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    expect(validateMcpb(m), JSON.stringify(validateMcpb.errors)).toBe(true);
    // A server with both transports: the bundle's command (no --http) serves stdio.
    expect(m.server.mcp_config).toEqual({ command: 'node', args: ['${__dirname}/dist/src/main.js'], env: {} });
    // No native dependency: one bundle for every platform an MCPB manifest can name.
    expect(m.compatibility.platforms).toEqual(['darwin', 'linux', 'win32']);
    expect(m).toMatchObject({
      manifest_version: '0.3',
      name: 'weather',
      display_name: 'Weather',
      version: '0.1.0',
      description: 'Forecasts for any city',
    });
    expect(m.tools.map((t: { name: string }) => t.name).sort()).toEqual(['convert_temperature', 'get_forecast']);
    expect(m.prompts.map((p: { name: string }) => p.name).sort()).toEqual(['packing_list', 'weather_report'].sort());
    // Only the server's code and production packages: no tests, maps, TypeScript or client.
    expect(existsSync(path.join(unpacked, 'dist/test'))).toBe(false);
    expect(existsSync(path.join(unpacked, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(path.join(unpacked, 'node_modules/@modelcontextprotocol/client'))).toBe(false);
    // The runtime and the SDK are inside the bundle (mcpgen build), not beside it.
    expect(existsSync(path.join(unpacked, 'dist/src/chunks'))).toBe(true);
    expect(existsSync(path.join(unpacked, 'dist/src/generated'))).toBe(false);
    expect(existsSync(path.join(unpacked, 'node_modules/@modelcontextprotocol/server/package.json'))).toBe(false);
    expect(existsSync(path.join(unpacked, 'node_modules/@mcpgen/runtime'))).toBe(false);
    // Exactly the packages reachable from `dependencies`, each resolving inside the bundle to the
    // version it resolves to in the installed tree, and none of the devDependencies.
    const reached = reachablePackages(unpacked, dir);
    expect(reached.missing).toEqual([]);
    expect(reached.unreached).toEqual([]);
    expect(reached.mismatched).toEqual([]);
    expect(reached.names.size).toBeGreaterThan(20);
    const devs = Object.keys(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).devDependencies);
    expect(devs.length).toBeGreaterThan(0);
    for (const name of devs) expect(reached.names.has(name), name).toBe(false);
    // Nothing only a compiler, a debugger or a reader uses; licences kept.
    const files = bundledFiles(unpacked).filter((f) => f.startsWith('node_modules/'));
    expect(files.filter((f) => /\.(map|md|d\.[mc]?ts)$/.test(f) && !/\/licen[cs]e[^/]*$/i.test(f))).toEqual([]);
    expect(files.filter((f) => /^(node_modules\/(@[^/]+\/)?[^/]+\/)+(test|tests|__tests__)\//.test(f))).toEqual([]);
    expect(files.some((f) => /\/LICENSE$/.test(f))).toBe(true);

    // Started as a desktop client would, from mcp_config with ${__dirname} filled in.
    const args = (m.server.mcp_config.args as string[]).map((a) => a.replace('${__dirname}', unpacked));
    const client = new Client({ name: 'pack-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args, cwd: os.tmpdir(), stderr: 'pipe' }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'convert_temperature',
        'get_forecast',
      ]);
      const r2 = await client.callTool({ name: 'convert_temperature', arguments: { value: 100, from: 'C' } });
      expect((r2.content as { text: string }[])[0]!.text).toBe('100 °C = 212 °F');
    } finally {
      await client.close();
    }
  });

  it('writes a server.json the Registry schema accepts, for the npm package over stdio', () => {
    const s = JSON.parse(readFileSync(path.join(dir, 'server.json'), 'utf8'));
    expect(validateServerJson(s), JSON.stringify(validateServerJson.errors)).toBe(true);
    expect(s).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.example/weather',
      description: 'Forecasts for any city',
      version: '0.1.0',
      packages: [
        { registryType: 'npm', identifier: 'weather', version: '0.1.0', transport: { type: 'stdio' } },
        {
          registryType: 'mcpb',
          identifier: 'https://github.com/YOUR-GITHUB-USER/weather/releases/download/v0.1.0/weather-0.1.0.mcpb',
          fileSha256: sha256(path.join(dir, 'weather-0.1.0.mcpb')),
          transport: { type: 'stdio' },
        },
      ],
    });
    expect(s.packages).toHaveLength(2);
    // The schema is not vacuous: a name without a namespace fails it.
    expect(validateServerJson({ ...s, name: 'weather' })).toBe(false);
  });

  it('refuses a build older than the sources and leaves the previous bundle as it was', async () => {
    const bundle = path.join(dir, 'weather-0.1.0.mcpb');
    const before = readFileSync(bundle);
    const future = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, 'src/forecast.ts'), future, future);
    const r = await pack(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'src/forecast.ts is newer than the build in dist: run `npm run build` (or `mcpgen pack --build`)',
    );
    expect(readFileSync(bundle).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses generated code older than the manifest', async () => {
    const manifest = path.join(dir, 'mcpgen.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('Forecasts for any city', 'Forecasts for every city'),
    );
    const r = await pack(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('src/generated/server.ts');
    expect(r.stderr).toContain('run `mcpgen generate` and rebuild, then pack again');
  });
});

describe('what pack refuses, before writing anything (a stand-in build: nothing gets far enough to need a real one)', () => {
  const MANIFEST = `version: 1
server: { name: ho2, version: 0.1.0 }
transports:
  http: { port: 3985 }
tools:
  hello:
    description: Says hello
    input: { type: object, properties: {} }
`;
  let dir: string;
  const packIn = async (...args: string[]) => {
    const io = memoryIO(dir);
    const code = await runCli(['pack', ...args], io);
    return { code, stdout: io.out, stderr: io.err };
  };
  const generate = async () => {
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  };
  const standInBuild = (serverInfo = "{ name: 'ho2', version: '0.1.0' }") => {
    mkdirSync(path.join(dir, 'dist/src/generated'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/src/main.js'), "console.log('built');\n");
    writeFileSync(path.join(dir, 'dist/src/generated/server.js'), `export const serverInfo = ${serverInfo};\n`);
  };
  /** What pack may have left: bundles, server.json, temporary files (here and in the scratch folder). */
  const written = () =>
    [dir, path.dirname(dir), path.join(dir, 'dist/src')].flatMap((d) =>
      readdirSync(d).filter((f) => f.endsWith('.mcpb') || f === 'server.json' || f.endsWith('.tmp')),
    );
  const refused = async (args: string[], message: string) => {
    const r = await packIn(...args);
    expect(r.stderr).toContain(`mcpgen: ${message}\n`);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(2);
    expect(written()).toEqual([]);
  };

  beforeAll(async () => {
    dir = scratch('pack-refusals');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    await generate();
    standInBuild();
  });

  it('an HTTP-only server: a bundle is a local server its host talks to over stdio', async () => {
    await refused(
      [],
      'mcpgen.yaml:3:1: `transports` has no stdio, and an MCP Bundle is a local server its host starts and talks to over stdio only: add `stdio: {}` under `transports`, delete src/main.ts (yours, written for HTTP only) so that `mcpgen generate` writes one serving stdio, run it, rebuild, then pack again',
    );
    // stdio added, but main.ts (the user's, written once) still serves HTTP alone.
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('transports:\n', 'transports:\n  stdio: {}\n'));
    await generate();
    await refused(
      [],
      "src/main.ts serves no stdio (it neither calls runStdio nor imports a stdio transport), and a bundle's host runs `node dist/src/main.js` and talks to it over stdio: delete src/main.ts (yours, written for HTTP only) so that `mcpgen generate` writes one serving stdio, run it, rebuild, then pack again",
    );
    rmSync(path.join(dir, 'src/main.ts'));
    await generate();
    expect(readFileSync(path.join(dir, 'src/main.ts'), 'utf8')).toContain('runStdio');
    standInBuild();
  });

  it('a package.json that is not JSON, at its line and column, left as it was', async () => {
    const file = path.join(dir, 'package.json');
    const pkg = readFileSync(file);
    writeFileSync(file, '{ bad json\n');
    try {
      await refused([], "package.json:1:3: not valid JSON: Expected property name or '}'");
      expect(readFileSync(file, 'utf8')).toBe('{ bad json\n');
    } finally {
      writeFileSync(file, pkg);
    }
  });

  it('a registry name not of the Registry form, with an example from the package name', async () => {
    await refused(
      ['--registry-name', 'bad name'],
      '--registry-name: "bad name" is not <reverse-DNS namespace>/<name>, e.g. io.github.<you>/ho2 (letters, digits, `.` and `-`, one `/`, then letters, digits, `.`, `_` and `-`; 3 to 200 characters)',
    );
  });

  it('a --bundle path that cannot be the bundle, named as given, no temporary file left', async () => {
    writeFileSync(path.join(dir, '../afile'), 'a file\n');
    mkdirSync(path.join(dir, '../val'), { recursive: true });
    await refused(['--bundle', '../afile/x.mcpb'], '--bundle ../afile/x.mcpb: ../afile is a file, not a folder');
    await refused(
      ['--bundle', '../val'],
      '--bundle ../val: is a folder; name the .mcpb file to write, e.g. --bundle ../val/ho2-0.1.0.mcpb',
    );
    await refused(
      ['--bundle', 'package.json'],
      "--bundle package.json: a bundle's name ends in .mcpb (what desktop clients open), e.g. --bundle package.mcpb",
    );
    await refused(
      ['--bundle', 'dist/src/x.mcpb'],
      '--bundle dist/src/x.mcpb: is inside dist, the build a bundle is made from (the next pack would pack it, the next build may delete it); write it elsewhere, e.g. --bundle ho2-0.1.0.mcpb',
    );
    if (existsSync('/proc/self'))
      await refused(
        ['--bundle', '/proc/x.mcpb', '--registry-name', 'io.github.example/ho2'],
        '--bundle /proc/x.mcpb: cannot write there: no such file or folder (ENOENT)',
      );
    await refused(
      ['-o', 'nowhere'],
      '-o nowhere: no such folder; name the project folder (where `mcpgen generate` wrote the project)',
    );
  });

  it("another project's build", async () => {
    standInBuild("{ name: 'other', version: '2.0.0' }");
    await refused(
      [],
      "dist/src/generated/server.js was not built from this project's generated code (it serves other 2.0.0; src/generated/server.ts serves ho2 0.1.0): build the project again (`npm run build` in ., or `mcpgen pack --build`)",
    );
    standInBuild();
    // The stand-in build packs: what was refused above is all that stood in the way.
    const r = await packIn('--registry-name', 'io.github.example/ho2', '--bundle', '../out/ho2.mcpb');
    expect(r.stderr).not.toContain('mcpgen:');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(dir, '../out/ho2.mcpb'))).toBe(true);
  });
});

describe('native dependencies', () => {
  const host = `${process.platform}-${process.arch}`;
  let dir: string;
  /** A package as node-gyp and prebuildify leave it: a compiled module, its intermediates, prebuilds. */
  const fakeNative = (root: string) => {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'fake-native', version: '1.0.0', main: 'index.js', gypfile: true }),
      'index.js': "module.exports = require('node-gyp-build')(__dirname);\n",
      'README.md': '# fake-native\n',
      LICENSE: 'MIT\n',
      'binding.gyp': "{ 'targets': [ { 'target_name': 'addon', 'sources': [ 'src/addon.cc' ] } ] }\n",
      'src/addon.cc': '// C++\n',
      'build/Makefile': 'all:\n',
      'build/config.gypi': '{}\n',
      'build/addon.target.mk': '\n',
      'build/Release/addon.node': 'ELF host binary',
      'build/Release/obj.target/addon.node': 'ELF host binary',
      'build/Release/obj.target/addon/src/addon.o': 'object',
      'build/Release/.deps/Release/addon.node.d': 'deps',
      'prebuilds/darwin-x64+arm64/fake-native.node': 'Mach-O',
      'prebuilds/linux-x64/fake-native.glibc.node': 'ELF',
      'prebuilds/linux-arm64/fake-native.glibc.node': 'ELF',
      'prebuilds/win32-x64/fake-native.node': 'PE',
      'prebuilds/android-arm64/fake-native.node': 'ELF',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
  };
  const addDependency = (name: string, version: string) => {
    const file = path.join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    pkg.dependencies[name] = version;
    pkg.repository = { type: 'git', url: 'git+https://github.com/example/weather.git' };
    writeFileSync(file, JSON.stringify(pkg, null, 2));
  };

  beforeAll(async () => {
    dir = scratch('pack-native', path.join(REPO, 'examples/weather'));
    fakeNative(path.join(dir, 'node_modules/fake-native'));
    addDependency('fake-native', '1.0.0');
    expect((await run(process.execPath, [MCPGEN, 'generate', '-q'], dir)).code).toBe(0);
    expect((await buildServer(dir)).code).toBe(0);
  });

  it('one bundle per platform-arch with binaries, each declaring its platform, without build leftovers, each in server.json with its SHA-256', async () => {
    const r = await pack(dir, '--registry-name', 'io.github.example/weather');
    expect(r.code, r.stderr).toBe(0);
    const targets = [...new Set([host, 'darwin-x64', 'darwin-arm64', 'linux-x64', 'linux-arm64', 'win32-x64'])]
      .filter((t) => /^(darwin|linux|win32)-/.test(t))
      .sort();
    const names = targets.map((t) => `weather-0.1.0-${t}.mcpb`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.mcpb'))).toEqual(names);
    for (const n of names) expect(r.stdout).toContain(`✔ ${n}: `);

    const s = JSON.parse(readFileSync(path.join(dir, 'server.json'), 'utf8'));
    expect(validateServerJson(s), JSON.stringify(validateServerJson.errors)).toBe(true);
    expect(s.packages.slice(1)).toEqual(
      names.map((n) => ({
        registryType: 'mcpb',
        identifier: `https://github.com/example/weather/releases/download/v0.1.0/${n}`,
        fileSha256: sha256(path.join(dir, n)),
        transport: { type: 'stdio' },
      })),
    );

    for (const [i, t] of targets.entries()) {
      const unpacked = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-mcpb-'));
      outside.push(unpacked);
      expect(await unpackExtension({ mcpbPath: path.join(dir, names[i]!), outputDir: unpacked, silent: true })).toBe(
        true,
      );
      const m = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
      expect(validateMcpb(m), JSON.stringify(validateMcpb.errors)).toBe(true);
      expect(m.compatibility.platforms).toEqual([t.split('-')[0]]);
      const files = bundledFiles(path.join(unpacked, 'node_modules/fake-native'));
      // This machine's compiled module only where it runs: node-gyp-build loads build/Release first.
      const own = t === host ? ['build/Release/addon.node'] : [];
      const prebuilt = {
        'darwin-x64': 'prebuilds/darwin-x64+arm64/fake-native.node',
        'darwin-arm64': 'prebuilds/darwin-x64+arm64/fake-native.node',
        'linux-x64': 'prebuilds/linux-x64/fake-native.glibc.node',
        'linux-arm64': 'prebuilds/linux-arm64/fake-native.glibc.node',
        'win32-x64': 'prebuilds/win32-x64/fake-native.node',
      }[t];
      expect(files).toEqual(['LICENSE', ...own, 'index.js', 'package.json', ...(prebuilt ? [prebuilt] : [])].sort());
      if (t === host) {
        // The server of the host's bundle runs (fake-native is listed, never loaded).
        const args = (m.server.mcp_config.args as string[]).map((a) => a.replace('${__dirname}', unpacked));
        const client = new Client({ name: 'pack-test', version: '0.0.0' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: os.tmpdir() }));
        try {
          expect((await client.listTools()).tools.map((x) => x.name).sort()).toEqual([
            'convert_temperature',
            'get_forecast',
          ]);
        } finally {
          await client.close();
        }
      }
    }
  });

  it('a package with a binary for this machine only limits every bundle to it', async () => {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.mcpb'))) rmSync(path.join(dir, f));
    // As a napi-rs platform package: os and cpu in package.json, one .node file.
    const root = path.join(dir, 'node_modules/fake-host-only');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'fake-host-only', version: '2.0.0', os: [process.platform], cpu: [process.arch] }),
    );
    writeFileSync(path.join(root, `fake.${host}.node`), 'binary');
    addDependency('fake-host-only', '2.0.0');
    const r = await pack(dir, '--registry-name', 'io.github.example/weather');
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.mcpb'))).toEqual([`weather-0.1.0-${host}.mcpb`]);
    expect(r.stdout).toContain(`, for ${process.platform}\n`);
    const s = JSON.parse(readFileSync(path.join(dir, 'server.json'), 'utf8'));
    expect(s.packages.map((p: { registryType: string }) => p.registryType)).toEqual(['npm', 'mcpb']);
  });
});

it('a real native package from npm (@node-rs/xxhash, a napi-rs binary per platform): the bundle for this machine loads it', async (ctx) => {
  // Installed from the npm registry (or npm's cache); skipped where neither is reachable.
  const store = path.join(REPO, '.tmp/e2e/npm-xxhash');
  rmSync(store, { recursive: true, force: true });
  mkdirSync(store, { recursive: true });
  writeFileSync(path.join(store, 'package.json'), '{ "private": true }');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = await run(npm, ['install', '--no-audit', '--no-fund', '@node-rs/xxhash@1.7.8'], store, 90_000).catch(
    () => null,
  );
  if (install?.code !== 0) ctx.skip();

  const dir = scratch('pack-napi', path.join(REPO, 'examples/weather'));
  cpSync(path.join(store, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
  const pkgFile = path.join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  pkg.dependencies['@node-rs/xxhash'] = '1.7.8';
  writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  const handler = path.join(dir, 'src/handlers/tools/convert_temperature.ts');
  writeFileSync(
    handler,
    `import { xxh32 } from '@node-rs/xxhash';\n${readFileSync(handler, 'utf8').replace(
      'return `${value} °${from} = ${round1(converted)} °${to}`;',
      "return `${value} °${from} = ${round1(converted)} °${to} (${xxh32('mcpgen').toString(16)})`;",
    )}`,
  );
  expect((await run(process.execPath, [MCPGEN, 'generate', '-q'], dir)).code).toBe(0);
  expect((await buildServer(dir)).code).toBe(0);
  const r = await pack(dir, '--registry-name', 'io.github.example/weather');
  expect(r.code, r.stderr).toBe(0);
  const host = `${process.platform}-${process.arch}`;
  const name = `weather-0.1.0-${host}.mcpb`;
  // npm installed the binary of this platform only, so that is the one bundle.
  expect(readdirSync(dir).filter((f) => f.endsWith('.mcpb'))).toEqual([name]);
  const unpacked = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-mcpb-'));
  outside.push(unpacked);
  expect(await unpackExtension({ mcpbPath: path.join(dir, name), outputDir: unpacked, silent: true })).toBe(true);
  const m = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
  expect(m.compatibility.platforms).toEqual([process.platform]);
  const args = (m.server.mcp_config.args as string[]).map((a) => a.replace('${__dirname}', unpacked));
  const client = new Client({ name: 'pack-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: os.tmpdir() }));
  try {
    const res = await client.callTool({ name: 'convert_temperature', arguments: { value: 100, from: 'C' } });
    expect((res.content as { text: string }[])[0]!.text).toMatch(/^100 °C = 212 °F \([0-9a-f]+\)$/);
  } finally {
    await client.close();
  }
}, 180_000);
