// Reference points for the generator benchmark: parts of a cold generate done by the plainest
// means, so the README can say what the floor is. Run as its own process:
//   node reference-tasks.mjs yaml <manifest>       parse it with the `yaml` library, print ms
//   node reference-tasks.mjs json <manifest>       the same data as JSON text, JSON.parse, print ms
//   node reference-tasks.mjs write <tree> <dest>   write the files of <tree> anew under <dest> (read first, untimed), print ms
//   node reference-tasks.mjs warm <manifest>       mcpgen's generate (load → formatted files, nothing written) three times in
//                                                  one process, print each run's ms: the first runs cold code, the third warm
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [mode, from, to] = process.argv.slice(2);
if (mode === 'yaml') {
  const t0 = performance.now();
  const { parse } = await import('yaml');
  parse(readFileSync(from, 'utf8'));
  console.log((performance.now() - t0).toFixed(1));
} else if (mode === 'json') {
  // The text is made first (untimed), with the `yaml` library.
  const { parse } = await import('yaml');
  const text = JSON.stringify(parse(readFileSync(from, 'utf8')));
  const t0 = performance.now();
  JSON.parse(text);
  console.log((performance.now() - t0).toFixed(1));
} else if (mode === 'write') {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else files.push([path.relative(from, p), readFileSync(p, 'utf8')]);
    }
  };
  walk(from);
  const t0 = performance.now();
  for (const dir of new Set(files.map(([p]) => path.dirname(path.join(to, p))))) mkdirSync(dir, { recursive: true });
  for (const [p, text] of files) writeFileSync(path.join(to, p), text);
  console.log((performance.now() - t0).toFixed(1), files.length);
} else if (mode === 'warm') {
  const dist = new URL('../dist/', import.meta.url);
  const { generate } = await import(new URL('generate.js', dist).href);
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = await generate({
      manifest: path.resolve(from),
      outDir: path.resolve(path.dirname(from), `warm-out-${i}`),
    });
    if (r.files.length === 0) throw new Error('reference-tasks: generate made no files');
    times.push((performance.now() - t0).toFixed(1));
  }
  console.log(times.join(' '));
} else {
  console.error('usage: reference-tasks.mjs yaml|json|warm <manifest> | write <tree> <dest>');
  process.exit(2);
}
