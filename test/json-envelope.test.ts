/**
 * `--json`: every command prints one envelope (docs/cli.md#--json) on stdout and nothing else,
 * with the same fields for success, diagnostics (exit 1), usage errors (exit 2), environment and
 * internal errors; watch and dev refuse it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, scratch } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: json-envelope, version: 0.1.0 }
tools:
  get_weather:
    description: Current weather for a city
    input: { type: object, properties: { city: { type: string } }, required: [city] }
`;

/** The envelope's fields, in order (a command's own fields come after them). */
const FIELDS = [
  'mcpgen',
  'command',
  'ok',
  'exitCode',
  'error',
  'errors',
  'warnings',
  'diagnostics',
  'project',
  'changes',
  'next',
  'applied',
];
const DIAGNOSTIC_FIELDS = [
  'file',
  'line',
  'column',
  'endLine',
  'endColumn',
  'severity',
  'code',
  'rule',
  'message',
  'path',
  'entry',
  'hint',
];

interface Envelope {
  mcpgen: number;
  command: string | null;
  ok: boolean;
  exitCode: number;
  error: { kind: string; message: string; details: string[]; stack: string | null } | null;
  errors: number;
  warnings: number;
  diagnostics: Record<string, unknown>[];
  project: string | null;
  changes: { action: string; path: string; owner: string; from: string | null }[];
  next: { message: string; command: string | null; cwd: string | null }[];
  applied: boolean;
  [extra: string]: unknown;
}

/** Runs mcpgen in-process; stdout must be exactly one JSON document with every field of the envelope. */
async function json(cwd: string, ...args: string[]): Promise<Envelope & { stderr: string }> {
  const io = memoryIO(cwd);
  const code = await runCli(args, io);
  expect(io.out.endsWith('}\n'), io.out).toBe(true);
  const env = JSON.parse(io.out) as Envelope;
  expect(Object.keys(env).slice(0, FIELDS.length)).toEqual(FIELDS);
  expect(env.mcpgen).toBe(1);
  expect(env.exitCode).toBe(code);
  expect(env.ok).toBe(code === 0);
  expect(env.errors).toBe(env.diagnostics.filter((d) => d.severity === 'error').length);
  for (const d of env.diagnostics) expect(Object.keys(d)).toEqual(DIAGNOSTIC_FIELDS);
  for (const c of env.changes) expect(Object.keys(c)).toEqual(['action', 'path', 'owner', 'from']);
  for (const n of env.next) expect(Object.keys(n)).toEqual(['message', 'command', 'cwd']);
  if (env.error) expect(Object.keys(env.error)).toEqual(['kind', 'message', 'details', 'stack']);
  // Beside the envelope's own fields, not among them.
  return Object.defineProperty(env as Envelope & { stderr: string }, 'stderr', { value: io.err, enumerable: false });
}

function project(name: string, manifest = MANIFEST): string {
  const dir = scratch(`json-envelope-${name}`);
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
  return dir;
}

const byAction = (env: Envelope, action: string) => env.changes.filter((c) => c.action === action).map((c) => c.path);

