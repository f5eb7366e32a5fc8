// The size of examples/weather's MCP Bundle (`mcpgen pack`), against a budget: the bench fails when
// the bundle outgrows it. What a desktop client downloads and unpacks is the server plus its
// production packages, so a packaging regression (a dev tool, source maps, another platform's
// binaries) shows here first. Why the budget is what it is: bench/RESULTS.md, Method and analysis.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { table, timeProcess } from './lib.mjs';

/** Bytes of weather's bundle above which the bench fails (2,393 KiB measured; ~25 % headroom). */
export const BUNDLE_BUDGET_KIB = 3000;

/** Compressed bytes per top-level package (or project file) from a zip's central directory. */
function sizesByPackage(zip) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const sizes = new Map();
  let files = 0;
  let raw = 0;
  for (let i = 0, at = zip.readUInt32LE(end + 16); i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const parts = name.split('/');
    const key =
      parts[0] === 'node_modules' ? parts.slice(1, parts[1].startsWith('@') ? 3 : 2).join('/') : '(the server)';
    sizes.set(key, (sizes.get(key) ?? 0) + zip.readUInt32LE(at + 20));
    files++;
    raw += zip.readUInt32LE(at + 24);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { sizes, files, raw };
}

export async function bundleBench({ repo }) {
  const mcpgen = path.join(repo, 'bin/mcpgen.js');
  const dir = path.join(repo, '.tmp/bench/bundle/weather');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const from = path.join(repo, 'examples/weather');
  cpSync(from, dir, {
    recursive: true,
    filter: (src) => !/(^|[\\/])(node_modules|dist)([\\/]|$)/.test(path.relative(from, src)),
  });
  await timeProcess(process.execPath, [mcpgen, 'generate', '-q'], { cwd: dir });
  // As its npm run build: tsc, then the bundle pack ships.
  await timeProcess(process.execPath, [mcpgen, 'build'], { cwd: dir });
  const packed = await timeProcess(process.execPath, [mcpgen, 'pack', '--registry-name', 'io.github.example/weather'], {
    cwd: dir,
  });
  const bundles = readdirSync(dir).filter((f) => f.endsWith('.mcpb'));
  if (bundles.length !== 1) throw new Error(`weather packed into ${bundles.length} bundles: ${bundles.join(', ')}`);
  const zip = readFileSync(path.join(dir, bundles[0]));
  const { sizes, files, raw } = sizesByPackage(zip);
  const kib = zip.length / 1024;
  const over = kib > BUNDLE_BUDGET_KIB;
  const top = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 6);
  const md = [
    `### MCP Bundle size: examples/weather (\`mcpgen pack\`, budget ${BUNDLE_BUDGET_KIB} KiB)`,
    '',
    table(
      ['bundle', 'size', 'budget', 'unpacked', 'files', 'packages', '`mcpgen pack`'],
      [
        [
          bundles[0],
          `**${kib.toFixed(0)} KiB**`,
          `${BUNDLE_BUDGET_KIB} KiB: ${over ? '**over**' : `${((kib / BUNDLE_BUDGET_KIB) * 100).toFixed(0)} % used`}`,
          `${(raw / 2 ** 20).toFixed(1)} MiB`,
          String(files),
          /\((\d+) packages/.exec(packed.out)?.[1] ?? '?',
          `${(packed.ms / 1000).toFixed(1)} s`,
        ],
      ],
    ),
    '',
    `Largest parts (compressed): ${top.map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KiB`).join(', ')}.`,
  ].join('\n');
  return { md, kib, over };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await bundleBench({ repo: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') });
  console.log(r.md);
  if (r.over) {
    console.error(`weather's bundle is ${r.kib.toFixed(0)} KiB, over the budget of ${BUNDLE_BUDGET_KIB} KiB`);
    process.exitCode = 1;
  }
}
