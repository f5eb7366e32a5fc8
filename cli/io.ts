import type { Outcome } from './report/outcome.js';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliIO {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stdout is a terminal (colours, progress). */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /**
   * Set under --json: the command records its result here (diagnostics, changes, next steps) and
   * main prints it as the envelope in place of the command's stdout.
   */
  outcome?: Outcome;
}

export function processIO(): CliIO {
  return {
    cwd: process.cwd(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
}

/** Exit codes (DESIGN §4): 0 ok, 1 diagnostics or differences, 2 usage or internal error. */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;
