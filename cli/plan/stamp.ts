/**
 * node_modules/.cache/mcpgen/stamp.json: what the last generate read and wrote, by content hash. When nothing it
 * lists changed — the manifest, the files the manifest references, mcpgen itself, the options, the
 * generated files on disk, the set of user-owned files — the output cannot have changed either, so
 * `generate`, `--check` and `diff` answer without loading, validating or rendering anything
 * (the no-op regenerate of a 1000-tool project is then a few file reads, not a full build).
 *
 * The stamp is a local cache, not output: it lives under node_modules/.cache (like eslint's or
 * babel's caches), is never committed, and a fresh clone simply takes the full path once.
 * Light by design: this module is on the fast path and imports nothing heavy.
 */
import {
  type Dirent,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { sha256hex } from '../hash.js';
import { CODE_DIR, PACKAGE_ROOT } from '../paths.js';
import { alive, isDeadTemp } from '../write/temps.js';
import { HANDLER_TEST_DIRS, testedHandler } from './handler-tests.js';
import { STAGING } from '../write/staging.js';
import { VERSION } from '../version.js';

export const STAMP_PATH = 'node_modules/.cache/mcpgen/stamp.json';

export interface Stamp {
  /** mcpgen's version and a hash of its code and templates. */
  generator: string;
  /** Options that change the output. */
  options: string;
  /** Inputs (paths relative to the project root) → sha256. */
  inputs: Record<string, string>;
  /** Generated files → sha256. */
  outputs: Record<string, string>;
  /** User-owned files the plan expects to exist (created once). */
  userFiles: string[];
  /**
   * [size, mtimeMs] of inputs and outputs when their hash was taken. A file whose size and mtime
   * still match, and whose mtime is older than the stamp itself, is not read again (git's index
   * does the same; a file as new as the stamp could have changed within one clock tick, so it is hashed).
   */
  stats?: Record<string, [number, number]>;
  /**
   * The warnings that run printed, so an up-to-date run prints them again without linting: the
   * count, and the diagnostics when few enough to be listed, their files relative to the project.
   */
  warnings?: { count: number; listed: Diagnostic[] };
  /**
   * What the checks of the user's own files need (cli/plan/entry.ts, dependencies.ts), so an
   * up-to-date run makes them too: the transports, and the built views' folders relative to the project.
   */
  project?: { stdio: boolean; http: boolean; views: string[] };
  /**
   * Contract changes the user has not answered yet: every run names them again, the up-to-date
   * ones too, until the handler or its test differs from what it was when the change was made.
   */
  contractNotices?: ContractNotice[];
}

/** A handler whose contract changed (`contract changed: …`), and its files' hashes at that time. */
export interface ContractNotice {
  /** `<kind> <name>`, as src/generated/contracts.json keys it. */
  entry: string;
  handler: string;
  test?: string;
  /** The parts of the contract that changed. */
  parts: string[];
  /** Handler and test (paths relative to the project) → sha of their content then, null when missing. */
  files: Record<string, string | null>;
}

/** The stamp the last generate wrote, or null. */
export function readStamp(projectDir: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(path.join(projectDir, STAMP_PATH), 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

/**
 * Whether `manifest` differs from what the last generate read: null when no stamp says (a fresh
 * clone, or never generated here), so only a known change is reported.
 */
export function manifestChangedSince(projectDir: string, manifest: string): boolean | null {
  const recorded = readStamp(projectDir)?.inputs[path.relative(projectDir, manifest).split(path.sep).join('/')];
  return recorded === undefined ? null : hashFile(manifest) !== recorded;
}

/** The hash a notice records for a project file (null when it cannot be read). */
export function projectFileHash(projectDir: string, rel: string): string | null {
  return hashFile(path.join(projectDir, rel));
}

/** The notices whose handler and test are still as they were: those the user has not answered. */
export function unansweredNotices(
  projectDir: string,
  notices: readonly ContractNotice[] | undefined,
): ContractNotice[] {
  return (notices ?? []).filter((n) =>
    Object.entries(n.files).every(([rel, h]) => projectFileHash(projectDir, rel) === h),
  );
}

/**
 * Records [size, mtimeMs] of each input just before generate reads it (`GenerateOptions.beforeRead`):
 * an input that changes while it is being generated from gets no stamp.
 */
export function inputStats(): { beforeRead: (abs: string) => void; before: Map<string, [number, number] | null> } {
  const before = new Map<string, [number, number] | null>();
  return { before, beforeRead: (abs) => void (before.has(abs) || before.set(abs, statOf(abs))) };
}

/**
 * What a generate read and wrote, so an unchanged project is detected cheaply next time. None when
 * an input changed while it was being generated from: the next run must not trust it.
 * `referenced` are the manifest's files relative to its folder.
 */
export function stampOf(
  run: {
    projectDir: string;
    manifest: string;
    options: string;
    referenced: string[];
    before: Map<string, [number, number] | null>;
  },
  files: { path: string; owner: 'generated' | 'user'; content: string }[],
): Stamp | undefined {
  const rel = (abs: string) => path.relative(run.projectDir, abs).split(path.sep).join('/');
  const inputs: Record<string, string> = {};
  const stats: Record<string, [number, number]> = {};
  const paths = [run.manifest, ...run.referenced.map((f) => path.resolve(path.dirname(run.manifest), f))];
  for (const abs of paths) {
    const before = run.before.get(abs);
    const r = rel(abs);
    // Gone or replaced since it was read: the files are made from what was read, the stamp is not.
    const hash = hashFile(abs);
    const after = statOf(abs);
    if (hash === null || !before || !after || before[0] !== after[0] || before[1] !== after[1]) return undefined;
    inputs[r] = hash;
    stats[r] = after;
  }
  const outputs: Record<string, string> = {};
  for (const f of files) if (f.owner === 'generated') outputs[f.path] = sha(f.content);
  return {
    generator: generatorFingerprint(VERSION),
    options: run.options,
    inputs: Object.fromEntries(Object.entries(inputs).sort()),
    outputs,
    userFiles: files
      .filter((f) => f.owner === 'user')
      .map((f) => f.path)
      .sort(),
    stats,
  };
}

/** [size, mtimeMs] of a file, or null when it cannot be stat'ed. */
export function statOf(abs: string): [number, number] | null {
  const s = statSync(abs, { throwIfNoEntry: false });
  return s ? [s.size, s.mtimeMs] : null;
}

export const sha = (data: string | Buffer) => sha256hex(data).slice(0, 16);

let fingerprint: string | undefined;

/** Written last by `npm run build` (scripts/generator-id.mjs): a hash of what generatorFiles() lists, by content. */
export const GENERATOR_ID_FILE = 'generator-id';
/** One file from each earlier step of the build (tsc, templates, bundles), relative to dist/. */
const BUILD_OUTPUTS = ['main.js', 'render/templates.precompiled.cjs', 'commands/generate.build.js'];

/**
 * mcpgen's version plus what identifies its code, templates and schemas: any rebuild that changes one of them invalidates stamps. A built package
 * reads that from dist/generator-id, one small file, and adds the name, size and mtime of its
 * templates and schemas, which are also read at run time (a template edited since the build is
 * compiled from source). Without the id (run from sources, in tests) the stats of every file count
 * instead; that walk of ~140 files cost ≈ 18 ms of every run, a tenth of
 * a no-op generate.
 */
export function generatorFingerprint(version: string): string {
  if (fingerprint) return fingerprint;
  let id: string | undefined;
  try {
    // Only when no step of the build wrote after it (a bare `tsc` over a built dist, say).
    const written = statSync(path.join(CODE_DIR, GENERATOR_ID_FILE)).mtimeMs;
    if (BUILD_OUTPUTS.every((f) => (statOf(path.join(CODE_DIR, f))?.[1] ?? Infinity) <= written))
      id = readFileSync(path.join(CODE_DIR, GENERATOR_ID_FILE), 'utf8').trim() || undefined;
  } catch {
    /* not built: every file's stats below */
  }
  const stats = generatorFiles(id ? 'read at run time' : 'all').map(
    (f) => `${path.basename(f)}\0${statOf(f)?.join('\0')}`,
  );
  fingerprint = `${version}+${id ?? 'sources'}+${fnv64(stats.join('\n'))}`;
  return fingerprint;
}

/** A 64-bit FNV-1a of a string's UTF-16 units, in hex: change detection, not security (no crypto to load). */
function fnv64(s: string): string {
  // Two 32-bit FNV-1a lanes with different offsets.
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The files that make mcpgen's output what it is, as absolute paths in a fixed order: compiled
 * code (dist/, or cli/ when run from sources), templates and schemas; or
 * only templates and schemas, the files read at run time.
 */
export function generatorFiles(which: 'all' | 'read at run time' = 'all'): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let ents: Dirent[];
    try {
      ents = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of ents) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(c?js|hbs|json|ts|bin)$/.test(e.name)) out.push(p);
    }
  };
  if (which === 'all') walk(CODE_DIR);
  walk(path.join(PACKAGE_ROOT, 'templates'));
  walk(path.join(PACKAGE_ROOT, 'schemas'));
  return out;
}

