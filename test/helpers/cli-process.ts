/**
 * mcpgen as a long-running process (`dev`, `watch`), as a user runs it in a terminal: its output
 * collected, waited on with a bound, and killed after the tests if it is still alive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll } from 'vitest';
import { REPO } from './project.js';

export interface CliProcess {
  child: ChildProcess;
  /** stdout so far. */
  out(): string;
  /** stderr so far. */
  err(): string;
  /** The first match of `re` in stdout (or stderr) after offset `from`; throws after `timeoutMs`. */
  waitFor(re: RegExp, from: number, stream?: 'out' | 'err', timeoutMs?: number): Promise<RegExpExecArray>;
  /** The exit code, once it exits on its own; throws after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<number | null>;
  /** Sends `signal` and resolves the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

export function startCli(args: string[], cwd: string): CliProcess {
  const child = spawn(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), ...args], { cwd });
  started.push(child);
  // Two pipes: what arrives on one is not ordered with what arrives on the other.
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    async waitFor(re, from, stream = 'out', timeoutMs = 60_000) {
      for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
        const m = re.exec((stream === 'out' ? out : err).slice(from));
        if (m) return m;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no ${re} on std${stream} (exit ${child.exitCode}); stdout:\n${out}\nstderr:\n${err}`);
    },
    exited(timeoutMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`still running after ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`)),
          timeoutMs,
        );
      });
      return Promise.race([exited, late]).finally(() => clearTimeout(timer));
    },
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
