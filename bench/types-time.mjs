// Cold `mcpgen generate -q` of the realistic 50-tool manifest, wall time, median of interleaved runs, for
// each variant given as label=<mcpgen bin>[:ENV=value] (docs/types.md). Every run generates into a
// folder never used before.
// Usage: node bench/types-time.mjs [runs=15] own=bin/mcpgen.js j2t=.tmp/wt/bin/mcpgen.js:MCPGEN_TYPES=j2t[:MORE=1]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { realisticManifest } from './realistic.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 15;
const variants = args.map((a) => {
  const [label, rest] = a.split(/=(.*)/s);
  const [bin, ...env] = rest.split(':');
  return { label, bin: path.resolve(REPO, bin), env: Object.fromEntries(env.map((e) => e.split('='))) };
});
const base = path.join(REPO, '.tmp/types-time');
rmSync(base, { recursive: true, force: true });
const manifest = realisticManifest(50);
const times = Object.fromEntries(variants.map((v) => [v.label, []]));
for (let i = 0; i < runs + 1; i++) {
  for (const v of i % 2 ? variants : [...variants].reverse()) {
    const dir = path.join(base, `${v.label}-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
    const t0 = performance.now();
    execFileSync(process.execPath, [v.bin, 'generate', '-q'], {
      cwd: dir,
      env: { ...process.env, ...v.env },
      stdio: 'ignore',
    });
    const ms = performance.now() - t0;
    if (i > 0) times[v.label].push(ms); // the first round warms the file system cache
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = median(times[variants[0].label]);
for (const v of variants) {
  const m = median(times[v.label]);
  console.log(
    `${v.label.padEnd(8)} median ${m.toFixed(0)} ms  (×${(m / first).toFixed(2)})  runs ${times[v.label].map((t) => t.toFixed(0)).join(' ')}`,
  );
}
rmSync(base, { recursive: true, force: true });