export function renderStamp(stamp: Stamp): string {
  return `${JSON.stringify(stamp, null, 2)}\n`;
}

/**
 * Best effort: a stamp that cannot be written only costs the fast path next time. Outputs were
 * just written with the content hashed: their stats are taken now. Inputs carry the stats taken
 * when they were read (stampOf in generate.ts), so an edit made while generating is not hidden.
 */
export function writeStamp(projectDir: string, stamp: Stamp): void {
  const abs = path.join(projectDir, STAMP_PATH);
  try {
    // Nothing is written outside the project: not through a node_modules that is a symlink elsewhere either.
    if (!staysInside(projectDir, path.dirname(abs))) return;
    const stats = { ...stamp.stats };
    for (const rel of Object.keys(stamp.outputs)) {
      const s = statOf(path.join(projectDir, rel));
      if (s) stats[rel] = s;
    }
    stamp = { ...stamp, stats };
    mkdirSync(path.dirname(abs), { recursive: true });
    sweepTemps(path.dirname(abs));
    const tmp = `${abs}.${process.pid}.tmp`;
    rmSync(tmp, { force: true }); // 'wx' below: a symlink planted there is not written through
    writeFileSync(tmp, renderStamp(stamp), { flag: 'wx' });
    renameSync(tmp, abs);
  } catch {
    /* read-only node_modules, say: fine */
  }
}

