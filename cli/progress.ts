/**
 * What a long step is doing: nothing for a step under a second; past that, a spinner with the
 * seconds so far on a terminal (cleared when the step ends), or one plain line, then one every ten
 * seconds, in a log or a pipe.
 */
import type { CliIO } from './io.js';

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

export async function withProgress<T>(io: CliIO, label: string, step: Promise<T>): Promise<T> {
  const started = performance.now();
  const secondsSoFar = () => Math.round((performance.now() - started) / 1000);
  let frame = 0;
  let drawn = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const show = setTimeout(() => {
    if (io.isTTY) {
      timer = setInterval(() => {
        drawn = true;
        io.stderr(`\r${FRAMES[frame++ % FRAMES.length]} ${label} (${secondsSoFar()} s)`);
      }, 100);
    } else {
      io.stderr(`… ${label}\n`);
      timer = setInterval(() => io.stderr(`… ${label} (${secondsSoFar()} s so far)\n`), 10_000);
    }
  }, 1000);
  try {
    return await step;
  } finally {
    clearTimeout(show);
    clearInterval(timer);
    // The spinner's line is erased, so what the step prints next starts on a clean line.
    if (drawn) io.stderr('\r\x1b[2K');
  }
}
