// Small helpers shared by the benchmarks: timing whole processes, statistics, formatting.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command to completion; resolves with wall time in ms (rejects on non-zero exit unless allowed). */
export function timeProcess(cmd, args, { cwd, timeoutMs = 600_000, allowFail = false, env } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    // Its own process group, so a timeout also ends what it started (npm's tsc shim runs the
    // native compiler as a child, which a kill of the shim alone would leave running).
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (timedOut) return resolve({ ms, timedOut: true, code, out });
      if (code !== 0 && !allowFail)
        return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out.slice(-2000)}`));
      resolve({ ms, code, out, timedOut: false });
    });
  });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** "median (min–max)" with a unit. */
export function fmt(xs, unit = 'ms', digits = 0) {
  if (!xs.length) return 'n/a';
  const f = (v) => v.toFixed(digits);
  return `${f(median(xs))} ${unit} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

/** CPU time (user+sys, ms) and peak RSS (MiB) of a live process, from /proc. */
export function procStats(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100/s)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return { cpuMs: ticks * 10, peakRssMiB: hwm / 1024 };
  } catch {
    return { cpuMs: NaN, peakRssMiB: NaN };
  }
}

export function table(headers, rows) {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