/** True when `dir`, as far as it exists, resolves inside the project folder (symlinks followed). */
function staysInside(projectDir: string, dir: string): boolean {
  const root = realpathSync(projectDir);
  let existing = path.resolve(dir);
  while (!lstatSync(existing, { throwIfNoEntry: false })) {
    const up = path.dirname(existing);
    if (up === existing) return false;
    existing = up;
  }
  const real = realpathSync(existing); // a dangling symlink throws: no stamp
  return real === root || real.startsWith(root + path.sep);
}

/** Temp stamps of runs killed while writing one. */
function sweepTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = /^stamp\.json\.(\d+)\.tmp$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(path.join(dir, name), { force: true });
  }
}

function hashFile(abs: string): string | null {
  try {
    return sha(readFileSync(abs));
  } catch {
    return null;
  }
}

/** Files (recursively) under root/dir as sorted POSIX paths relative to root. */
export function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let ents: Dirent[];
    try {
      ents = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const r = `${rel}/${e.name}`;
      // A generate staging inside a generated folder (its root read-only) is no file of the project.
      if (e.name === STAGING) continue;
      if (e.isDirectory()) walk(r);
      else out.push(r);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * True when the project is provably up to date with the manifest: then generate has nothing to do.
 * Any doubt (no stamp, unreadable file, anything changed) answers false and the full pipeline runs.
 */
export function upToDate(opts: {
  projectDir: string;
  manifest: string;
  generator: string;
  options: string;
  generatedDirs: string[];
  handlerDirs: string[];
}): { stamp: Stamp } | null {
  let stamp: Stamp;
  let written: number;
  try {
    const abs = path.join(opts.projectDir, STAMP_PATH);
    written = statSync(abs).mtimeMs;
    stamp = JSON.parse(readFileSync(abs, 'utf8')) as Stamp;
  } catch {
    return null;
  }
  const same = (abs: string, rel: string, h: string) => {
    const rec = stamp.stats?.[rel];
    if (rec) {
      const now = statOf(abs);
      if (now && now[0] === rec[0] && now[1] === rec[1] && now[1] < written) return true;
    }
    return hashFile(abs) === h;
  };
  if (stamp.generator !== opts.generator || stamp.options !== opts.options) return null;
  const manifestRel = path.relative(opts.projectDir, opts.manifest).split(path.sep).join('/');
  if (!(manifestRel in stamp.inputs)) return null;
  for (const [rel, h] of Object.entries(stamp.inputs))
    if (!same(path.resolve(opts.projectDir, rel), rel, h)) return null;
  for (const [rel, h] of Object.entries(stamp.outputs)) if (!same(path.join(opts.projectDir, rel), rel, h)) return null;
  // Nothing stale or foreign in the generated folders, no user file missing, no orphan to report.
  const outputs = new Set(Object.keys(stamp.outputs));
  for (const dir of opts.generatedDirs)
    for (const f of listFiles(opts.projectDir, dir)) if (!outputs.has(f)) return null;
  const user = new Set(stamp.userFiles);
  // The handler folders are listed anyway: their user files are checked against the listing.
  const listed = new Set<string>();
  for (const dir of opts.handlerDirs) {
    for (const f of listFiles(opts.projectDir, dir)) {
      listed.add(f);
      if (f.endsWith('.ts') && !user.has(f)) return null;
    }
  }
  // A user's test of a resource, template or prompt handler: not an orphan while that handler is one of the user's files.
  for (const dir of HANDLER_TEST_DIRS) {
    for (const f of listFiles(opts.projectDir, dir)) {
      const handler = testedHandler(f);
      if (isDeadTemp(path.posix.basename(f)) || (handler && !user.has(handler))) return null;
    }
  }
  const inHandlerDir = (f: string) => opts.handlerDirs.some((d) => f.startsWith(`${d}/`));
  for (const f of stamp.userFiles)
    if (!(inHandlerDir(f) ? listed.has(f) : existsSync(path.join(opts.projectDir, f)))) return null;
  return { stamp };
}
