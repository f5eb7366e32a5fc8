/** Compiling the generated project with its own TypeScript, incrementally. */
import { spawn } from 'node:child_process';
import { type Dirent, existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { tsconfigAdvice } from '../commands/init-tsconfig.js';

/** The project's `tsc` (its node_modules, or one above it as Node would resolve it), or null. */
export function findTsc(projectDir: string): string | null {
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    if (existsSync(tsc)) return tsc;
    if (path.dirname(dir) === dir) return null;
  }
}

export interface BuildResult {
  ok: boolean;
  /** tsc's diagnostics (file(line,col): error …), empty on success. */
  output: string;
  ms: number;
}

/**
 * `tsc -p tsconfig.json --incremental --noEmitOnError`: nothing is written when there are errors,
 * so dist/ keeps the last good build (and the running server what it loaded from it). After a
 * build that succeeded, what a removed source compiled to is removed too ({@link pruneStale}).
 * With `config` (the views' type-check, cli/views/check-views.ts), that config, incrementally too.
 */
export function build(
  projectDir: string,
  tsc: string,
  onRunning: (kill: (() => void) | null) => void,
  config = 'tsconfig.json',
): Promise<BuildResult> {
  const t0 = performance.now();
  const main = config === 'tsconfig.json';
  const args = [
    tsc,
    '-p',
    config,
    '--incremental',
    '--tsBuildInfoFile',
    main ? 'dist/.tsbuildinfo' : `dist/.tsbuildinfo-${path.basename(config, '.json')}`,
    '--noEmitOnError',
    '--pretty',
    'false',
  ];
  return new Promise((resolve) => {
    // Its own process group: TypeScript 7's tsc script runs the native compiler as a child, which
    // a kill of the script alone would leave running.
    const child = spawn(process.execPath, args, { cwd: projectDir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    onRunning(() => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (err) => {
      onRunning(null);
      resolve({ ok: false, output: String(err), ms: performance.now() - t0 });
    });
    child.once('close', (code, signal) => {
      onRunning(null);
      if (code === 0 && main) pruneStale(projectDir);
      resolve({
        ok: code === 0,
        output: signal ? `tsc stopped (${signal})\n${output}` : output,
        ms: performance.now() - t0,
      });
    });
  });
}

/** What tsc emits for a source, by the source's extension: `.ts` → `.js`, `.js.map`, `.d.ts`, `.d.ts.map`. */
const EMITTED = /^(.*?)\.([mc]?)js(?:\.map)?$|^(.*?)\.d\.([mc]?)ts(?:\.map)?$/;

/**
 * The sources an output in dist/ can come from (`dist/src/a.js` ← `src/a.ts`, `.tsx`, or `.js`
 * with allowJs), relative to the project, or null for a file tsc does not emit.
 */
export function sourcesOf(output: string): string[] | null {
  const m = EMITTED.exec(output);
  if (!m) return null;
  const stem = m[1] ?? m[3]!;
  const flavour = m[2] ?? m[4]!;
  return flavour
    ? [`${stem}.${flavour}ts`, `${stem}.${flavour}js`]
    : [`${stem}.ts`, `${stem}.tsx`, `${stem}.js`, `${stem}.jsx`];
}

/**
 * Removes from dist/src and dist/test what tsc emitted for a source that is gone (tsc never
 * deletes outputs, so a deleted handler would still be loadable and a deleted test still run by
 * `node --test`), then the folders that left empty. Only where dist/ mirrors the project folder
 * (outDir `dist`, rootDir `.`, as mcpgen writes tsconfig.json): under another layout an output's
 * source cannot be told from its path, and nothing is removed. Symbolic links are not followed.
 * Returns the removed files, relative to the project.
 */
export function pruneStale(projectDir: string): string[] {
  const advice = tsconfigAdvice(projectDir);
  if (typeof advice === 'string' || advice.set?.outDir !== undefined || advice.set?.rootDir !== undefined) return [];
  const removed: string[] = [];
  const walk = (rel: string): boolean => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(projectDir, 'dist', rel), { withFileTypes: true });
    } catch {
      return false;
    }
    let left = entries.length;
    for (const e of entries) {
      const file = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (walk(file)) left -= 1;
        continue;
      }
      if (!e.isFile()) continue;
      const sources = sourcesOf(file);
      if (sources === null || sources.some((s) => existsSync(path.join(projectDir, s)))) continue;
      try {
        unlinkSync(path.join(projectDir, 'dist', file));
        removed.push(`dist/${file}`);
        left -= 1;
      } catch {
        /* gone already, or not ours to remove: the next build tries again */
      }
    }
    if (left > 0 || !removed.some((r) => r.startsWith(`dist/${rel}/`))) return false;
    try {
      rmdirSync(path.join(projectDir, 'dist', rel));
      return true;
    } catch {
      return false;
    }
  };
  for (const top of ['src', 'test']) walk(top);
  return removed;
}
