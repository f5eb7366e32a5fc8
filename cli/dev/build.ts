/** Compiling the generated project with its own TypeScript, incrementally. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

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
 * so dist/ keeps the last good build (and the running server what it loaded from it).
 */
export function build(
  projectDir: string,
  tsc: string,
  onRunning: (kill: (() => void) | null) => void,
): Promise<BuildResult> {
  const t0 = performance.now();
  const args = [
    tsc,
    '-p',
    'tsconfig.json',
    '--incremental',
    '--tsBuildInfoFile',
    'dist/.tsbuildinfo',
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
      resolve({
        ok: code === 0,
        output: signal ? `tsc stopped (${signal})\n${output}` : output,
        ms: performance.now() - t0,
      });
    });
  });
}
