/**
 * The staging folder and its journal against what a repository can plant and what processes
 * leave, on the real file system with real processes. Killed generates are the CLI run from the
 * sources (cli/ transpiled into .tmp, as no build is needed for this) in a process of their own,
 * held at a chosen point of their transaction by a preload, then killed with SIGKILL.
 *
 * - A planted journal (old format, a guessed seal, a real one copied from another project) is
 *   refused: MCPG916, nothing written inside or outside the project, the folder kept; a real
 *   journal is refused too when a symlink or a file of the user's appeared where it would write.
 * - A staging folder's owner is a process by PID and start time: a dead owner whose PID went to
 *   another process (PID 1, or one started since) does not block generate; one in another PID
 *   namespace blocks for a minute after it wrote its owner file.
 * - A read-only project root: staging goes into a folder mcpgen writes into; with none, MCPG911
 *   says which folders to make writable.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'rolldown/experimental';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCommand } from '../cli/commands/generate.js';
import { memoryIO } from './helpers/project.js';
import { differences, HEADER, REPO, snapshot, temps, toolsManifest } from './helpers/tree.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-write-staging-'));
const fresh = path.join(work, 'fresh');
const root = process.getuid?.() === 0;
let target: Map<string, string>;
let cli: { main: string; preload: string };

async function generate(dir: string, opts: { check?: boolean } = {}) {
  const io = memoryIO(dir);
  const code = await generateCommand({ quiet: true, ...opts }, io);
  return { code, out: io.out, err: io.err };
}

function copyFresh(name: string): string {
  const dir = path.join(work, name);
  fs.cpSync(fresh, dir, { recursive: true });
  return dir;
}

/** cli/ as JavaScript modules under .tmp (inside the repository, so packages resolve), with what mcpgen finds beside its code. */
function sourceCli(): { main: string; preload: string } {
  const out = path.join(REPO, '.tmp', `write-staging-cli-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(REPO, rel), { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (r.endsWith('.ts') && !r.endsWith('.d.ts')) {
        const { code, errors } = transformSync(r, fs.readFileSync(path.join(REPO, r), 'utf8'), { lang: 'ts' });
        if (errors.length) throw new Error(`${r}: ${errors.map((e) => e.message).join('; ')}`);
        fs.mkdirSync(path.dirname(path.join(out, r)), { recursive: true });
        fs.writeFileSync(path.join(out, r.replace(/\.ts$/, '.js')), code);
      }
    }
  };
  walk('cli');
  for (const name of ['templates', 'schemas', 'package.json'])
    fs.symlinkSync(path.join(REPO, name), path.join(out, name));
  // Holds the process for ever at the first staged file written (`staging`) or switched in (`switch`), after writing the marker file.
  const preload = path.join(out, 'hold.mjs');
  fs.writeFileSync(
    preload,
    `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const { MCPGEN_HOLD: at, MCPGEN_HELD: marker } = process.env;
const write = fs.writeFileSync;
const rename = fs.renameSync;
const staged = (p) => String(p).split('\\\\').join('/').includes('/.mcpgen-staging/new/');
const hold = () => {
  write(marker, String(process.pid));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
fs.writeFileSync = function (file, ...rest) {
  if (at === 'staging' && staged(file)) hold();
  return write.call(this, file, ...rest);
};
fs.renameSync = function (from, to) {
  if (at === 'switch' && staged(from)) hold();
  return rename.call(this, from, to);
};
syncBuiltinESMExports();
`,
  );
  return { main: path.join(out, 'cli/main.js'), preload };
}

/** `mcpgen generate` in its own process, held at `at`: resolves once it is held there (the project as it leaves it when killed). */
async function heldGenerate(dir: string, at: 'staging' | 'switch'): Promise<ChildProcess> {
  const marker = path.join(work, `held-${Date.now()}-${Math.random()}`);
  const script = `const { runCli } = await import(${JSON.stringify(pathToFileURL(cli.main).href)}); process.exitCode = await runCli(['generate', '-q']);`;
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(cli.preload).href, '--input-type=module', '-e', script],
    {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', MCPGEN_HOLD: at, MCPGEN_HELD: marker },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(marker)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`generate was not held at ${at} (exit ${child.exitCode}): ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return child;
}

/** SIGKILL, and wait until the process is gone. */
function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A killed generate's project: held at `at`, then killed. */
async function killedAt(dir: string, at: 'staging' | 'switch'): Promise<void> {
  await kill(await heldGenerate(dir, at));
}

/** Makes folder `abs` refuse new entries (root: immutable; else read-only); the undo. */
function protect(abs: string): () => void {
  if (root) {
    const r = spawnSync('chattr', ['+i', abs]);
    if (r.status !== 0) throw new Error(`chattr +i ${abs}: ${r.stderr}`);
    return () => void spawnSync('chattr', ['-i', abs]);
  }
  const mode = fs.statSync(abs).mode;
  fs.chmodSync(abs, 0o555);
  return () => fs.chmodSync(abs, mode);
}

beforeAll(async () => {
  cli = sourceCli();
  fs.mkdirSync(fresh);
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('A', 3));
  expect((await generate(fresh)).code).toBe(0);
  for (let i = 0; i < 2; i++)
    fs.writeFileSync(path.join(fresh, `src/generated/stale_${i}.ts`), `${HEADER}export const stale = ${i};\n`);
  fs.writeFileSync(path.join(fresh, 'src/handlers/tools/tool_0.ts'), 'export const mine = true;\n');
  fs.writeFileSync(path.join(fresh, 'mcpgen.yaml'), toolsManifest('B', 3));
  const ref = copyFresh('reference');
  expect((await generate(ref)).code).toBe(0);
  target = snapshot(ref);
}, 120_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
  if (cli) fs.rmSync(path.dirname(path.dirname(cli.main)), { recursive: true, force: true });
});

