/**
 * The project files a team expects, checked as far as can be here: the CI workflow parses and
 * runs the steps it names, the Dockerfile (no docker here, so read, not built) is a multi-stage
 * build that runs as node with a health check that works against a server, .gitignore and
 * .dockerignore leave out bundles; and the dev loop's pruning of stale outputs removes only what
 * tsc emitted for a source that is gone.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pruneStale, sourcesOf } from '../cli/dev/build.js';
import { generate } from '../cli/generate.js';
import { mayCreate, PROJECT_FILES, userOwned } from '../cli/write/owned.js';

const CASES = path.resolve(import.meta.dirname, 'cases');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
const temp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-project-files-'));
  temps.push(dir);
  return dir;
};

async function files(name: string): Promise<Map<string, string>> {
  const dir = path.join(CASES, name);
  const result = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
  return new Map(result.files.map((f) => [f.path, f.content]));
}

function node(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** A Dockerfile's instructions: comments dropped, continuations joined. */
function instructions(text: string): { op: string; args: string }[] {
  const joined = text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = /^([A-Z]+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not an instruction: ${l}`);
      return { op: m[1]!, args: m[2]! };
    });
}

describe('the CI workflow', () => {
  it('parses, runs on push and pull_request, and names its steps in order', async () => {
    const text = (await files('minimal')).get('.github/workflows/mcp.yml')!;
    const wf = parse(text) as {
      on: Record<string, unknown>;
      jobs: Record<
        string,
        { 'runs-on': string; steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }
      >;
    };
    expect(Object.keys(wf.on)).toEqual(['push', 'pull_request']);
    const [job] = Object.values(wf.jobs);
    const setup = job!.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with).toEqual({ 'node-version': 20, cache: 'npm' });
    const runs = job!.steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(runs.slice(1)).toEqual([
      'npm ci',
      'npx mcpgen validate --format github',
      'npx mcpgen generate --check',
      'npm test',
    ]);
    // Written the same for every project: nothing of the machine that generated it.
    expect((await files('kitchen-sink')).get('.github/workflows/mcp.yml')).toBe(text);
  });

  it('stops first, naming them, on file: dependencies outside the repository', async () => {
    const text = (await files('minimal')).get('.github/workflows/mcp.yml')!;
    const check = (parse(text) as { jobs: { check: { steps: { run?: string }[] } } }).jobs.check.steps.find((s) =>
      s.run?.startsWith('node -e'),
    )!.run!;
    const script = /^node -e "(.*)"$/s.exec(check)![1]!;
    const dir = temp();
    mkdirSync(path.join(dir, 'vendor'));
    writeFileSync(path.join(dir, 'vendor/mcpgen-runtime-0.1.0.tgz'), '');
    const pkg = (deps: Record<string, string>, dev: Record<string, string>) =>
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies: deps, devDependencies: dev }));

    pkg({ '@mcpgen/runtime': 'file:../../dist/mcpgen-runtime-0.1.0.tgz' }, { mcpgen: 'file:../../no-such-mcpgen' });
    const away = await node(['-e', script], dir);
    expect(away.code).toBe(1);
    expect(away.out).toMatch(/^::error file=package\.json::@mcpgen\/runtime is file:\.\.\/\.\.\/dist/m);
    expect(away.out).toMatch(/^::error file=package\.json::mcpgen is file:\.\.\/\.\.\/no-such-mcpgen, /m);

    pkg({ '@mcpgen/runtime': 'file:vendor/mcpgen-runtime-0.1.0.tgz' }, { mcpgen: '^0.1.0', typescript: '^7.0.0' });
    expect(await node(['-e', script], dir)).toEqual({ code: 0, out: '' });
  });
});

describe('the Dockerfile', () => {
  it('is written only for a server with HTTP, with its .dockerignore', async () => {
    const stdio = await files('stdio-only');
    expect(stdio.has('Dockerfile')).toBe(false);
    expect(stdio.has('.dockerignore')).toBe(false);
    const http = await files('kitchen-sink');
    expect(http.get('.dockerignore')!.split('\n')).toEqual(
      expect.arrayContaining(['node_modules/', 'dist/', '.git/', '/*.mcpb']),
    );
  });

  it('builds with dev dependencies, runs without them as node, on the manifest’s port', async () => {
    const steps = instructions((await files('kitchen-sink')).get('Dockerfile')!);
    const froms = steps.flatMap((s, i) => (s.op === 'FROM' ? [i] : []));
    expect(froms).toHaveLength(2);
    expect(steps[froms[0]!]!.args).toMatch(/^node:20\S* AS build$/);
    const build = steps.slice(froms[0]!, froms[1]!);
    const final = steps.slice(froms[1]!);
    expect(build.filter((s) => s.op === 'RUN').map((s) => s.args)).toEqual(['npm ci', 'npm run build']);
    expect(final.filter((s) => s.op === 'RUN').map((s) => s.args)).toEqual([
      'npm ci --omit=dev && npm cache clean --force',
    ]);
    expect(final.some((s) => s.op === 'COPY' && s.args === '--from=build /app/dist/src ./dist/src')).toBe(true);
    const user = final.findIndex((s) => s.op === 'USER');
    expect(final[user]!.args).toBe('node');
    expect(user).toBeLessThan(final.findIndex((s) => s.op === 'CMD'));
    expect(final.find((s) => s.op === 'EXPOSE')!.args).toBe('3000');
    expect(JSON.parse(final.find((s) => s.op === 'CMD')!.args)).toEqual([
      'node',
      'dist/src/main.js',
      '--http',
      '--host',
      '0.0.0.0',
      '--port',
      '3000',
    ]);
    const health = /^(--\S+ )*CMD (\[.*\])$/.exec(final.find((s) => s.op === 'HEALTHCHECK')!.args)!;
    const [cmd, flag, script] = JSON.parse(health[2]!) as string[];
    expect([cmd, flag]).toEqual(['node', '-e']);
    expect(script).toContain("'http://127.0.0.1:3000/health'");
  });

  it('checks health with a script that passes on 200 and fails on 503 or no server', async () => {
    const health = instructions((await files('kitchen-sink')).get('Dockerfile')!).find((s) => s.op === 'HEALTHCHECK')!;
    const script = (JSON.parse(/CMD (\[.*\])$/.exec(health.args)![1]!) as string[])[2]!;
    let status = 200;
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url!);
      res.writeHead(status).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const at = script.replace(':3000/', `:${port}/`);
    try {
      expect((await node(['-e', at], os.tmpdir())).code).toBe(0);
      status = 503;
      expect((await node(['-e', at], os.tmpdir())).code).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(paths).toEqual(['/health', '/health']);
    expect((await node(['-e', at], os.tmpdir())).code).toBe(1);
  });

  it('listens on 3000 in the image when the manifest lets the port be picked (0)', async () => {
    const dir = temp();
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      'version: 1\nserver: { name: "@acme/any~port", version: 1.0.0 }\ntransports: { http: { port: 0 } }\n',
    );
    const result = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
    const docker = result.files.find((f) => f.path === 'Dockerfile');
    if (!docker) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
    expect(instructions(docker.content).find((s) => s.op === 'EXPOSE')!.args).toBe('3000');
  });
});

describe('.gitignore', () => {
  it('leaves out bundles and npm pack tarballs at the root, keeps server.json', async () => {
    const lines = (await files('minimal')).get('.gitignore')!.split('\n');
    expect(lines).toEqual(expect.arrayContaining(['node_modules/', 'dist/', '/*.mcpb', '/*.tgz']));
    expect(lines.filter((l) => !l.startsWith('#') && l.includes('server.json'))).toEqual([]);
  });
});

describe('the new files are the user’s once created', () => {
  it.each(['.github/workflows/mcp.yml', 'Dockerfile', '.dockerignore'])('%s', async (file) => {
    expect(PROJECT_FILES).toContain(file);
    expect(userOwned(file)).toBe(true);
    expect(mayCreate(file)).toBe(true);
    const result = await generate({
      manifest: path.join(CASES, 'kitchen-sink/mcpgen.yaml'),
      outDir: path.join(CASES, 'kitchen-sink'),
      generatorVersion: null,
      exists: (p) => p === file,
    });
    expect(result.files.find((f) => f.path === file)).toMatchObject({ owner: 'user', content: '' });
  });
});

describe('pruning stale build output (mcpgen dev)', () => {
  it('maps outputs to their sources', () => {
    expect(sourcesOf('src/a.js')).toEqual(['src/a.ts', 'src/a.tsx', 'src/a.js', 'src/a.jsx']);
    expect(sourcesOf('src/a.js.map')).toEqual(sourcesOf('src/a.js'));
    expect(sourcesOf('src/a.d.ts')).toEqual(sourcesOf('src/a.js'));
    expect(sourcesOf('src/a.d.ts.map')).toEqual(sourcesOf('src/a.js'));
    expect(sourcesOf('src/a.test.js')).toEqual(['src/a.test.ts', 'src/a.test.tsx', 'src/a.test.js', 'src/a.test.jsx']);
    expect(sourcesOf('src/m.mjs')).toEqual(['src/m.mts', 'src/m.mjs']);
    expect(sourcesOf('src/m.d.cts')).toEqual(['src/m.cts', 'src/m.cjs']);
    expect(sourcesOf('src/data.json')).toBeNull();
    expect(sourcesOf('src/notes.txt')).toBeNull();
  });

  function project(tsconfig: object): string {
    const dir = temp();
    const put = (file: string, text = '') => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    put('tsconfig.json', JSON.stringify(tsconfig));
    put('src/main.ts');
    put('test/generated/contract.test.ts');
    for (const f of [
      'dist/src/main.js',
      'dist/src/main.js.map',
      'dist/src/gone.js',
      'dist/src/gone.js.map',
      'dist/src/gone.d.ts',
      'dist/src/data.json',
      'dist/test/generated/contract.test.js',
      'dist/test/handlers/tools/gone.test.js',
      'dist/test/handlers/tools/gone.test.js.map',
      'dist/other/gone.js',
    ])
      put(f);
    return dir;
  }
  const generated = {
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: '.', outDir: 'dist' },
    include: ['src/**/*.ts', 'test/**/*.ts'],
  };
  const tree = (dir: string) => (readdirSync(path.join(dir, 'dist'), { recursive: true }) as string[]).sort();

  it('removes only what tsc emitted for a source that is gone, under dist/src and dist/test, and the folders it empties', () => {
    const dir = project(generated);
    const elsewhere = temp();
    writeFileSync(path.join(elsewhere, 'gone.js'), '');
    symlinkSync(elsewhere, path.join(dir, 'dist/src/linked'));
    expect(pruneStale(dir).sort()).toEqual(
      [
        'dist/src/gone.d.ts',
        'dist/src/gone.js',
        'dist/src/gone.js.map',
        'dist/test/handlers/tools/gone.test.js',
        'dist/test/handlers/tools/gone.test.js.map',
      ].sort(),
    );
    expect(tree(dir)).toEqual(
      [
        'other',
        'other/gone.js',
        'src',
        'src/data.json',
        'src/linked',
        'src/linked/gone.js', // listed through the link, left where it is
        'src/main.js',
        'src/main.js.map',
        'test',
        'test/generated',
        'test/generated/contract.test.js',
      ]
        .map(path.normalize)
        .sort(),
    );
    expect(readdirSync(elsewhere)).toEqual(['gone.js']);
  });

  it('removes nothing where dist/ does not mirror the project folder', () => {
    for (const compilerOptions of [
      { ...generated.compilerOptions, rootDir: 'src' },
      { ...generated.compilerOptions, outDir: 'build' },
    ]) {
      const dir = project({ ...generated, compilerOptions });
      expect(pruneStale(dir)).toEqual([]);
    }
    const unreadable = project(generated);
    writeFileSync(path.join(unreadable, 'tsconfig.json'), '{ not json');
    expect(pruneStale(unreadable)).toEqual([]);
  });
});
