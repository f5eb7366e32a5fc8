/**
 * The project's src/hooks.ts runs around every request, through a real client over stdio and HTTP:
 * `before` sees the method, the entry and the caller and can refuse a request (its ProtocolError's
 * code reaches the client), `after` sees how it went; an `after` that throws is logged and changes
 * nothing the client gets.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, scratch, startHttpServer } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: hooked, version: 0.1.0 }
transports:
  stdio: {}
  http: { auth: { bearer: { tokensEnv: HOOK_TEST_TOKENS } } }
tools:
  open:
    description: Anyone may call it
  secret:
    description: The policy in src/hooks.ts refuses it
`;
const HOOKS = `import { appendFileSync } from 'node:fs';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { RequestHooks } from '@mcpgen/runtime';

const audit = (line: object) => appendFileSync(process.env.HOOK_AUDIT!, \`\${JSON.stringify(line)}\\n\`);

export const hooks: RequestHooks = {
  before: ({ method, name }) => {
    if (method === 'tools/call' && name === 'secret') throw new ProtocolError(-32001, 'refused by policy');
  },
  after: ({ method, name, principal, outcome, durationMs }) => {
    audit({ method, name, principal, outcome, timed: typeof durationMs === 'number' });
    if (name === 'open') throw new Error('the audit sink is broken');
  },
};
`;

let dir: string;
let audit: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  dir = scratch('hooks');
  audit = path.join(dir, 'audit.jsonl');
  writeFileSync(audit, '');
  writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  // The file mcpgen created is the user's: replaced here with a real policy.
  expect(readFileSync(path.join(dir, 'src/hooks.ts'), 'utf8')).toContain('export const hooks: RequestHooks = {');
  writeFileSync(path.join(dir, 'src/hooks.ts'), HOOKS);
  writeFileSync(
    path.join(dir, 'src/handlers/tools/open.ts'),
    "import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['open'] = async () => 'opened';\n",
  );
  const tsc = await buildServer(dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  http = await startHttpServer(dir, { HOOK_AUDIT: audit, HOOK_TEST_TOKENS: 'carol:tok-carol' });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
});

const lines = () =>
  readFileSync(audit, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each(['stdio', 'HTTP'])('over %s', (transport) => {
  it('refuses what before refuses, with its code; after sees every request; a failing after changes nothing', async () => {
    const client = new Client({ name: 'hooks-e2e', version: '0.0.0' });
    await client.connect(
      transport === 'stdio'
        ? new StdioClientTransport({
            command: process.execPath,
            args: [path.join(dir, 'dist/src/main.js')],
            env: { ...(process.env as Record<string, string>), HOOK_AUDIT: audit },
            stderr: 'pipe',
          })
        : new StreamableHTTPClientTransport(http.url, {
            requestInit: { headers: { Authorization: 'Bearer tok-carol' } },
          }),
    );
    clients.push(client);
    const from = lines().length;
    expect(await client.callTool({ name: 'open', arguments: {} })).toMatchObject({ content: [{ text: 'opened' }] });
    const refused = await client
      .callTool({ name: 'secret', arguments: {} })
      .catch((e: { code: number; message: string }) => e);
    expect(refused).toMatchObject({ code: -32001 });
    expect((refused as Error).message).toContain('refused by policy');
    await client.listTools();
    const seen = lines().slice(from);
    const principal = transport === 'HTTP' ? 'carol' : undefined;
    expect(seen).toEqual([
      { method: 'tools/call', name: 'open', outcome: 'ok', timed: true, ...(principal ? { principal } : {}) },
      { method: 'tools/call', name: 'secret', outcome: 'error', timed: true, ...(principal ? { principal } : {}) },
      { method: 'tools/list', outcome: 'ok', timed: true, ...(principal ? { principal } : {}) },
    ]);
  });
});

it('the hook that failed is in the server log', async () => {
  await new Promise((r) => setTimeout(r, 100));
  expect(http.stderr()).toContain('hook after failed');
  expect(http.stderr()).toContain('the audit sink is broken');
});
