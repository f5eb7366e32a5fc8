// `mcpgen dev` on a 50-tool project: time from saving a file to the restarted server serving it,
// for a manifest edit (regenerate + build + restart) and a handler edit (build + restart). Each
// edit is checked through a real client over HTTP: the new description, the new answer.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fmt, table } from './lib.mjs';
import { syntheticManifest } from './synthetic.mjs';

export async function devReloadBench({ repo, tools = 50, runs = 5 }) {
  const dir = path.join(repo, '.tmp/bench/dev-reload');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'mcpgen.yaml');
  writeFileSync(manifest, syntheticManifest(tools, { clean: true }));
  const child = spawn(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'dev', '--port', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const served = async (from) => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const m = /✔ serving at (\S+) \(([^)]*)\)/.exec(out.slice(from));
      if (m) return { url: new URL(m[1]), reported: m[2] };
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`mcpgen dev did not serve again:\n${out}\n${err}`);
  };
  const withClient = async (url, fn) => {
    const c = new Client({ name: 'bench', version: '0' });
    await c.connect(new StreamableHTTPClientTransport(url));
    try {
      return await fn(c);
    } finally {
      await c.close();
    }
  };
  try {
    const t0 = performance.now();
    const { url } = await served(0);
    const cold = performance.now() - t0;
    const manifestMs = [];
    const handlerMs = [];
    for (let i = 1; i <= runs; i++) {
      let mark = out.length;
      let start = performance.now();
      writeFileSync(manifest, syntheticManifest(tools, { clean: true, variant: i }));
      await served(mark);
      manifestMs.push(performance.now() - start);
      const desc = await withClient(
        url,
        async (c) => (await c.listTools()).tools.find((t) => t.name === 'tool_0')?.description,
      );
      if (!desc?.includes(`(variant ${i})`)) throw new Error(`tool_0 after edit ${i}: ${desc}`);

      const handler = path.join(dir, 'src/handlers/tools/tool_1.ts');
      const text = readFileSync(handler, 'utf8');
      mark = out.length;
      start = performance.now();
      writeFileSync(handler, `${text}\n// edit ${i}\n`);
      await served(mark);
      handlerMs.push(performance.now() - start);
    }
    const md = [
      `### \`mcpgen dev\` reload: ${tools} tools, save → serving again over HTTP (median (min–max) of ${runs})`,
      '',
      'Measured from the write of the file to the `✔ serving at` line of the restarted server (then checked through a real client). Cold: start of `mcpgen dev` (generate, full build, start).',
      '',
      table(
        [
          'cold start',
          'manifest edit (regenerate + tsc --incremental + restart)',
          'handler edit (tsc --incremental + restart)',
        ],
        [[`${cold.toFixed(0)} ms`, fmt(manifestMs), fmt(handlerMs)]],
      ),
    ].join('\n');
    return { md, cold, manifestMs, handlerMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const r = await devReloadBench({ repo, runs: Number(process.argv[2] ?? 5) });
  console.log(r.md);
}
