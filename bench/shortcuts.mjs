#!/usr/bin/env node
// What each speed shortcut of the CLI is worth at the sizes people ship: cold generate and
// validate of the realistic 50-tool manifest (bench/realistic.mjs) and of examples/weather, with
// every shortcut on, and with each one off in turn (and a no-op generate after the cold one), interleaved (one run of every variant per
// round) so machine noise hits them alike. CPU time (user + sys of the whole process) is the
// figure that decides: wall time on two shared cores swings with whatever else runs.
// A shortcut stays only where turning it off costs ≥ 10 % at 50 tools.
// Usage: node bench/shortcuts.mjs [runs=21]   (after npm run build)
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, table } from './lib.mjs';
import { realisticManifest } from './realistic.mjs';

/**
 * Each shortcut's off switch is one a user has too: a V8 flag of their own wins over the tuning
 * (V8's defaults here), `--debug` takes the commander path, MCPGEN_QUICK_YAML=0 the `yaml` package.
 */
export const VARIANTS = [
  { name: 'every shortcut on', node: [], args: [], env: {} },
  { name: 'V8 tiering (interrupt budget) off', node: ['--interrupt-budget=67584'], args: [], env: {} },
  { name: 'argv parser beside commander off', node: [], args: ['--debug'], env: {} },
  { name: 'quick YAML parser off', node: [], args: [], env: { MCPGEN_QUICK_YAML: '0' } },
];

/**
 * Runs a process to completion under a shell that then prints its own /proc stat, whose
 * cutime/cstime are the waited-for child's CPU time: no package, and the child is exactly what
 * a user runs.
 */
function timed(cmd, args, { cwd, env }) {
  const script = '"$@" >/dev/null 2>&1; code=$?; cat /proc/$$/stat; exit $code';
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', script, 'sh', cmd, ...args], { cwd, env: { ...process.env, ...env } }, (error, stdout) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (error && error.code !== 1) return reject(new Error(`${cmd} ${args.join(' ')} in ${cwd}: exit ${error.code}`));
      const fields = stdout.slice(stdout.lastIndexOf(')') + 2).split(' ');
      // Fields 16 and 17 of stat (cutime, cstime), in clock ticks of 10 ms.
      resolve({ wallMs, cpuMs: (Number(fields[13]) + Number(fields[14])) * 10 });
    });
  });
}

export async function shortcutsBench({ repo, runs = 21, log = () => {} }) {
  const mcpgen = path.join(repo, 'bin/mcpgen.js');
  const work = path.join(repo, '.tmp/bench/shortcuts');
  rmSync(work, { recursive: true, force: true });
  const manifests = {
    'realistic, 50 tools': (dir) => writeFileSync(path.join(dir, 'mcpgen.yaml'), realisticManifest(50)),
    'examples/weather': (dir) => {
      const from = path.join(repo, 'examples/weather');
      copyFileSync(path.join(from, 'mcpgen.yaml'), path.join(dir, 'mcpgen.yaml'));
      copyFileSync(path.join(from, 'logo.png'), path.join(dir, 'logo.png'));
      cpSync(path.join(from, 'docs'), path.join(dir, 'docs'), { recursive: true });
    },
  };
  const results = {};
  let fresh = 0;
  for (const [label, write] of Object.entries(manifests)) {
    const validateDir = path.join(work, `validate-${fresh++}`);
    mkdirSync(validateDir, { recursive: true });
    write(validateDir);
    const r = (results[label] = Object.fromEntries(VARIANTS.map((v) => [v.name, { generate: [], noop: [], validate: [] }])));
    for (let i = 0; i < runs; i++) {
      for (const v of VARIANTS) {
        // Cold: a folder never used before (deleting first would slow the writes, see RESULTS.md).
        const dir = path.join(work, `cold-${fresh++}`);
        mkdirSync(dir, { recursive: true });
        write(dir);
        const generate = () => timed(process.execPath, [...v.node, mcpgen, 'generate', '-q', ...v.args], { cwd: dir, env: v.env });
        r[v.name].generate.push(await generate());
        // The same again: nothing to write (a regenerate after a handler edit, what CI's check costs).
        r[v.name].noop.push(await generate());
        r[v.name].validate.push(await timed(process.execPath, [...v.node, mcpgen, 'validate', ...v.args], { cwd: validateDir, env: v.env }));
      }
    }
    log(`shortcuts: ${label} done`);
  }
  rmSync(work, { recursive: true, force: true });
  return { md: report(results, runs), results };
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

function report(results, runs) {
  const cpu = (xs) => trimmedMean(xs.map((x) => x.cpuMs));
  const wall = (xs) => median(xs.map((x) => x.wallMs));
  const rows = [];
  for (const [label, r] of Object.entries(results)) {
    const on = r[VARIANTS[0].name];
    const cost = (cmd) => `${cpu(on[cmd]).toFixed(0)} ms CPU, ${wall(on[cmd]).toFixed(0)} ms wall`;
    rows.push([`**${label}**: every shortcut on`, cost('generate'), cost('noop'), cost('validate')]);
    for (const v of VARIANTS.slice(1)) {
      const off = r[v.name];
      const ratio = (cmd) => `${(cpu(off[cmd]) / cpu(on[cmd])).toFixed(2)}× CPU, ${(wall(off[cmd]) / wall(on[cmd])).toFixed(2)}× wall`;
      rows.push([`${label}: ${v.name}`, ratio('generate'), ratio('noop'), ratio('validate')]);
    }
  }
  return [
    `### What each speed shortcut is worth (off / on over ${runs} interleaved runs: CPU trimmed means, wall medians)`,
    '',
    'Above 1.00× the shortcut saves time. Off switches a user has too: `node --interrupt-budget=67584` (V8 default), `--debug`, `MCPGEN_QUICK_YAML=0`.',
    '',
    table(['manifest, shortcut', 'cold generate', 'no-op generate', 'validate'], rows),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { md } = await shortcutsBench({ repo, runs: Number(process.argv[2] ?? 21), log: (s) => console.error(s) });
  console.log(md);
}
