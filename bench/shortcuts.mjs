#!/usr/bin/env node
// What each speed shortcut of the CLI is worth to a user: the wall time of the commands they run
// (cold generate, no-op generate after it, validate) on the realistic 50-tool manifest
// (bench/realistic.mjs), and on examples/weather as a second row, with every shortcut on and with
// each one off in turn, interleaved (one run of every variant per round) so machine noise hits
// them alike. The rule: a shortcut stays only while turning it off makes at least one of those
// commands ≥ 10 % slower in wall time (the median of the rounds' off / on ratios) at 50 tools;
// below that, the code it costs is not worth it. CPU time (user + sys of the whole process) is
// shown beside it and does not decide: work saved on a core that would idle saves the user nothing.
// Usage: node bench/shortcuts.mjs [runs=21]   (after npm run build)
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, table } from './lib.mjs';
import { realisticManifest } from './realistic.mjs';

/**
 * Each shortcut's off switch is one a user has too: `--debug` takes the commander path,
 * MCPGEN_QUICK_YAML=0 the `yaml` package.
 */
export const VARIANTS = [
  { name: 'every shortcut on', args: [], env: {} },
  { name: 'argv parser beside commander off', args: ['--debug'], env: {} },
  { name: 'quick YAML parser off', args: [], env: { MCPGEN_QUICK_YAML: '0' } },
];

/** Where a user meets them, in the report. */
const OFF_SWITCHES = 'Off switches a user has too: `--debug`, `MCPGEN_QUICK_YAML=0`.';

/** The size the rule is decided at: what people ship. */
const DECIDING = 'realistic, 50 tools';

/**
 * Runs a process to completion under a shell that then prints, with its `times` builtin, the
 * waited-for child's CPU time: no package, no extra process, and the child is exactly what a user
 * runs. NODE_EXTRA_CA_CERTS is left out, as bench/run.mjs does: Node reads that bundle at every
 * start, and nothing timed here uses TLS.
 */
function timed(cmd, args, { cwd, env }) {
  const script = '"$@" >/dev/null 2>&1; code=$?; times; exit $code';
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', script, 'sh', cmd, ...args], { cwd, env: { ...inherited, ...env } }, (error, stdout) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (error && error.code !== 1) return reject(new Error(`${cmd} ${args.join(' ')} in ${cwd}: exit ${error.code}`));
      // The second line of `times`: the children's user and system time, e.g. `0m0.250000s 0m0.030000s`.
      const [user, sys] = stdout
        .trim()
        .split('\n')
        .at(-1)
        .split(' ')
        .map((t) => {
          const [, m, sec] = /^(\d+)m([\d.]+)s$/.exec(t);
          return Number(m) * 60_000 + Number(sec) * 1000;
        });
      resolve({ wallMs, cpuMs: user + sys });
    });
  });
}

export async function shortcutsBench({ repo, runs = 21, log = () => {} }) {
  const mcpgen = path.join(repo, 'bin/mcpgen.js');
  const work = path.join(repo, '.tmp/bench/shortcuts');
  rmSync(work, { recursive: true, force: true });
  const manifests = {
    [DECIDING]: (dir) => writeFileSync(path.join(dir, 'mcpgen.yaml'), realisticManifest(50)),
    'examples/weather': (dir) => {
      const from = path.join(repo, 'examples/weather');
      copyFileSync(path.join(from, 'mcpgen.yaml'), path.join(dir, 'mcpgen.yaml'));
      copyFileSync(path.join(from, 'logo.png'), path.join(dir, 'logo.png'));
      cpSync(path.join(from, 'docs'), path.join(dir, 'docs'), { recursive: true });
      cpSync(path.join(from, 'ui'), path.join(dir, 'ui'), { recursive: true });
    },
  };
  const results = {};
  const load = [os.loadavg()[0]];
  let fresh = 0;
  for (const [label, write] of Object.entries(manifests)) {
    const validateDir = path.join(work, `validate-${fresh++}`);
    mkdirSync(validateDir, { recursive: true });
    write(validateDir);
    const r = (results[label] = Object.fromEntries(
      VARIANTS.map((v) => [v.name, { generate: [], noop: [], validate: [] }]),
    ));
    for (let i = 0; i < runs; i++) {
      // Rotated each round, so no variant always runs first (or right after the same one).
      for (const v of VARIANTS.map((_, k) => VARIANTS[(k + i) % VARIANTS.length])) {
        // Cold: a folder never used before (deleting first would slow the writes, see RESULTS.md).
        const dir = path.join(work, `cold-${fresh++}`);
        mkdirSync(dir, { recursive: true });
        write(dir);
        const generate = () => timed(process.execPath, [mcpgen, 'generate', '-q', ...v.args], { cwd: dir, env: v.env });
        r[v.name].generate.push(await generate());
        // The same again: nothing to write (a regenerate after a handler edit, what CI's check costs).
        r[v.name].noop.push(await generate());
        r[v.name].validate.push(
          await timed(process.execPath, [mcpgen, 'validate', ...v.args], { cwd: validateDir, env: v.env }),
        );
      }
    }
    load.push(os.loadavg()[0]);
    log(`shortcuts: ${label} done`);
  }
  rmSync(work, { recursive: true, force: true });
  return { md: report(results, runs, load), results };
}

