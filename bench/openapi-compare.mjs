// From an OpenAPI document to a running MCP server: mcpgen (import openapi → generate) side by side
// with openapi-mcp-generator 4.0.1 on the same documents. For each: operations turned into tools,
// what the tools' schemas keep (input properties, output schemas), whether the project compiles
// (tsc, TypeScript 7), and, for the real API (a Fastify app on 127.0.0.1), whether a call of every
// operation through a real MCP client succeeds. Then generate's time on GitHub's whole API and on
// 50 of its operations. Prints markdown tables (bench/RESULTS.md, "OpenAPI import").
//
//   node bench/openapi-compare.mjs            (after npm run build)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseYaml } from 'yaml';
import { inventoryApi, TOKEN } from '../test/helpers/inventory-api.mjs';
import { ensureOpenApiGenerator } from './generator.mjs';
import { fmt, table, timeProcess } from './lib.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const MCPGEN = path.join(REPO, 'bin/mcpgen.js');
const TSC = path.join(REPO, 'node_modules/.bin/tsc');
const WORK = path.join(REPO, '.tmp/bench-openapi');
const GITHUB = path.join(REPO, 'node_modules/@octokit/openapi/generated/api.github.com.json');

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const omg = await ensureOpenApiGenerator(REPO);
if (!omg) throw new Error('openapi-mcp-generator could not be installed (npm)');

// The documents: a hand-written 3.0 one (refs, nullable, readOnly), the real API's own, GitHub's
// issues (one tag, as a document of its own so both tools get the same input) and GitHub whole.
const api = await inventoryApi();
await api.listen({ port: 0, host: '127.0.0.1' });
const apiUrl = `http://127.0.0.1:${api.server.address().port}`;
const github = JSON.parse(readFileSync(GITHUB, 'utf8'));
const docs = {
  petstore: path.join(REPO, 'test/fixtures/openapi/petstore-3.0.yaml'),
  inventory: write('inventory.yaml', api.swagger({ yaml: true })),
  'github-issues': write('github-issues.json', JSON.stringify(byTag(github, 'issues'))),
  github: GITHUB,
};

const rows = [];
for (const [name, doc] of Object.entries(docs)) {
  const ops = operations(name === 'github' ? github : loadDoc(doc));
  const a = await runMcpgen(name, doc);
  const b = await runOmg(name, doc);
  rows.push([
    name,
    ops,
    `${a.tools} / ${b.tools}`,
    `${a.properties} / ${b.properties}`,
    `${a.outputs} / ${b.outputs}`,
    `${a.compiles} / ${b.compiles}`,
    name === 'inventory' ? `${a.calls} / ${b.calls}` : '—',
  ]);
  console.error(name, rows.at(-1));
}
await api.close();

console.log('\n### OpenAPI import: mcpgen / openapi-mcp-generator 4.0.1 on the same documents\n');
console.log(
  table(
    [
      'document',
      'operations',
      'tools listed',
      'input properties',
      'tools with an output schema',
      'tsc',
      'calls that succeed (real API)',
    ],
    rows,
  ),
);

// generate's time: the whole GitHub API, and 50 of its operations.
const first50 = Object.values(github.paths)
  .flatMap((item) => ['get', 'post', 'put', 'patch', 'delete'].map((m) => item[m]?.operationId))
  .filter(Boolean)
  .slice(0, 50);
const timing = [];
for (const [label, args] of [
  ['GitHub, every operation', []],
  ['GitHub, 50 operations', first50.flatMap((o) => ['--operation', o])],
]) {
  const dir = path.join(WORK, `time-${args.length ? 50 : 'all'}`);
  mkdirSync(dir, { recursive: true });
  const imp = await timeProcess(process.execPath, [MCPGEN, 'import', 'openapi', GITHUB, '--api', 'github', ...args], {
    cwd: dir,
  });
  const cold = [];
  const noop = [];
  for (let i = 0; i < 3; i++) {
    for (const f of ['src', 'test', 'package.json', '.mcpgen'])
      rmSync(path.join(dir, f), { recursive: true, force: true });
    cold.push((await timeProcess(process.execPath, [MCPGEN, 'generate', '-q'], { cwd: dir })).ms);
    noop.push((await timeProcess(process.execPath, [MCPGEN, 'generate', '-q'], { cwd: dir })).ms);
  }
  const tools = Object.keys(parseYaml(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).tools).length;
  const size = (readFileSync(path.join(dir, 'mcpgen.yaml')).length / 1024).toFixed(0);
  timing.push([label, tools, `${size} KB`, fmt([imp.ms]), fmt(cold), fmt(noop)]);
}
console.log('\n### OpenAPI import: time (median (min–max) of 3)\n');
console.log(table(['manifest', 'entries', 'manifest size', 'import', 'cold generate', 'no-op generate'], timing));

function write(file, text) {
  const p = path.join(WORK, file);
  writeFileSync(p, text);
  return p;
}

function loadDoc(p) {
  const text = readFileSync(p, 'utf8');
  return p.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

function operations(doc) {
  let n = 0;
  for (const item of Object.values(doc.paths ?? {}))
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) if (item[m]) n++;
  return n;
}

