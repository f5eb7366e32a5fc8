/**
 * A tool's `timeoutMs`, through real clients over stdio and Streamable HTTP (2025 sessions and
 * 2026-07-28 requests): past the limit the handler's `ctx.signal` aborts (with a TimeoutError) and
 * the caller gets an error result naming the limit; a handler that ignores the signal cannot hold
 * the answer back, and the server goes on answering; a call within its limit is answered as usual.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as McpClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, connectHttp, startHttpServer } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: timeouts, version: 0.1.0 }
tools:
  waits:
    description: Waits until its signal aborts, and records why
    timeoutMs: 300
  stubborn:
    description: Ignores its signal and answers after two seconds
    timeoutMs: 200
  quick:
    description: Answers at once, well within its limit
    timeoutMs: 5000
    output: { type: object, properties: { ok: { type: boolean, description: Always true } }, required: [ok] }
`;

const HANDLERS: Record<string, string> = {
  'src/handlers/tools/waits.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['waits'] = (_input, ctx) =>
  new Promise((_resolve, reject) => {
    ctx.signal.addEventListener('abort', () => {
      const reason = ctx.signal.reason as Error;
      appendFileSync(process.env.TIMEOUT_MARKS!, \`\${reason.name}: \${reason.message}\\n\`);
      reject(reason);
    });
  });
`,
  'src/handlers/tools/stubborn.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['stubborn'] = () => new Promise((resolve) => setTimeout(() => resolve('too late'), 2000));
`,
  'src/handlers/tools/quick.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['quick'] = async () => ({ ok: true });
`,
};

let dir: string;
let marks: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  dir = await builtProject('tool-timeout', MANIFEST, HANDLERS);
  marks = path.join(dir, 'marks.txt');
  writeFileSync(marks, '');
  http = await startHttpServer(dir, { TIMEOUT_MARKS: marks });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
});

async function stdioClient(modern: boolean): Promise<Client> {
  const client = new McpClient(
    { name: 'timeout-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, 'dist/src/main.js')],
      env: { ...process.env, TIMEOUT_MARKS: marks } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

const connections: [string, () => Promise<Client>][] = [
  ['stdio, 2025 client', () => stdioClient(false)],
  ['stdio, 2026-07-28 client', () => stdioClient(true)],
  [
    'HTTP, 2025 client',
    async () => {
      const c = await connectHttp(http.url, false);
      clients.push(c);
      return c;
    },
  ],
  [
    'HTTP, 2026-07-28 client',
    async () => {
      const c = await connectHttp(http.url, true);
      clients.push(c);
      return c;
    },
  ],
];

describe.each(connections)('%s', (_label, connect) => {
  it('aborts the handler at its limit and answers with an error result naming it', async () => {
    const client = await connect();
    const before = readFileSync(marks, 'utf8').split('\n').filter(Boolean).length;
    const started = Date.now();
    const result = await client.callTool({ name: 'waits', arguments: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'tool waits did not finish within 300 ms' }],
    });
    // The handler saw its signal abort with a TimeoutError.
    const seen = readFileSync(marks, 'utf8').split('\n').filter(Boolean);
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)).toBe('TimeoutError: tool waits did not finish within 300 ms');
  });

  it('answers at the limit when the handler ignores its signal, and goes on serving', async () => {
    const client = await connect();
    const started = Date.now();
    const result = await client.callTool({ name: 'stubborn', arguments: {} });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'tool stubborn did not finish within 200 ms' }],
    });
    expect(await client.callTool({ name: 'quick', arguments: {} })).toMatchObject({ structuredContent: { ok: true } });
  });
});
