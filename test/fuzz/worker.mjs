/**
 * The in-process runner: a child process that imports the built CLI once and runs commands with
 * an in-memory CliIO, one at a time, as messages from its parent (exec.mjs). It saves the ~0.2 s a
 * node start and the modules' loading cost each command; the parent kills it when a command runs
 * past its timeout, so a hang or a runaway recursion costs only this process.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = process.argv[2] ?? path.resolve(import.meta.dirname, '../..');
const { runCli } = await import(pathToFileURL(path.join(repo, 'dist/main.js')).href);

/** Output of the command being run, including anything written to the real streams behind the CliIO's back. */
let current = { stdout: '', stderr: '' };
for (const [name, stream] of /** @type {const} */ ([
  ['stdout', process.stdout],
  ['stderr', process.stderr],
])) {
  stream.write = /** @type {any} */ (
    (chunk) => {
      current[name] += String(chunk);
      return true;
    }
  );
}

process.on('message', async (/** @type {{ id: number, argv: string[], cwd: string }} */ msg) => {
  current = { stdout: '', stderr: '' };
  const io = {
    cwd: msg.cwd,
    isTTY: false,
    env: { NO_COLOR: '1' },
    stdout: (/** @type {string} */ t) => void (current.stdout += t),
    stderr: (/** @type {string} */ t) => void (current.stderr += t),
  };
  const started = performance.now();
  let code;
  try {
    code = await runCli(msg.argv, io);
  } catch (err) {
    // runCli catches what commands throw; this is a throw from runCli itself.
    current.stderr += `fuzz worker: runCli threw: ${/** @type {Error} */ (err)?.stack ?? String(err)}\n`;
    code = -1;
  }
  process.send?.({ id: msg.id, code, stdout: current.stdout, stderr: current.stderr, ms: performance.now() - started });
});
process.send?.({ ready: true });