/** The document with only the operations tagged `tag` (and every component, which they may use). */
function byTag(doc, tag) {
  const paths = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    const kept = Object.fromEntries(Object.entries(item).filter(([, op]) => op?.tags?.includes(tag)));
    if (Object.keys(kept).length) paths[p] = kept;
  }
  return { ...doc, paths };
}

async function runMcpgen(name, doc) {
  const dir = path.join(WORK, `mcpgen-${name}`);
  mkdirSync(dir, { recursive: true });
  await timeProcess(process.execPath, [MCPGEN, 'import', 'openapi', doc, '--api', 'api'], { cwd: dir });
  await timeProcess(process.execPath, [MCPGEN, 'generate', '-q'], { cwd: dir });
  const tsc = await timeProcess(TSC, ['-p', 'tsconfig.json'], { cwd: dir, allowFail: true, timeoutMs: 300_000 });
  const env = { API_URL: apiUrl, API_TOKEN: TOKEN };
  return measure(tsc, [path.join(dir, 'dist/src/main.js')], env, name);
}

async function runOmg(name, doc) {
  const dir = path.join(omg.home, `out-openapi-${name}`);
  rmSync(dir, { recursive: true, force: true });
  await timeProcess(process.execPath, [omg.bin, '-i', doc, '-o', dir, '-b', apiUrl], { cwd: omg.home });
  // Its tsconfig predates TypeScript 6, which wants `rootDir` said (TS5011): said here, nothing else changed.
  const tsc = await timeProcess(TSC, ['-p', 'tsconfig.json', '--rootDir', 'src'], {
    cwd: dir,
    allowFail: true,
    timeoutMs: 300_000,
  });
  const env = { API_BASE_URL: apiUrl, BEARER_TOKEN_BEARERAUTH: TOKEN };
  return measure(tsc, [path.join(dir, 'build/index.js')], env, name);
}

/** Lists the tools through a real client (the JavaScript tsc emitted, even with type errors) and, for the real API, calls each operation. */
async function measure(tsc, args, env, name) {
  const compiles = tsc.timedOut
    ? 'over 300 s'
    : tsc.code === 0
      ? `yes (${(tsc.ms / 1000).toFixed(1)} s)`
      : `no (${errors(tsc.out)} errors)`;
  const client = new Client({ name: 'openapi-compare', version: '0.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args, env: { ...process.env, ...env }, stderr: 'ignore' }),
    );
  } catch {
    return { tools: 'does not start', properties: '—', outputs: '—', compiles, calls: '—' };
  }
  try {
    const { tools } = await client.listTools();
    const properties = tools.reduce((n, t) => n + Object.keys(t.inputSchema?.properties ?? {}).length, 0);
    const outputs = tools.filter((t) => t.outputSchema).length;
    const calls = name === 'inventory' ? await callEach(client, tools) : '—';
    return { tools: tools.length, properties, outputs, compiles, calls };
  } finally {
    await client.close().catch(() => {});
  }
}

function errors(out) {
  return (out.match(/error TS\d+/g) ?? []).length;
}

/** create, get, list, replace, delete through whichever argument layout the tool advertises. */
async function callEach(client, tools) {
  const find = (op) => tools.find((t) => t.name.replace(/_/g, '').toLowerCase() === op.toLowerCase());
  const args = (tool, values, body) => {
    const props = tool.inputSchema?.properties ?? {};
    const out = {};
    for (const [k, v] of Object.entries(values)) if (k in props) out[k] = v;
    const bodyProp = Object.keys(props).find((k) => /^(requestBody|body)$/.test(k));
    if (body && bodyProp) out[bodyProp] = body;
    else if (body) Object.assign(out, body);
    return out;
  };
  // The id the API gave the created item (the API is shared by both servers' runs).
  let id = 0;
  const steps = [
    ['createItem', () => ({}), { name: 'Hammer', price: 12.5, tags: ['tools'] }, (t) => t.includes('Hammer')],
    ['getItem', () => ({ id }), undefined, (t) => t.includes('Hammer')],
    ['listItems', () => ({}), undefined, (t) => t.includes('"total"')],
    ['replaceItem', () => ({ id }), { name: 'Sledgehammer', price: 40 }, (t) => t.includes('Sledgehammer')],
    ['deleteItem', () => ({ id }), undefined, () => true],
  ];
  let ok = 0;
  for (const [op, values, body, check] of steps) {
    const tool = find(op);
    if (!tool) continue;
    const r = await client
      .callTool({ name: tool.name, arguments: args(tool, values(), body) })
      .catch((e) => ({ isError: true, content: [{ text: String(e) }] }));
    const text = (r.content ?? []).map((c) => c.text ?? '').join('');
    if (op === 'createItem') id = Number(/"id":\s*(\d+)/.exec(text)?.[1] ?? 0);
    if (!r.isError && check(text)) ok++;
    else console.error(`  ${tool.name}: ${text.slice(0, 200)}`);
  }
  return `${ok} of ${steps.length}`;
}
