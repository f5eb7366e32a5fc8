/**
 * Running mcpgen on a mutant: as a user does (`node bin/mcpgen.js`, a process per command) or in
 * a long-lived worker process (worker.mjs) for throughput. Both give the same record: exit code,
 * signal, whether it timed out, and the output.
 */
import { fork, spawn } from 'node:child_process';
import path from 'node:path';

/** @typedef {{ code: number | null, signal: string | null, timedOut: boolean, stdout: string, stderr: string, ms: number, how: 'bin' | 'inproc' }} Run */

export const REPO = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(REPO, 'bin/mcpgen.js');
const WORKER = path.join(import.meta.dirname, 'worker.mjs');
/** Outputs past this are cut: a mutant with a 3 MB line gets it back in a code frame, many times over. */
const MAX_OUTPUT = 200_000;

/** The environment every mcpgen run gets: no colours, no inherited NODE_OPTIONS, no timings. */
export function fuzzEnv() {
  return { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', MCPGEN_TIMINGS: '' };
}

/**
 * Runs any command with a hard timeout, killing only the process it started.
 * @param {string} cmd @param {string[]} args @param {{ cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number }} o
 * @returns {Promise<Run>}
 */
export function runProcess(cmd, args, o) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => void (stdout.length < MAX_OUTPUT && (stdout += d)));
    child.stderr.on('data', (d) => void (stderr.length < MAX_OUTPUT && (stderr += d)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs);
    child.on('error', (err) => {
      stderr += `spawn failed: ${err.message}\n`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, ms: performance.now() - started, how: 'bin' });
    });
  });
}

/** `node bin/mcpgen.js …` in `cwd`. */
export function runBin(argv, o) {
  return runProcess(process.execPath, [BIN, ...argv], o);
}

/**
 * A worker process running commands in-process; restarted after a timeout, a crash, or every
 * `recycleAfter` commands (so memory one huge mutant leaves behind does not slow the rest).
 */
export class InProcessRunner {
  /** @param {{ env: NodeJS.ProcessEnv, recycleAfter?: number }} o */
  constructor(o) {
    this.env = o.env;
    this.recycleAfter = o.recycleAfter ?? 150;
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null;
    this.ready = null;
    this.count = 0;
    this.nextId = 1;
    /** @type {((m: any) => void) | null} */
    this.pending = null;
  }

  start() {
    const child = fork(WORKER, [REPO], {
      env: this.env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    this.count = 0;
    let early = '';
    child.stderr?.on('data', (d) => void (early.length < MAX_OUTPUT && (early += d)));
    this.ready = new Promise((resolve) => {
      child.on('message', (m) => {
        if (/** @type {any} */ (m).ready) return resolve(undefined);
        if (this.child === child) this.pending?.(m);
      });
      // A worker that dies before it is ready must not leave run() waiting for ever.
      child.on('exit', () => resolve(undefined));
    });
    child.on('exit', (code, signal) => {
      // The exit of a worker already stopped (after a timeout) arrives late, while its successor
      // runs a command: it is no news about that command, and must not orphan the successor.
      if (this.child !== child) return;
      this.child = null;
      this.pending?.({ exited: true, code, signal, stderr: early });
    });
  }

  /** @param {string[]} argv @param {{ cwd: string, timeoutMs: number }} o @returns {Promise<Run>} */
  async run(argv, o) {
    if (!this.child || this.count >= this.recycleAfter) {
      this.stop();
      this.start();
    }
    await this.ready;
    if (!this.child)
      return {
        code: null,
        signal: 'SIGKILL',
        timedOut: false,
        stdout: '',
        stderr: 'the worker died before it was ready',
        ms: 0,
        how: 'inproc',
      };
    const child = /** @type {import('node:child_process').ChildProcess} */ (this.child);
    this.count++;
    const id = this.nextId++;
    const started = performance.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending = null;
        this.stop();
        resolve({
          code: null,
          signal: 'SIGKILL',
          timedOut: true,
          stdout: '',
          stderr: '',
          ms: performance.now() - started,
          how: 'inproc',
        });
      }, o.timeoutMs);
      this.pending = (m) => {
        if (!m.exited && m.id !== id) return;
        clearTimeout(timer);
        this.pending = null;
        if (m.exited) {
          // The worker died under the command (out of memory, an abort): as a process would have.
          resolve({
            code: m.code,
            signal: m.signal,
            timedOut: false,
            stdout: '',
            stderr: m.stderr,
            ms: performance.now() - started,
            how: 'inproc',
          });
        } else {
          resolve({
            code: m.code,
            signal: null,
            timedOut: false,
            stdout: m.stdout.slice(0, MAX_OUTPUT),
            stderr: m.stderr.slice(0, MAX_OUTPUT),
            ms: m.ms,
            how: 'inproc',
          });
        }
      };
      child.send({ id, argv, cwd: o.cwd });
    });
  }

  /** Ends the worker this runner started (by its own handle, nothing else). */
  stop() {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
