import type { Outcome } from './report/outcome.js';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliIO {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stderr is a terminal: colours and progress, which both go there. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /**
   * Set under --json: the command records its result here (diagnostics, changes, next steps) and
   * main prints it as the envelope in place of the command's stdout.
   */
  outcome?: Outcome;
}

export function processIO(): CliIO {
  watchClosing();
  return {
    cwd: process.cwd(),
    stdout: (t) => void (closed.stdout || process.stdout.write(t)),
    stderr: (t) => void (closed.stderr || process.stderr.write(t)),
    isTTY: Boolean(process.stderr.isTTY),
    env: process.env,
  };
}

const closed = { stdout: false, stderr: false };
let watching = false;

/**
 * A reader that stops early (`mcpgen … | head`, `mcpgen validate 2>&1 | head`) closes the pipe:
 * the rest of the output is dropped and the command runs to its end, since what it writes to disk
 * must not stop half-way, and exits with its own code.
 */
function watchClosing(): void {
  if (watching) return;
  watching = true;
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') closed[name] = true;
      else if (stream.listenerCount('error') === 1) throw err;
    });
  }
}

/** Exit codes (DESIGN §4): 0 ok, 1 diagnostics or differences, 2 usage or internal error. */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;