describe('--json', () => {
  it('validate: the diagnostics of --format json, inside the envelope', async () => {
    const dir = project('validate', MANIFEST.replace('version: 0.1.0', 'version: 0.1.0\n  bogus: 1'));
    const env = await json(dir, 'validate', '--json');
    expect(env).toMatchObject({ command: 'validate', ok: false, exitCode: 1, error: null, project: null });
    expect(env.errors).toBeGreaterThan(0);
    const plain = memoryIO(dir);
    await runCli(['validate', '--format', 'json'], plain);
    expect(env.diagnostics).toEqual(JSON.parse(plain.out));

    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    const clean = await json(dir, 'validate', '--json', '--rule', 'missing-description=warn');
    expect(clean).toMatchObject({ ok: true, exitCode: 0, errors: 0 });
    expect(clean.warnings).toBe(clean.diagnostics.length);
  });

  it('validate: usage errors are envelopes too (exit 2)', async () => {
    const dir = project('validate-usage');
    for (const args of [['--format', 'sarif'], ['--max-warnings', 'many'], ['-f', 'missing.yaml'], ['--bogus']]) {
      const env = await json(dir, 'validate', ...args, '--json');
      expect(env, args.join(' ')).toMatchObject({ command: 'validate', ok: false, exitCode: 2 });
      expect(env.error?.kind).toBe('usage');
      expect(env.error?.message).toBeTruthy();
    }
  });

  it('generate: the plan as changes, applied, then up to date; --dry-run and --check', async () => {
    const dir = project('generate');
    const first = await json(dir, 'generate', '--json');
    expect(first).toMatchObject({ command: 'generate', ok: true, exitCode: 0, applied: true, project: '.' });
    expect(byAction(first, 'create')).toEqual(
      expect.arrayContaining(['src/generated/server.ts', 'src/handlers/tools/get_weather.ts', 'package.json']),
    );
    expect(first.changes.find((c) => c.path === 'src/handlers/tools/get_weather.ts')?.owner).toBe('user');
    expect(first.changes.find((c) => c.path === 'src/generated/server.ts')?.owner).toBe('generated');

    // Answered from the stamp: the same files, every one unchanged or kept.
    const again = await json(dir, 'generate', '--json');
    expect(again).toMatchObject({ ok: true, applied: true });
    expect(new Set(again.changes.map((c) => c.action))).toEqual(new Set(['unchanged', 'keep']));
    expect(again.changes.map((c) => c.path).sort()).toEqual(first.changes.map((c) => c.path).sort());

    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('Current weather', 'The weather'));
    const dry = await json(dir, 'generate', '--dry-run', '--json');
    expect(dry).toMatchObject({ ok: true, applied: false });
    expect(byAction(dry, 'update')).toContain('src/generated/server.ts');

    const check = await json(dir, 'generate', '--check', '--json');
    expect(check).toMatchObject({ ok: false, exitCode: 1, applied: false, error: null });
    expect(byAction(check, 'update')).toContain('src/generated/server.ts');
    expect(check.next).toContainEqual({ message: expect.any(String), command: 'mcpgen generate', cwd: '.' });
  });

  it('generate: manifest errors (exit 1), usage errors (exit 2), dependencies as next steps', async () => {
    const dir = project('generate-errors', MANIFEST.replace('type: object, properties', 'type: objekt, properties'));
    const broken = await json(dir, 'generate', '--json');
    expect(broken).toMatchObject({ ok: false, exitCode: 1, applied: false, changes: [], error: null });
    expect(broken.errors).toBeGreaterThan(0);
    expect(broken.diagnostics[0]).toMatchObject({ file: 'mcpgen.yaml', severity: 'error' });

    const both = await json(dir, 'generate', '--check', '--dry-run', '--json');
    expect(both).toMatchObject({ ok: false, exitCode: 2, error: { kind: 'usage' } });
    const unknown = await json(dir, 'generate', '--bogus', '--json');
    expect(unknown).toMatchObject({ command: 'generate', exitCode: 2, error: { kind: 'usage' } });
    expect(unknown.error?.message).toContain('--bogus');

    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "json-envelope", "type": "module" }\n');
    const deps = await json(dir, 'generate', '--json');
    expect(deps.ok).toBe(true);
    expect(deps.changes).toContainEqual({ action: 'keep', path: 'package.json', owner: 'user', from: null });
    expect(deps.next.map((n) => n.command)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^npm install @mcpgen\/runtime@/)]),
    );
    expect(deps.next.every((n) => n.cwd === '.')).toBe(true);
  });

  it('diff: the unified diff in `diff`, and the plan', async () => {
    const dir = project('diff');
    await json(dir, 'generate', '--json');
    const clean = await json(dir, 'diff', '--json');
    expect(clean).toMatchObject({ command: 'diff', ok: true, diff: '', applied: false });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('Current weather', 'The weather'));
    const env = await json(dir, 'diff', '--json');
    expect(env).toMatchObject({ ok: false, exitCode: 1 });
    expect(env.diff).toContain('--- a/src/generated/server.ts\n+++ b/src/generated/server.ts\n');
    expect(byAction(env, 'update')).toContain('src/generated/server.ts');
    expect(Object.keys(env).at(-1)).toBe('diff');
  });

  it('init: the files created and the next steps, run in the new folder', async () => {
    const parent = scratch('json-envelope-init');
    const env = await json(parent, 'init', 'my-app', '--json');
    expect(env).toMatchObject({ command: 'init', ok: true, applied: true, project: 'my-app' });
    expect(env.changes[0]).toEqual({ action: 'create', path: 'mcpgen.yaml', owner: 'user', from: null });
    expect(byAction(env, 'create')).toContain('src/main.ts');
    const commands = env.next.filter((n) => n.command !== null);
    expect(commands.map((n) => n.command)).toEqual(['npm install', 'npm test', 'npm start', 'npm run dev']);
    expect(commands.every((n) => n.cwd === 'my-app')).toBe(true);

    const again = await json(parent, 'init', 'my-app', '--json');
    expect(again).toMatchObject({ ok: false, exitCode: 2, applied: false, error: { kind: 'usage' } });
    expect(again.error?.message).toContain('already exists');
  });

  it('rename: the planned moves and edits, then applied with --yes; a refusal with its details', async () => {
    const dir = project('rename');
    await json(dir, 'generate', '--json');
    const plan = await json(dir, 'rename', 'tool', 'get_weather', 'get_forecast', '--json');
    expect(plan).toMatchObject({ command: 'rename', ok: true, applied: false, project: '.' });
    expect(plan.changes).toEqual([
      { action: 'edit', path: 'mcpgen.yaml', owner: 'user', from: null },
      {
        action: 'move',
        path: 'src/handlers/tools/get_forecast.ts',
        owner: 'user',
        from: 'src/handlers/tools/get_weather.ts',
      },
      { action: 'edit', path: 'src/handlers/tools/get_forecast.ts', owner: 'user', from: null },
      {
        action: 'move',
        path: 'test/handlers/tools/get_forecast.test.ts',
        owner: 'user',
        from: 'test/handlers/tools/get_weather.test.ts',
      },
      { action: 'edit', path: 'test/handlers/tools/get_forecast.test.ts', owner: 'user', from: null },
    ]);
    expect(plan.next).toEqual([
      {
        message: expect.stringContaining('--yes'),
        command: 'mcpgen rename tool get_weather get_forecast --yes',
        cwd: '.',
      },
    ]);

    const done = await json(dir, 'rename', 'tool', 'get_weather', 'get_forecast', '--yes', '--json');
    expect(done).toMatchObject({ ok: true, applied: true });
    expect(done.changes.slice(0, 5)).toEqual(plan.changes);
    // Then generate's plan: the moved handler is the user's, kept.
    expect(byAction(done, 'keep')).toContain('src/handlers/tools/get_forecast.ts');

    const refused = await json(dir, 'rename', 'tool', 'get_weathr', 'x', '--json');
    expect(refused).toMatchObject({ ok: false, exitCode: 2, applied: false, error: { kind: 'usage' } });
    const unknownKind = await json(dir, 'rename', 'widget', 'a', 'b', '--json');
    expect(unknownKind).toMatchObject({ exitCode: 2, error: { kind: 'usage' } });
  });

  it('pack: the bundle and server.json written, each bundle with its SHA-256; unbuilt and stale refused', async () => {
    const dir = project('pack');
    await json(dir, 'generate', '--json');
    const unbuilt = await json(dir, 'pack', '--json');
    expect(unbuilt).toMatchObject({ command: 'pack', exitCode: 2, changes: [], error: { kind: 'usage' } });
    expect(unbuilt.error?.message).toContain('does not exist: build the project first');

    // A build stands in for tsc's (test/pack.test.ts packs real ones): the envelope is what is checked here.
    mkdirSync(path.join(dir, 'dist/src'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/src/main.js'), "console.log('built');\n");
    const env = await json(dir, 'pack', '--registry-name', 'io.github.example/json-envelope', '--json');
    expect(env).toMatchObject({ ok: true, applied: true, project: '.' });
    expect(env.changes).toEqual([
      { action: 'create', path: 'json-envelope-0.1.0.mcpb', owner: 'generated', from: null },
      { action: 'create', path: 'server.json', owner: 'generated', from: null },
    ]);
    const bundle = readFileSync(path.join(dir, 'json-envelope-0.1.0.mcpb'));
    expect(env.bundles).toEqual([
      {
        path: 'json-envelope-0.1.0.mcpb',
        platforms: ['darwin', 'linux', 'win32'],
        bytes: bundle.length,
        files: expect.any(Number),
        sha256: createHash('sha256').update(bundle).digest('hex'),
      },
    ]);
    expect(env.next.map((n) => n.message)).toContainEqual(expect.stringMatching(/^server\.json: bundle URL/));
    const again = await json(dir, 'pack', '--registry-name', 'io.github.example/json-envelope', '--json');
    expect(byAction(again, 'update')).toEqual(['json-envelope-0.1.0.mcpb', 'server.json']);

    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('Current weather', 'The weather'));
    const stale = await json(dir, 'pack', '--json');
    expect(stale).toMatchObject({ ok: false, exitCode: 1, applied: false });
    expect(byAction(stale, 'update')).toContain('src/generated/server.ts');
  });

  it('schema: the schema under `schema`', async () => {
    const env = await json(scratch('json-envelope-schema'), 'schema', '--json');
    expect(env).toMatchObject({ command: 'schema', ok: true, project: null, changes: [] });
    expect(env.schema).toMatchObject({ type: 'object', properties: { version: expect.anything() } });
  });

  it('watch and dev refuse --json (exit 2); help goes to stderr', async () => {
    const dir = project('watch');
    for (const command of ['watch', 'dev']) {
      const env = await json(dir, command, '--json');
      expect(env).toMatchObject({ command, ok: false, exitCode: 2, error: { kind: 'usage' } });
      expect(env.error?.message).toContain('runs until stopped');
    }
    const help = await json(dir, 'generate', '--help', '--json');
    expect(help).toMatchObject({ ok: true, exitCode: 0 });
    expect(help.stderr).toContain('--json');
  });

  it('environment and internal errors: an envelope, the stack only under --debug', async () => {
    const internal = await json(42 as unknown as string, 'generate', '--dry-run', '--json');
    expect(internal).toMatchObject({ ok: false, exitCode: 2, error: { kind: 'internal', stack: null } });
    const debug = await json(42 as unknown as string, 'generate', '--dry-run', '--json', '--debug');
    expect(debug.error?.stack).toMatch(/\n {4}at /);

    const parent = scratch('json-envelope-env');
    const locked = path.join(parent, 'locked');
    mkdirSync(locked);
    const root = process.getuid?.() === 0;
    if (root && spawnSync('chattr', ['+i', locked]).status !== 0) return; // nothing can refuse root here
    if (!root) spawnSync('chmod', ['555', locked]);
    try {
      const env = await json(parent, 'init', 'locked', '--json');
      expect(env).toMatchObject({ ok: false, exitCode: 2, error: { kind: 'environment', stack: null } });
      expect(env.error?.message).toMatch(/locked/);
    } finally {
      spawnSync(root ? 'chattr' : 'chmod', root ? ['-i', locked] : ['755', locked]);
    }
    expect(readdirSync(locked)).toEqual([]);
  });
});
