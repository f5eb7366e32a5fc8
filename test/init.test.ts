/**
 * `mcpgen init`: the starter project installs, type-checks, passes its tests and serves, untouched.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { connectStdio, memoryIO, run, scratch, TSC } from './helpers/project.js';

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
    for (const f of ['package.json', 'tsconfig.json', 'src/main.ts', 'src/handlers/tools/greet.ts', 'src/handlers/templates/greeting.ts', 'test/generated/contract.test.ts'])
      expect(existsSync(path.join(dir, f)), f).toBe(true);

    const validate = memoryIO(dir);
    expect(await runCli(['validate'], validate), validate.err).toBe(0);

    // The project, untouched: strict type-check, its own tests, and a server that answers.
    const tsc = await run(TSC, ['-p', 'tsconfig.json'], dir);
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
    expect(existsSync(path.join(dir, 'mcpgen.yaml'))).toBe(false);
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

