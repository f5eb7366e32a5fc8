#!/usr/bin/env node
// `npm run demo`: generate examples/weather into a fresh folder, build it, run its tests,
// start it over stdio and show, through a real MCP client, what it serves.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const example = path.join(repo, 'examples/weather');
// Inside the repository, so the generated project resolves its packages from our node_modules.
const dir = path.join(repo, '.tmp/demo/weather');

function step(title) {
  console.log(`\n\x1b[1m▶ ${title}\x1b[0m`);
}
function sh(cmd, args, cwd) {
  console.log(
    `  $ ${[cmd === process.execPath ? 'node' : path.relative(repo, cmd), ...args.map((a) => (a.startsWith(repo) ? path.relative(dir, a) : a))].join(' ')}`,
  );
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
}

step(`a fresh folder with the weather manifest and its handlers (no generated code): ${path.relative(repo, dir)}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// Only what a user owns: the manifest, the files it references, the hand-written handlers and their
// helper modules — everything but the generated folders (and build output).
const generated = new Set(['src/generated', 'test/generated', 'dist', 'node_modules']);
cpSync(example, dir, {
  recursive: true,
  filter: (src) => {
    const parts = path.relative(example, src).split(path.sep);
    return !generated.has(parts[0]) && !generated.has(parts.slice(0, 2).join('/'));
  },
});

step('mcpgen validate && mcpgen generate');
sh(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'validate'], dir);
sh(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'generate'], dir);

step('mcpgen build (its npm run build): type-check with tsc --strict, then bundle the server');
sh(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'build'], dir);

step("the project's own tests (node --test): contract tests over stdio and HTTP, handler tests");
sh(process.execPath, ['--test', '--test-reporter=dot'], path.join(dir, 'dist'));

step('start it over stdio and ask it what it serves (real MCP client)');
const client = new Client({ name: 'mcpgen-demo', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/src/main.js')] }),
);
const info = client.getServerVersion();
console.log(`  server: ${info.name} ${info.version} — ${info.description ?? ''}`);
const show = (label, items, fmt) => {
  console.log(`  ${label} (${items.length}):`);
  for (const item of items) console.log(`    • ${fmt(item)}`);
};
show('tools', (await client.listTools()).tools, (t) => `${t.name} — ${t.description}`);
show('resources', (await client.listResources()).resources, (r) => `${r.uri} (${r.mimeType ?? '?'})`);
show('resource templates', (await client.listResourceTemplates()).resourceTemplates, (t) => t.uriTemplate);
show(
  'prompts',
  (await client.listPrompts()).prompts,
  (p) => `${p.name}(${(p.arguments ?? []).map((a) => a.name + (a.required ? '' : '?')).join(', ')})`,
);

const call = await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris', days: 2 } });
console.log(
  `  tools/call get_forecast {city: Paris, days: 2} →\n    ${call.isError ? call.content[0].text : JSON.stringify(call.structuredContent)}`,
);
const done = await client.complete({
  ref: { type: 'ref/resource', uri: 'weather://forecast/{city}/{date}' },
  argument: { name: 'city', value: 'T' },
});
console.log(`  completion/complete city "T" → ${JSON.stringify(done.completion.values)}`);
const prompt = await client.getPrompt({ name: 'weather_report', arguments: { city: 'Tokyo', style: 'short' } });
console.log(`  prompts/get weather_report → ${JSON.stringify(prompt.messages[0].content.text)}`);
await client.close();

console.log(
  `\n✔ demo done. The generated project is in ${path.relative(process.cwd(), dir)}; try: node ${path.relative(process.cwd(), path.join(dir, 'dist/src/main.js'))} --http`,
);
