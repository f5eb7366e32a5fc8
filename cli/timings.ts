/**
 * MCPGEN_TIMINGS=1: where a run's time goes, stage by stage (wall time, and how much of it was
 * garbage collection: V8 reports each pause late, but with its start time, so it is put back into
 * the stage it interrupted), printed to stderr at exit. For finding regressions and for bug
 * reports; off by default and free when off.
 */
// performance and PerformanceObserver are Node's globals, touched only when enabled: importing
// node:perf_hooks loads its whole module graph, ≈ 3 ms of every run (a no-op generate is ≈ 0.15 s).

const enabled = Boolean(process.env.MCPGEN_TIMINGS);
const stages: [string, number, number][] = []; // name, ended at, took
const pauses: [number, number][] = []; // started at, took
const parts = new Map<string, number>();
let last = 0;
let gcTotal = 0;

if (enabled) {
  last = performance.now();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcTotal += e.duration;
      pauses.push([e.startTime, e.duration]);
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    mark('(rest)');
    const gcIn = (end: number, took: number) =>
      pauses.reduce((sum, [at, d]) => (at >= end - took && at < end ? sum + d : sum), 0);
    const rows = stages.map(([name, end, ms]) => {
      const gc = gcIn(end, ms);
      return `  ${name.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms${gc >= 0.5 ? ` (gc ${gc.toFixed(0)})` : ''}`;
    });
    for (const [what, ms] of parts) if (ms >= 1) rows.push(`    ${what.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms`);
    process.stderr.write(
      `mcpgen timings (${performance.now().toFixed(0)} ms since the process started; gc ${gcTotal.toFixed(0)} ms in all):\n${rows.join('\n')}\n`,
    );
  });
}

/** Ends the stage that ran since the previous mark. */
export function mark(stage: string): void {
  if (!enabled) return;
  const now = performance.now();
  stages.push([stage, now, now - last]);
  last = now;
}

/** performance.now() when timings are on, 0 otherwise (nothing to load or measure). */
export const now: () => number = enabled ? () => performance.now() : () => 0;

/** Adds time to a part of a stage (the build's files), reported under the stages. */
export function spent(what: string, ms: number): void {
  if (enabled) parts.set(what, (parts.get(what) ?? 0) + ms);
}

export const timingsEnabled = enabled;
