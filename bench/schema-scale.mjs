// Schema-heavy scale: N tools whose input schemas are each 5–20 KB of nested `$defs`
// (scripts/synthetic-schemas.mjs). Cold generate (time, peak RSS), `tsc` on the project (TypeScript
// 7, emitting, as `npm run build` does), then the built server over stdio: spawn → initialize →
// tools/list (every schema) and one tools/call per tool with input its schema rejects, which makes
// each validator compile and run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fmt, timeProcess } from './lib.mjs';
import { schemaHeavyManifest } from '../scripts/synthetic-schemas.mjs';

/** Wall time and peak RSS (MiB, via GNU time when present) of a whole process. */
async function measured(cmd, args, opts) {
  if (!existsSync('/usr/bin/time')) return { ...(await timeProcess(cmd, args, opts)), rssMiB: NaN };
  const r = await timeProcess('/usr/bin/time', ['-f', 'mcpgen-peak-rss-kb=%M', cmd, ...args], opts);
  const kb = Number(/mcpgen-peak-rss-kb=(\d+)/.exec(r.out)?.[1] ?? NaN);
  return { ...r, rssMiB: kb / 1024 };
}

/** spawn → initialize → tools/list → one invalid tools/call per tool; times of each leg. */
function serve(dir, toolCount, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error('schema-scale server did not answer in time'))),
      timeoutMs,
    );
    let buf = '';
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const times = {};
    let tools = [];
    let answered = 0;
    let listBytes = 0;
    child.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const msg = JSON.parse(line);
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          times.list = performance.now() - t0;
          listBytes = line.length;
          tools = msg.result.tools;
          const t1 = performance.now();
          times.callsStart = t1;
          for (const [i, t] of tools.entries())
            send({
              jsonrpc: '2.0',
              id: 100 + i,
              method: 'tools/call',
              params: { name: t.name, arguments: { __not_a_property__: 1 } },
            });
        } else if (msg.id >= 100 && ++answered === tools.length) {
          times.calls = performance.now() - times.callsStart;
          clearTimeout(timer);
          child.kill();
          resolve({ listMs: times.list, callsMs: times.calls, tools: tools.length, listBytes, expected: toolCount });
        }
      }
    });
    child.on('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    });
  });
}

export async function schemaScaleBench({ repo, tools, runs }) {
  const mcpgen = path.join(repo, 'bin/mcpgen.js');
  const tsc = path.join(repo, 'node_modules/.bin/tsc');
  // Inside the repository, so the generated project resolves the SDK from its node_modules.
  const dir = path.join(repo, '.tmp/bench/schema-scale');
  const manifest = schemaHeavyManifest(tools);
  const r = { generate: [], rss: [], tsc: [], list: [], calls: [] };
  let served;
  for (let i = 0; i < runs; i++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
    const g = await measured(process.execPath, [mcpgen, 'generate', '-q'], { cwd: dir });
    r.generate.push(g.ms);
    r.rss.push(g.rssMiB);
    r.tsc.push((await timeProcess(tsc, ['-p', 'tsconfig.json'], { cwd: dir, timeoutMs: 300_000 })).ms);
    served = await serve(dir, tools);
    if (served.tools !== tools)
      throw new Error(`schema-scale: tools/list gave ${served.tools} tools, expected ${tools}`);
    r.list.push(served.listMs);
    r.calls.push(served.callsMs);
  }
  const kb = (Buffer.byteLength(manifest) / 1024).toFixed(0);
  const schemasKb = (readFileSync(path.join(dir, 'src/generated/schemas.ts')).length / 1024).toFixed(0);
  const md = [
    `### Schema-heavy scale: ${tools} tools, input schemas of 5–20 KB of nested \`$defs\` (median (min–max) of ${runs} run${runs > 1 ? 's' : ''})`,
    '',
    `Manifest ${kb} KB; generated schemas.ts ${schemasKb} KB; tools/list answer ${(served.listBytes / 1024).toFixed(0)} KB.`,
    '',
    '| cold generate | peak RSS of generate | `tsc` (build) | spawn → tools/list | one invalid call per tool (every validator compiled) |',
    '| --- | --- | --- | --- | --- |',
    `| ${fmt(r.generate)} | ${fmt(
      r.rss.filter((x) => !Number.isNaN(x)),
      'MiB',
    )} | ${fmt(r.tsc)} | ${fmt(r.list)} | ${fmt(r.calls)} |`,
  ].join('\n');
  return { md, results: r };
}
