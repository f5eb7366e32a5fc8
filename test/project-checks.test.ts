/**
 * What generate says about the user's own files it never edits: a src/main.ts out of step with
 * `transports`, and a package.json that lacks what the generated code, its build and its views need
 * or is not JSON at all (build refuses the latter at its line and column).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { ownerText } from '../cli/write/owner.js';
import { memoryIO, scratch } from './helpers/project.js';

/** A project as `mcpgen init` leaves it, with `transports` set as given. */
async function project(name: string, transports?: string, view = false): Promise<string> {
  const dir = scratch(name);
  const io = memoryIO(dir);
  expect(await runCli(['init', ...(view ? ['--view'] : [])], io), io.err).toBe(0);
  if (transports) setTransports(dir, transports);
  return dir;
}

function setTransports(dir: string, transports: string): void {
  const file = path.join(dir, 'mcpgen.yaml');
  const text = readFileSync(file, 'utf8').replace(/^transports:.*\n(?: {2}.*\n)*/m, '');
  writeFileSync(file, text.replace('\nschemas:', `\ntransports: ${transports}\n\nschemas:`));
}

async function generate(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(['generate', '-q', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('src/main.ts and transports', () => {
  it('names an entry that imports the HTTP entry no longer generated, and one that starts no HTTP server', async () => {
    const dir = await project('checks-entry-http');
    const main = readFileSync(path.join(dir, 'src/main.ts'), 'utf8');
    expect((await generate(dir)).err).not.toContain('src/main.ts');

    setTransports(dir, '{ stdio: {} }');
    const noHttp = await generate(dir);
    expect(noHttp.code).toBe(0);
    expect(noHttp.err).toContain(
      '! src/main.ts imports ./generated/http.js, which is generated only with transports.http: take out its HTTP part, or delete src/main.ts and run mcpgen generate',
    );
    // Never edited: the advice is the user's to follow.
    expect(readFileSync(path.join(dir, 'src/main.ts'), 'utf8')).toBe(main);

    // Followed: a new entry for stdio alone, and nothing more to say.
    rmSync(path.join(dir, 'src/main.ts'));
    const recreated = await generate(dir);
    expect(recreated.err).not.toContain('src/main.ts');
    expect(readFileSync(path.join(dir, 'src/main.ts'), 'utf8')).not.toContain('./generated/http.js');

    setTransports(dir, '{ stdio: {}, http: {} }');
    const json = memoryIO(dir);
    expect(await runCli(['generate', '--json'], json)).toBe(0);
    const next = JSON.parse(json.out).next as { message: string }[];
    expect(next.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^src\/main\.ts starts no Streamable HTTP server, and transports\.http is declared/),
    );
  });

  it('names an entry that serves stdio the manifest no longer declares', async () => {
    const dir = await project('checks-entry-stdio', '{ http: {} }');
    const r = await generate(dir);
    expect(r.err).toContain('! src/main.ts serves stdio, which transports no longer declares');
    expect(r.err).not.toContain('starts no Streamable HTTP server');
  });
});

describe('generate --check, diff and build', () => {
  it('fail on a handler of the user’s that is missing, which the build needs, until generate writes its starter', async () => {
    const dir = await project('checks-missing-handler');
    rmSync(path.join(dir, 'src/handlers/tools/greet.ts'));
    const check = await generate(dir, '--check');
    expect(check.code).toBe(1);
    const line =
      'missing   src/handlers/tools/greet.ts  (the handler of tool `greet`; yours: generate writes its starter)';
    expect(check.out).toContain(line);
    expect(check.err).toContain('✖ 1 file of yours is missing; run mcpgen generate');
    // build says the same, before tsc would say "Cannot find module", and leaves dist/ as it was.
    mkdirSync(path.join(dir, 'dist'));
    const build = memoryIO(dir);
    expect(await runCli(['build'], build)).toBe(1);
    expect(build.err).toBe(
      `${line}\n✖ 1 file of yours is missing; run mcpgen generate (it creates missing starters and never overwrites a file of yours): nothing was built\n`,
    );
    expect(build.out).not.toMatch(/TS2307/);
    expect(existsSync(path.join(dir, 'dist'))).toBe(true);
    const diff = memoryIO(dir);
    expect(await runCli(['diff'], diff)).toBe(1);
    expect(diff.out).toContain('--- /dev/null\n+++ b/src/handlers/tools/greet.ts');
    expect(diff.err).toContain('✖ 1 file of yours is missing; run mcpgen generate');
    expect((await generate(dir)).code).toBe(0);
    expect((await generate(dir, '--check')).code).toBe(0);
    // A file of the user's the build does not need is theirs to drop.
    rmSync(path.join(dir, 'README.md'));
    expect((await generate(dir, '--check')).code).toBe(0);
  });
});

describe('build after an edit of the manifest', () => {
  it('refuses to build generated code made from the manifest before the edit, until generate runs', async () => {
    const dir = await project('checks-stale-build');
    const file = path.join(dir, 'mcpgen.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^tools:\n/m, 'tools:\n  shout:\n    description: Says it loudly\n'),
    );
    mkdirSync(path.join(dir, 'dist'));
    const stale = memoryIO(dir);
    expect(await runCli(['build'], stale)).toBe(1);
    expect(stale.err).toBe(
      '✖ mcpgen.yaml changed since the last generate, so the generated code does not match it: run mcpgen generate, then build again: nothing was built\n',
    );
    expect(existsSync(path.join(dir, 'dist'))).toBe(true);
    expect((await generate(dir)).code).toBe(0);
    const build = memoryIO(dir);
    expect(await runCli(['build'], build), build.err).toBe(0);
  });
});

describe('rename while another mcpgen writes the project', () => {
  it('waits for that write (mcpgen dev regenerating on the same edit) instead of undoing the rename', async () => {
    const dir = await project('checks-rename-busy');
    // As a generate of mcpgen dev holds the project: its staging folder, owned by a live process.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      mkdirSync(path.join(dir, '.mcpgen-staging'));
      writeFileSync(path.join(dir, '.mcpgen-staging/owner'), ownerText(other.pid!));
      const released = setTimeout(() => rmSync(path.join(dir, '.mcpgen-staging'), { recursive: true }), 700);
      const io = memoryIO(dir);
      const code = await runCli(['rename', 'tool', 'greet', 'hello', '--yes'], io);
      clearTimeout(released);
      expect(code, io.err).toBe(0);
      expect(io.out).toContain('renamed tool "greet" to "hello"');
      expect(io.err).not.toContain('MCPG913');
      expect(existsSync(path.join(dir, 'src/handlers/tools/hello.ts'))).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('package.json', () => {
  it('a build script of the user’s own keeps its steps; mcpgen itself is asked for', async () => {
    const dir = await project('checks-package-build');
    const file = path.join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    pkg.scripts.build = "echo 'my build'";
    delete pkg.devDependencies.mcpgen;
    writeFileSync(file, JSON.stringify(pkg, null, 2));
    const r = await generate(dir);
    expect(r.err).toContain('scripts.build ("echo \'my build\'") does not run `mcpgen build`');
    expect(r.err).toContain("npm pkg set 'scripts.build=echo '\\''my build'\\'' && mcpgen build'");
    expect(r.err).toMatch(/mcpgen is not listed[\s\S]*npm install -D mcpgen@file:\S+/);
  });

  it('init beside a build script of the user’s own: kept, not offered under another name, extended by the steps', async () => {
    const dir = scratch('checks-init-build');
    const original = '{\n  "name": "legacy",\n  "scripts": { "build": "echo mybuild" }\n}\n';
    writeFileSync(path.join(dir, 'package.json'), original);
    const io = memoryIO(dir);
    expect(await runCli(['init'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(io.out).toContain(
      'scripts.build is yours ("echo mybuild"); the project also needs it to run `mcpgen build` (the steps below add it after yours)',
    );
    expect(io.out).not.toContain('build:mcp');
    expect(io.out).toContain("  npm pkg set 'scripts.build=echo mybuild && mcpgen build'");
    expect(io.out).toMatch(/ {2}npm install -D .*mcpgen@file:\S+/);
  });

  it('asks for the extension’s package when a view imports it', async () => {
    const dir = await project('checks-package-view', undefined, true);
    const file = path.join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    delete pkg.devDependencies['@modelcontextprotocol/ext-apps'];
    writeFileSync(file, JSON.stringify(pkg, null, 2));
    expect((await generate(dir)).err).toMatch(
      /@modelcontextprotocol\/ext-apps is not listed[\s\S]*npm install -D @modelcontextprotocol\/ext-apps@"\^2\.\d+\.\d+"/,
    );
    // A view of the user's own that does not use it needs no such package.
    writeFileSync(path.join(dir, 'ui/greet/main.ts'), 'document.body.textContent = "hi";\n');
    expect((await generate(dir)).err).not.toContain('ext-apps');
  });

  it('says where a package.json is not JSON; build stops there', async () => {
    const dir = await project('checks-package-invalid');
    writeFileSync(path.join(dir, 'package.json'), '{\n  "name": "x",\n  bad\n}\n');
    const r = await generate(dir);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^! package\.json:3:3: not valid JSON \(.+\): npm, the build and the checks/m);
    const build = memoryIO(dir);
    expect(await runCli(['build'], build)).toBe(2);
    expect(build.err).toMatch(/package\.json:3:3: not valid JSON/);
    expect(build.err).not.toMatch(/internal error|TS\d{4}/);
  });
});
