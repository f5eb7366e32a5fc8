/** Compiling the generated project with its own TypeScript, incrementally. */
import { spawn, type ChildProcess } from 'node:child_process';
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
export function build(projectDir: string, tsc: string, onChild: (c: ChildProcess | null) => void): Promise<BuildResult> {
  const t0 = performance.now();
  const args = [tsc, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo', '--noEmitOnError', '--pretty', 'false'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: projectDir, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (err) => {
      onChild(null);
      resolve({ ok: false, output: String(err), ms: performance.now() - t0 });
    });
    child.once('close', (code, signal) => {
      onChild(null);
      resolve({ ok: code === 0, output: signal ? `tsc stopped (${signal})\n${output}` : output, ms: performance.now() - t0 });
    });
  });
}
