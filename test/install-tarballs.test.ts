/**
 * The path a new user walks, from mcpgen's packed tarball, in a temporary folder outside the
 * repository, with real npm against the registry: install mcpgen into a private prefix, `mcpgen
 * init`, then in the project `npm install` (the runtime from the tarball mcpgen ships), `npm test`,
 * `npm run dev`, a real client over stdio, and a feature whose optional peer is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, REPO, run } from './helpers/project.js';

const skip = process.env.MCPGEN_SKIP_NPM_INSTALL === '1';
const RUNTIME_TGZ = 'dist/mcpgen-runtime-0.1.0.tgz';
const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

const OAUTH_MANIFEST = `version: 1
server: { name: oauth-server, version: 0.1.0, description: OAuth resource server without jose }
transports:
  stdio: {}
  http:
    auth:
      oauth:
        issuer: https://issuer.example.com/
tools:
  ping:
    description: Answers pong
`;

let root = '';
let prefix = '';
let installed = '';
let mcpgen = '';
let work = '';
let project = '';
const started: ChildProcess[] = [];

/**
 * A user's shell, not this test run's: no npm script variables of the repository's `npm test`, no
 * vitest variables, and no PATH entry inside the repository (nothing of it can be found by name).
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v === undefined ||
      /^(npm_(package|lifecycle)_|npm_config_(local_|global_)?prefix$|INIT_CWD$|VITEST|NODE_ENV$|NODE_OPTIONS$)/i.test(
        k,
      )
    )
      continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((p) => p && path.relative(REPO, path.resolve(p)).startsWith('..'))
    .join(path.delimiter);
  return env;
}

const npm = (args: string[], cwd: string, timeoutMs = 240_000) => run('npm', args, cwd, timeoutMs, userEnv());

describe.skipIf(skip)('a new user, from the packed mcpgen tarball', () => {
  beforeAll(async () => {
    // dist/ is built by the test command; the runtime tarball in it is what projects install.
    expect(existsSync(path.join(REPO, RUNTIME_TGZ)), `${RUNTIME_TGZ} is missing: run npm run build`).toBe(true);
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-new-user-')));
    expect(path.relative(REPO, root).startsWith('..'), 'the temporary folder must be outside the repository').toBe(
      true,
    );
    const pack = await run(
      'npm',
      ['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', root],
      REPO,
      120_000,
    );
    expect(pack.code, pack.stderr).toBe(0);
    const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path);
    for (const f of ['bin/mcpgen.js', 'dist/main.js', RUNTIME_TGZ]) expect(files).toContain(f);
    prefix = path.join(root, 'prefix');
    const install = await npm(
      ['install', '-g', '--prefix', prefix, ...NPM_QUIET, path.join(root, packed[0]!.filename)],
      root,
    );
    expect(install.code, install.stderr).toBe(0);
    installed =
      process.platform === 'win32'
        ? path.join(prefix, 'node_modules/mcpgen')
        : path.join(prefix, 'lib/node_modules/mcpgen');
    mcpgen = process.platform === 'win32' ? path.join(prefix, 'mcpgen.cmd') : path.join(prefix, 'bin/mcpgen');
    work = path.join(root, 'work');
    mkdirSync(work);
    project = path.join(work, 'my-server');
  }, 300_000);

  afterAll(() => {
    for (const child of started) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(process.platform === 'win32' ? child.pid! : -child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('mcpgen init my-server, run from the installed bin, creates the project and prints the next steps', async () => {
    const init = await run(mcpgen, ['init', 'my-server'], work, 60_000, userEnv());
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain('Your MCP server "my-server" is ready. Next:');
    for (const step of ['cd my-server', 'npm install', 'npm test', 'npm run dev'])
      expect(init.stdout).toContain(`  ${step}`);
    // The project names the runtime tarball and the mcpgen of the installed package, not the repository's.
    const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const fileTarget = (spec: string | undefined) => {
      expect(spec).toMatch(/^file:/);
      return path.resolve(project, spec!.slice('file:'.length));
    };
    expect(fileTarget(pkg.dependencies!['@mcpgen/runtime'])).toBe(path.join(installed, RUNTIME_TGZ));
    expect(fileTarget(pkg.devDependencies!.mcpgen)).toBe(installed);
  });

  it('npm install installs a copy of the runtime and the project’s own mcpgen', async () => {
    const install = await npm(['install', ...NPM_QUIET], project);
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const runtime = path.join(project, 'node_modules/@mcpgen/runtime');
    expect(lstatSync(runtime).isSymbolicLink(), 'the runtime is unpacked from its tarball, not linked').toBe(false);
    expect(JSON.parse(readFileSync(path.join(runtime, 'package.json'), 'utf8')).version).toBe('0.1.0');
    expect(existsSync(path.join(runtime, 'dist/index.js'))).toBe(true);
    // A `file:` folder is linked: it must lead to the installed mcpgen, with its bin on the project's PATH.
    expect(realpathSync(path.join(project, 'node_modules/mcpgen'))).toBe(realpathSync(installed));
    expect(
      existsSync(path.join(project, 'node_modules/.bin', process.platform === 'win32' ? 'mcpgen.cmd' : 'mcpgen')),
    ).toBe(true);
  }, 300_000);

  it('npm test builds the project and passes', async () => {
    const test = await npm(['test'], project, 180_000);
    expect(test.code, test.stdout.slice(-4000) + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^[#ℹ] fail 0$/m);
  }, 200_000);

  it('a real MCP client starts the built server over stdio and lists its tools', async () => {
    const client = await connectStdio(project);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('npm run dev serves over HTTP until it is stopped', async () => {
    // --port 0: the manifest's port 3000 may be taken on a shared machine. Its own process group, so
    // the stop reaches npm, the shell it starts and mcpgen dev (which stops the server it started).
    const child = spawn('npm', ['run', 'dev', '--', '--port', '0'], {
      cwd: project,
      env: userEnv(),
      detached: process.platform !== 'win32',
    });
    started.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    // 'close': the process has exited and every process holding its output (mcpgen dev) has too.
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('close', (code, signal) => resolve(signal ?? code)),
    );

    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not serving within 120 s:\n${out}\n${err}`)), 120_000);
      child.stdout!.on('data', () => {
        const m = /✔ serving at (\S+)/.exec(out);
        if (m) clearTimeout(timer), resolve(new URL(m[1]!));
      });
      void exited.then((code) => reject(new Error(`npm run dev exited (${code}):\n${out}\n${err}`)));
    });
    const client = await connectHttp(url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
    } finally {
      await client.close();
    }

    process.kill(process.platform === 'win32' ? child.pid! : -child.pid!, 'SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 30_000)),
    ]);
    expect(stopped, `npm run dev still running 30 s after SIGTERM:\n${out}\n${err}`).toBe(true);
    expect(out).toContain('mcpgen dev: stopped');
    // The server mcpgen dev started is gone with it.
    await expect(fetch(url, { method: 'POST', signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  }, 180_000);

  it('an OAuth server whose jose is not installed stops at start-up, naming the install', async () => {
    const dir = path.join(work, 'oauth-server');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), OAUTH_MANIFEST);
    const gen = await run(mcpgen, ['generate', '-q'], dir, 60_000, userEnv());
    expect(gen.code, gen.stdout + gen.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies.jose, 'the generated package.json lists the feature’s peer').toBeDefined();
    const install = await npm(['install', ...NPM_QUIET], dir);
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const build = await npm(['run', 'build', '--silent'], dir, 120_000);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    // The MCP client (a dev dependency, only needed by the tests) depends on jose too: removing jose
    // alone leaves the client's copy, so both go, as in a deployment without dev dependencies.
    const remove = await npm(['uninstall', ...NPM_QUIET, 'jose', '@modelcontextprotocol/client'], dir);
    expect(remove.code, remove.stdout + remove.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'node_modules/jose')), 'jose is still installed').toBe(false);

    const start = await run(
      process.execPath,
      [path.join(dir, 'dist/src/main.js'), '--http', '--port', '0'],
      dir,
      30_000,
      userEnv(),
    );
    expect(start.code, start.stderr).not.toBe(0);
    expect(start.code, start.stderr).not.toBeNull();
    expect(start.stderr).toContain('npm install jose');
    expect(start.stderr).toContain('transports.http.auth.oauth');
    expect(start.stderr, 'a message, not a stack trace').not.toMatch(/^\s+at /m);
    expect(start.stderr).not.toContain('MCP over Streamable HTTP at');
  }, 360_000);
});