const REFUSED =
  /^\.mcpgen-staging: error MCPG916 refusing to replay \.mcpgen-staging\/journal\.json: (.*); nothing was written\. Look at what \.mcpgen-staging\/ holds, then delete it \(rm -rf \.mcpgen-staging, in the project folder\) and run mcpgen generate again$/m;

describe("a journal this project did not write, or that would touch what is not mcpgen's", () => {
  /** A project and, beside it, a folder of someone else's that a symlink inside the project leads to. */
  function planted(name: string): { dir: string; outside: string } {
    const dir = copyFresh(name);
    const outside = path.join(work, `${name}-outside`);
    fs.mkdirSync(path.join(outside, 'keep'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'canary.txt'), "not mcpgen's\n");
    fs.writeFileSync(path.join(outside, 'keep/notes.md'), 'mine\n');
    fs.symlinkSync(outside, path.join(dir, 'link'));
    return { dir, outside };
  }

  function plant(
    dir: string,
    journal: object,
    staged: Record<string, string>,
    extra: Record<string, string> = {},
  ): void {
    const staging = path.join(dir, '.mcpgen-staging');
    fs.mkdirSync(staging);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.writeFileSync(path.join(staging, 'owner'), `${dead}\n`);
    fs.writeFileSync(path.join(staging, 'journal.json'), JSON.stringify(journal));
    for (const [rel, text] of Object.entries({ ...staged })) {
      fs.mkdirSync(path.dirname(path.join(staging, 'new', rel)), { recursive: true });
      fs.writeFileSync(path.join(staging, 'new', rel), text);
    }
    for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(staging, rel), text);
  }

  /** Generate refuses with MCPG916 and `why`, and nothing changes, in the project (staging folder included) or outside it. */
  async function expectRefused(dir: string, outside: string | null, why: RegExp, sealed = false): Promise<void> {
    const before = snapshot(dir, []);
    const beforeOutside = outside ? snapshot(outside, []) : null;
    const r = await generate(dir);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n').filter((l) => l.includes('error'));
    expect(lines, r.err).toHaveLength(1);
    expect(lines[0]).toMatch(REFUSED);
    expect(REFUSED.exec(lines[0]!)![1]).toMatch(why);
    expect(differences(snapshot(dir, []), before), 'changed in the project').toEqual([]);
    if (outside) expect(differences(snapshot(outside, []), beforeOutside!), 'changed outside the project').toEqual([]);
    // Read-only commands: a journal of this project's says the project is half switched; any
    // other is no switch of this project, and the project is compared as it is.
    const check = await generate(dir, { check: true });
    if (sealed) expect(check.err).toMatch(/^\.mcpgen-staging: error MCPG912 /m);
    else expect(check.err).not.toMatch(/MCPG91[26]/);
    expect(differences(snapshot(dir, []), before)).toEqual([]);
  }

  /** Deleting the folder as the message says: generate then does what it always does. */
  async function thenDeleted(dir: string, code = 0): Promise<void> {
    fs.rmSync(path.join(dir, '.mcpgen-staging'), { recursive: true });
    const r = await generate(dir);
    expect(r.code, r.err).toBe(code);
    if (code === 0) {
      fs.rmSync(path.join(dir, 'link'), { force: true });
      expect(differences(snapshot(dir), target)).toEqual([]);
    }
  }

  test('through a symlink inside the project, onto files outside it (the journal format that had no seal)', async () => {
    const { dir, outside } = planted('through-link');
    plant(
      dir,
      {
        version: 1,
        switches: [
          { op: 'remove', path: 'link/canary.txt' },
          { op: 'put', path: 'link/pwned.txt', replaces: false },
          { op: 'dir', path: 'link/made' },
        ],
      },
      { 'link/pwned.txt': 'pwned\n', 'link/made/x.ts': 'pwned\n' },
    );
    await expectRefused(dir, outside, /^it is not a journal this version of mcpgen writes \(no seal\)$/);
    await thenDeleted(dir);
  });

  test('removing user handlers, package.json and the manifest', async () => {
    const { dir, outside } = planted('user-files');
    const switches = [
      'src/handlers/tools/tool_0.ts',
      'test/handlers/tools/tool_1.test.ts',
      'package.json',
      'mcpgen.yaml',
    ].map((p) => ({ op: 'remove', path: p }));
    plant(dir, { version: 1, switches }, {});
    await expectRefused(dir, outside, /no seal/);
    await thenDeleted(dir);
  });

  test('a journal in the current format with a run file and a guessed seal', async () => {
    const { dir, outside } = planted('guessed-seal');
    const st = fs.lstatSync(path.join(dir, 'mcpgen.yaml'), { bigint: true });
    const seal = { ino: String(st.ino + 1n), ctime: String(st.ctimeNs) };
    plant(
      dir,
      {
        version: 2,
        run: 'r1',
        at: '.',
        seal,
        switches: [
          { op: 'remove', path: 'link/canary.txt' },
          { op: 'remove', path: 'src/generated/server.ts' },
        ],
      },
      {},
      { run: 'r1\n' },
    );
    await expectRefused(
      dir,
      outside,
      /^it was not written by a generate interrupted in this folder: its seal does not match run beside it/,
    );
    await thenDeleted(dir);
  });

  test('a real journal of an interrupted generate, committed and checked out in another project', async () => {
    const original = copyFresh('journal-original');
    await killedAt(original, 'switch');
    expect(fs.existsSync(path.join(original, '.mcpgen-staging/journal.json'))).toBe(true);
    const { dir, outside } = planted('journal-copied');
    fs.cpSync(path.join(original, '.mcpgen-staging'), path.join(dir, '.mcpgen-staging'), { recursive: true });
    await expectRefused(dir, outside, /its seal does not match/);
    await thenDeleted(dir);
    // Where it was written, the same journal is replayed.
    const done = await generate(original);
    expect(done.code, done.err).toBe(0);
    expect(done.err).toMatch(/^! finished the switch of an interrupted mcpgen generate/m);
    expect(differences(snapshot(original), target)).toEqual([]);
    expect(temps(original)).toEqual([]);
  });

  test('a real journal, then a generated folder replaced by a symlink to elsewhere: checked at replay, not followed', async () => {
    const dir = copyFresh('journal-then-link');
    await killedAt(dir, 'switch');
    const outside = path.join(work, 'journal-then-link-outside');
    fs.renameSync(path.join(dir, 'test/generated'), outside);
    fs.symlinkSync(outside, path.join(dir, 'test/generated'));
    await expectRefused(
      dir,
      outside,
      /^test\/generated is a symbolic link \(a journal is replayed through real folders only\)$/,
      true,
    );
    // The symlink leads outside: the plan refuses to write through it too.
    await thenDeleted(dir, 1);
  });

  test("a real journal, then a stale generated file made the user's (its header removed): not removed", async () => {
    const dir = copyFresh('journal-then-mine');
    await killedAt(dir, 'switch');
    fs.writeFileSync(path.join(dir, 'src/generated/stale_1.ts'), 'export const mine = 1;\n');
    await expectRefused(
      dir,
      null,
      /^it would remove src\/generated\/stale_1\.ts, which has no mcpgen header \(it is yours\)$/,
      true,
    );
    expect(fs.readFileSync(path.join(dir, 'src/generated/stale_1.ts'), 'utf8')).toBe('export const mine = 1;\n');
    // A file without the header in a generated folder: the plan refuses to delete it too.
    await thenDeleted(dir, 1);
  });
});