/**
 * The kernel reports a child's CPU time in 10 ms ticks, a tenth of a validate: a median of ticks
 * moves in steps of that size, a mean of many runs (the fastest and slowest tenth left out) does not.
 */
function trimmedMean(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(s.length / 10);
  const kept = s.slice(cut, s.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

const COMMANDS = ['generate', 'noop', 'validate'];
const wall = (xs) => median(xs.map((x) => x.wallMs));
const cpu = (xs) => trimmedMean(xs.map((x) => x.cpuMs));

/**
 * Off / on in wall time: the median of each round's ratio, the runs of a round seconds apart,
 * so a load that comes and goes over minutes (other work on two shared cores) cancels out.
 */
const wallRatio = (on, off) => median(off.map((x, i) => x.wallMs / on[i].wallMs));

/** The slowest command with the shortcut off: what decides whether it stays. */
const worst = (on, off) => Math.max(...COMMANDS.map((cmd) => wallRatio(on[cmd], off[cmd])));

function report(results, runs, load) {
  const rows = [];
  for (const [label, r] of Object.entries(results)) {
    const on = r[VARIANTS[0].name];
    const cost = (cmd) => `**${wall(on[cmd]).toFixed(0)} ms** (${cpu(on[cmd]).toFixed(0)} ms CPU)`;
    rows.push([`**${label}**: every shortcut on`, ...COMMANDS.map(cost), '']);
    for (const v of VARIANTS.slice(1)) {
      const off = r[v.name];
      const ratio = (cmd) =>
        `**${wallRatio(on[cmd], off[cmd]).toFixed(2)}×** (${(cpu(off[cmd]) / cpu(on[cmd])).toFixed(2)}× CPU)`;
      const verdict =
        label === DECIDING ? (worst(on, off) >= 1.1 ? 'stays (≥ 1.10× wall)' : 'goes (< 1.10× wall)') : '';
      rows.push([`${label}: ${v.name}`, ...COMMANDS.map(ratio), verdict]);
    }
  }
  return [
    `### What each speed shortcut is worth (off / on over ${runs} interleaved rounds: wall, the median of the rounds' ratios; CPU, of trimmed means)`,
    '',
    // Wall time on two cores moves with whatever else runs: the machine's load belongs with the figures.
    `One-minute load average at the start and after each manifest: ${load.map((l) => l.toFixed(1)).join(', ')} (${os.cpus().length} cores).`,
    '',
    `Above 1.00× the shortcut saves time. It stays only where turning it off makes a command ≥ 1.10× slower in wall time on the realistic 50-tool manifest. ${OFF_SWITCHES}`,
    '',
    table(['manifest, shortcut', 'cold generate', 'no-op generate', 'validate', 'at 50 tools'], rows),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { md } = await shortcutsBench({ repo, runs: Number(process.argv[2] ?? 21), log: (s) => console.error(s) });
  console.log(md);
}
