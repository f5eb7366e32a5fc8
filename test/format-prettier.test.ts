/**
 * `options.format: prettier`: generate runs the project's own prettier, with the project's
 * configuration, on what it writes, so `prettier --check` passes on the project; without prettier
 * in the project it stops with MCPG920 at the option and writes nothing. By default the project's
 * `.prettierignore` keeps prettier off the generated folders, so `prettier --check .` passes too.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO, run, scratch } from './helpers/project.js';

const PRETTIER_BIN = path.join(REPO, 'node_modules/prettier/bin/prettier.cjs');

const manifest = (format: string | null) =>
  [
    'version: 1',
    'server: { name: fmt, version: 0.1.0 }',
    ...(format ? ['options:', `  format: ${format}`] : []),
    'tools:',
    '  add:',
    '    description: Add two numbers',
    '    input:',
    '      type: object',
    '      properties:',
    '        a: { type: number, description: First number }',
    '        b: { type: number, description: Second number }',
    '      required: [a, b]',
    '',
  ].join('\n');

/** A project folder whose node_modules has prettier (the repository's), with a style unlike mcpgen's. */
function project(name: string, format: string | null, withPrettier = true): string {
  // Without prettier: outside the repository, whose own prettier Node would find up the tree.
  const dir = withPrettier ? scratch(name) : mkdtempSync(path.join(os.tmpdir(), `mcpgen-${name}-`));
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest(format));
  writeFileSync(
    path.join(dir, '.prettierrc.json'),
    JSON.stringify({ semi: false, singleQuote: false, printWidth: 80 }),
  );
  if (withPrettier) {
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules/prettier'), path.join(dir, 'node_modules/prettier'));
  }
  return dir;
}

async function generate(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(['generate', ...args], io);
  return { code, out: io.out, err: io.err };
}

const generated = (dir: string) => readdirSync(path.join(dir, 'src/generated')).map((f) => `src/generated/${f}`);

describe('options.format: prettier', () => {
  it("formats what generate writes with the project's prettier and configuration; a second run changes nothing", async () => {
    const dir = project('format-prettier', 'prettier');
    const first = await generate(dir);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const server = readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8');
    // The project's style (no semicolons, double quotes), not mcpgen's.
    expect(server).toMatch(/from "@modelcontextprotocol\/server"\n/);
    const check = await run(
      process.execPath,
      [PRETTIER_BIN, '--check', '--ignore-path=', ...generated(dir), 'src/handlers/tools/add.ts', 'package.json'],
      dir,
    );
    expect(check.stderr + check.stdout).toContain('All matched files use Prettier code style!');
    expect(check.code).toBe(0);
    const again = await generate(dir);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/0 created, 0 updated/);
  });

  it('without prettier in the project: MCPG920 at the option, nothing written', async () => {
    const dir = project('format-prettier-missing', 'prettier', false);
    const r = await generate(dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^mcpgen\.yaml:4:11: error MCPG920 prettier is not installed in .*format-prettier-missing-\w+; install it there: npm install --save-dev prettier/m,
    );
    expect(r.err).toContain('nothing was written');
    expect(existsSync(path.join(dir, 'src'))).toBe(false);
  });

  it('a project prettier configuration that cannot be read: MCPG920, nothing written', async () => {
    const dir = project('format-prettier-bad-config', 'prettier');
    writeFileSync(path.join(dir, '.prettierrc.json'), '{ "semi": ');
    const r = await generate(dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error MCPG920 the project's prettier configuration cannot be read/);
    expect(existsSync(path.join(dir, 'src'))).toBe(false);
  });

  it("by default: mcpgen's layout, and the project's .prettierignore keeps prettier off the generated folders", async () => {
    const dir = project('format-default', null);
    expect((await generate(dir)).code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).toMatch(
      /from '@modelcontextprotocol\/server';\n/,
    );
    expect(readFileSync(path.join(dir, '.prettierignore'), 'utf8')).toMatch(/^src\/generated\/$/m);
    // Only the generated folders are left alone: prettier still checks the user's files.
    const listed = await run(process.execPath, [PRETTIER_BIN, '--list-different', '.'], dir);
    const different = listed.stdout.split('\n').filter(Boolean);
    expect(different.filter((f) => f.startsWith('src/generated/') || f.startsWith('test/generated/'))).toEqual([]);
    expect(different).toContain('src/handlers/tools/add.ts');
  });
});

describe('--format', () => {
  it("prettier formats with the project's prettier over the manifest's mcpgen layout; mcpgen goes back; --check and diff see the difference", async () => {
    const dir = project('format-flag', null);
    expect((await generate(dir, '-q')).code).toBe(0);
    const ours = readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8');
    expect((await generate(dir, '--check', '--format', 'prettier')).code).toBe(1);
    const io = memoryIO(dir);
    expect(await runCli(['diff', '--format', 'prettier'], io)).toBe(1);
    expect(io.out).toMatch(/^-} from '@modelcontextprotocol\/server';\n\+} from "@modelcontextprotocol\/server"$/m);
    expect((await generate(dir, '-q', '--format', 'prettier')).code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).toMatch(
      /from "@modelcontextprotocol\/server"\n/,
    );
    // A second prettier run changes nothing, and is never taken for up to date from the stamp.
    expect((await generate(dir, '--check', '--format', 'prettier')).code).toBe(0);
    expect((await generate(dir, '-q', '--format', 'mcpgen')).code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).toBe(ours);
  });

  it('refuses a layout it does not know, with the choices (exit 2)', async () => {
    const dir = project('format-flag-bad', null);
    const r = await generate(dir, '--format', 'biome');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/argument 'biome' is invalid\. Allowed choices are mcpgen, prettier/);
  });
});