describe('the owner of a staging folder: its PID and its start time', () => {
  test('a generate that is running blocks the next (MCPG913); once killed, its folder is taken over', async () => {
    const dir = copyFresh('owner-running');
    const child = await heldGenerate(dir, 'staging');
    try {
      const before = snapshot(dir, []);
      const r = await generate(dir);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        new RegExp(
          `^\\.mcpgen-staging: error MCPG913 another mcpgen generate \\(process ${child.pid}\\) is writing this project; run again when it is done`,
          'm',
        ),
      );
      expect(differences(snapshot(dir, []), before)).toEqual([]);
    } finally {
      await kill(child);
    }
    const r = await generate(dir);
    expect(r.code, r.err).toBe(0);
    expect(differences(snapshot(dir), target)).toEqual([]);
    expect(temps(dir)).toEqual([]);
  });

  test.each([
    ['PID 1 (as a generate that ran as PID 1 in another container)', () => 1],
    ['a process started since (the PID reused)', (other: ChildProcess) => other.pid!],
  ])('a generate killed, its PID now %s: not the owner', async (_what, pidOf) => {
    const dir = copyFresh(`owner-reused-${pidOf.length}`);
    await killedAt(dir, 'staging');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const owner = path.join(dir, '.mcpgen-staging/owner');
      // The owner file as the killed generate wrote it, with its PID now that of a live process.
      fs.writeFileSync(owner, fs.readFileSync(owner, 'utf8').replace(/\d+/, String(pidOf(other))));
      const r = await generate(dir);
      expect(r.err).not.toMatch(/MCPG913/);
      expect(r.code, r.err).toBe(0);
      expect(differences(snapshot(dir), target)).toEqual([]);
      expect(temps(dir)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('the owner of a staging folder in another PID namespace (another container)', () => {
  test('cannot be looked up: its folder is in use for a minute after it was written, then left behind', async () => {
    const dir = copyFresh('owner-foreign');
    await killedAt(dir, 'staging');
    const owner = path.join(dir, '.mcpgen-staging/owner');
    fs.writeFileSync(owner, JSON.stringify({ ...JSON.parse(fs.readFileSync(owner, 'utf8')), ns: 'pid:[1]' }));
    const busy = await generate(dir);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(
      /^\.mcpgen-staging: error MCPG913 another mcpgen generate \(process \d+\) is writing this project/m,
    );
    const minuteAgo = new Date(Date.now() - 61_000);
    fs.utimesSync(owner, minuteAgo, minuteAgo);
    const r = await generate(dir);
    expect(r.code, r.err).toBe(0);
    expect(differences(snapshot(dir), target)).toEqual([]);
  });
});

describe('a read-only project root', () => {
  /** The project with `folders` refusing new entries while `run` runs. */
  async function withProtected<T>(dir: string, folders: string[], run: () => Promise<T>): Promise<T> {
    const undo = folders.map((f) => protect(path.join(dir, f)));
    try {
      return await run();
    } finally {
      for (const u of undo.reverse()) u();
    }
  }

  test('with writable folders under it: staged in src/generated, the project written, nothing left', async () => {
    const dir = copyFresh('ro-root');
    const top = fs.readdirSync(dir).sort();
    const r = await withProtected(dir, ['.'], () => generate(dir));
    expect(r.code, r.err).toBe(0);
    expect(differences(snapshot(dir), target)).toEqual([]);
    expect(temps(dir)).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual(top);
  });

  test('killed mid-switch there: the next commands find its journal, generate finishes it', async () => {
    const dir = copyFresh('ro-root-killed');
    await withProtected(dir, ['.'], async () => {
      await killedAt(dir, 'switch');
      expect(fs.existsSync(path.join(dir, 'src/generated/.mcpgen-staging/journal.json'))).toBe(true);
      const check = await generate(dir, { check: true });
      expect(check.code).toBe(1);
      expect(check.err).toMatch(/error MCPG912 an interrupted mcpgen generate left this project between two versions/);
      const r = await generate(dir);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(/^! finished the switch of an interrupted mcpgen generate/m);
    });
    expect(differences(snapshot(dir), target)).toEqual([]);
    expect(temps(dir)).toEqual([]);
  });

  test('and no folder under it to stage in: MCPG911 says which folders to make writable', async () => {
    const dir = copyFresh('ro-everywhere');
    const before = snapshot(dir, []);
    const r = await withProtected(dir, ['.', 'src', 'test', 'src/generated', 'test/generated'], () => generate(dir));
    expect(r.code).toBe(1);
    const lines = r.err.split('\n').filter((l) => l.includes('error'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\.mcpgen-staging: error MCPG911 cannot write \.mcpgen-staging: (operation not permitted \(EPERM; .*\)|permission denied \(EACCES\)); make the project folder writable, or one of src\/generated\/, test\/generated\/, src\/, test\/ \(mcpgen stages its writes in the first of these it can write\); nothing was written$/,
    );
    expect(differences(snapshot(dir, []), before)).toEqual([]);
  });
});
