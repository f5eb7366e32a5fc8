/**
 * V8 tuning for a run of about a second. V8 hands a function to its optimizing compiler after a
 * fixed amount of interpreted work, which pays off in a long-lived process; in a one-second CLI run
 * much of that compiling (on the second core, next to the garbage collector's helpers) is for
 * code that has nearly finished. A budget about nine times V8 11's (67,584): cold generate of 1000
 * tools −5 % wall and −20 % CPU, 100 tools −8 %, validate unchanged (interleaved runs; 150k and
 * 300k gained less, 1.2M no more). Node 20's V8 only: on Node 22 (Maglev, an extra tier) it
 * measured neutral. Never over the user's own flag.
 *
 * Called where the heavy work starts (a command that loads, validates or renders a manifest),
 * before its modules load, so their functions start with the tuned budget; the up-to-date fast
 * path does not load node:v8 at all (≈ 3 ms of a no-op generate).
 */
import { createRequire } from 'node:module';

export const INTERRUPT_BUDGET = 600_000;

let tuned = false;

export function tuneTiering(): void {
  if (tuned) return;
  tuned = true;
  const major = Number(process.versions.v8.split('.')[0]);
  const userFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (major === 11 && !userFlags.includes('interrupt-budget')) (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}
