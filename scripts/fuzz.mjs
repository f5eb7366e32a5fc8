#!/usr/bin/env node
/**
 * The long manifest fuzz run: `npm run fuzz -- [--count 5000] [--seed S] [--jobs 2]
 * [--typecheck-every N] [--bin-every N] [--timeout ms]`, or `--replay <id>[,<id>…]` to run saved
 * findings (.tmp/fuzz-findings/<id>) again, `--minutes M` to stop starting mutants after M minutes,
 * `--summary` to print the table of what is saved in .tmp/fuzz-findings. Needs a built dist/
 * (npm run build). Exits 1 when there are findings, printing them by kind and signature.
 */
import path from 'node:path';
import { runFuzz, savedFindings, summarize } from '../test/fuzz/runner.mjs';

const args = process.argv.slice(2);
/** @type {Record<string, string>} */
const o = {};
for (let i = 0; i < args.length; i++) {
  const a = /** @type {string} */ (args[i]);
  const m = /^--([\w-]+)(?:=(.*))?$/.exec(a);
  if (!m) usage(`unexpected argument ${a}`);
  const key = /** @type {string} */ (m[1]);
  if (
    ![
      'count',
      'seed',
      'jobs',
      'typecheck-every',
      'typecheck-max',
      'bin-every',
      'timeout',
      'replay',
      'minutes',
      'summary',
      'help',
    ].includes(key)
  )
    usage(`unknown option --${key}`);
  if (key === 'help') usage();
  if (key === 'summary') {
    o.summary = 'yes';
    continue;
  }
  o[key] = m[2] ?? /** @type {string} */ (args[++i] ?? usage(`--${key} needs a value`));
}

function usage(problem) {
  if (problem) process.stderr.write(`fuzz: ${problem}\n`);
  process.stderr.write(
    'usage: npm run fuzz -- [--count N] [--seed S] [--jobs 1-4] [--typecheck-every N] [--typecheck-max N] [--bin-every N] [--timeout ms] [--minutes M] | --replay <id>[,<id>…] | --summary\n',
  );
  process.exit(problem ? 2 : 0);
}

const int = (key, dflt) => {
  if (o[key] === undefined) return dflt;
  const n = Number(o[key]);
  if (!Number.isInteger(n) || n < 0) usage(`--${key} ${o[key]}: expected a whole number`);
  return n;
};

if (o.summary) {
  const saved = savedFindings();
  process.stdout.write(`${summarize(saved)}\n`);
  process.exit(saved.length ? 1 : 0);
}

const opts = {
  count: int('count', 2000),
  seed: int('seed', 1),
  jobs: int('jobs', 2),
  typecheckEvery: int('typecheck-every', 10),
  typecheckMax: int('typecheck-max', Number.MAX_SAFE_INTEGER),
  binEvery: int('bin-every', 10),
  timeoutMs: int('timeout', 20_000),
  ...(o.minutes !== undefined ? { minutes: int('minutes', 0) } : {}),
  ...(o.replay
    ? {
        replay: o.replay
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      }
    : {}),
};
const what = opts.replay ? `replaying ${opts.replay.join(', ')}` : `mutants ${opts.seed}…${opts.seed + opts.count - 1}`;
process.stderr.write(
  `fuzz: ${what} on ${opts.jobs} job(s), bin every ${opts.binEvery}, tsc every ${opts.typecheckEvery}, timeout ${opts.timeoutMs} ms\n`,
);
/** @type {Awaited<ReturnType<typeof runFuzz>>} */
let result;
try {
  result = await runFuzz(opts);
} catch (err) {
  process.stderr.write(`fuzz: ${/** @type {Error} */ (err).message}\n`);
  process.exit(2);
}
const { findings, stats } = result;
const steps = Object.entries(stats.steps)
  .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} s`)
  .join(', ');
const exits = Object.entries(stats.validateExits)
  .map(([k, v]) => `${k}: ${v}`)
  .join(', ');
process.stdout.write(
  `\n${stats.mutants} mutants in ${(stats.ms / 1000).toFixed(0)} s (validate exits ${exits}; ${stats.generated} generated, ${stats.typechecked} type-checked, ${stats.bin} through bin/mcpgen.js${stats.unmade ? `; ${stats.unmade} could not be made (a fuzzer bug)` : ''})\ntime in commands: ${steps}\n\n${summarize(findings)}\n`,
);
if (findings.length)
  process.stdout.write(
    `\nfindings saved under ${path.relative(process.cwd(), path.join(process.cwd(), '.tmp/fuzz-findings'))}/\n`,
  );
process.exitCode = findings.length ? 1 : 0;
