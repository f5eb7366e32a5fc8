/**
 * The server's log, through real clients: one JSON line per request on stderr (method, name,
 * principal, session, request id, era, duration, outcome, code), a throwing handler logged once
 * with its stack while the client gets only the message, errors only by default on stdio, every
 * request by default over HTTP, `MCP_LOG_LEVEL` over both, and never a token or an argument value
 * unless the tool says `log: arguments`.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, startHttpServer } from './helpers/project.js';

const TOKEN = 'tok-very-secret-4711';
const MANIFEST = `version: 1
server: { name: logged, version: 0.1.0 }
transports:
  stdio: {}
  http: { auth: { bearer: { tokensEnv: LOG_TEST_TOKENS } } }
tools:
  boom:
    description: Always fails
  echo:
    description: Says the text back; the log shows its arguments
    log: arguments
    input: { type: object, properties: { text: { type: string, description: What to say } }, required: [text] }
  hush:
    description: Says the text back; the log never shows it
    input: { type: object, properties: { text: { type: string, description: What to say } }, required: [text] }
`;
const HANDLERS: Record<string, string> = {
  'src/handlers/tools/boom.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

function deepInside(): never {
  throw new Error('kaput');
}

export const handler: ToolHandlers['boom'] = async () => deepInside();
`,
  'src/handlers/tools/echo.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['echo'] = async ({ text }) => text;
`,
  'src/handlers/tools/hush.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['hush'] = async ({ text }) => text;
`,
};

type Line = Record<string, unknown> & { level: string; msg: string };
const lines = (stderr: string): Line[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

let dir: string;
const clients: Client[] = [];

beforeAll(async () => {
  dir = await builtProject('request-log', MANIFEST, HANDLERS);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

/** A stdio client of the server, and the server's stderr so far. */
async function overStdio(env: Record<string, string> = {}, modern = false) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dir, 'dist/src/main.js')],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d));
  const client = new Client(
    { name: 'log-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

/** Waits (bounded) until `seen()` holds. */
async function until(seen: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !seen(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!seen()) throw new Error(`not seen within 2 s: ${what}`);
}

describe('over stdio', () => {
  it('by default logs a failing handler once, with its stack, and nothing else; the client gets the message only', async () => {
    const { client, stderr } = await overStdio();
    const result = await client.callTool({ name: 'boom', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'kaput' }] });
    expect(JSON.stringify(result)).not.toContain('deepInside');
    await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    await until(() => stderr().includes('handler failed'), 'the handler error');
    const logged = lines(stderr());
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 'error',
      msg: 'handler failed',
      method: 'tools/call',
      name: 'boom',
      error: { name: 'Error', message: 'kaput' },
    });
    // The bundle maps its stack to the handler's TypeScript source (mcpgen build writes source maps).
    expect((logged[0]!.error as { stack: string }).stack).toMatch(/deepInside[\s\S]*handlers\/tools\/boom\.ts:4:9/);
  });

  it('MCP_LOG_LEVEL=info: one line per request, arguments only where the tool says so', async () => {
    for (const modern of [false, true]) {
      const { client, stderr } = await overStdio({ MCP_LOG_LEVEL: 'info' }, modern);
      await client.callTool({ name: 'echo', arguments: { text: 'shown-value' } });
      await client.callTool({ name: 'hush', arguments: { text: 'hidden-value' } });
      await client.callTool({ name: 'boom', arguments: {} });
      await until(
        () => lines(stderr()).filter((l) => l.method === 'tools/call' && l.msg === 'request').length === 3,
        'three request lines',
      );
      const calls = lines(stderr()).filter((l) => l.msg === 'request' && l.method === 'tools/call');
      const era = modern ? '2026-07-28' : 'legacy';
      expect(calls[0]).toMatchObject({
        level: 'info',
        name: 'echo',
        era,
        outcome: 'ok',
        arguments: { text: 'shown-value' },
      });
      expect(calls[1]).toMatchObject({ level: 'info', name: 'hush', era, outcome: 'ok' });
      expect(calls[2]).toMatchObject({ level: 'warn', name: 'boom', era, outcome: 'tool_error' });
      for (const c of calls) {
        expect(typeof c.durationMs).toBe('number');
        expect(c.requestId).toBeDefined();
      }
      expect(stderr()).not.toContain('hidden-value');
      // A list request is a line too.
      await client.listTools();
      await until(() => lines(stderr()).some((l) => l.method === 'tools/list'), 'tools/list');
    }
  });

  it('MCP_LOG_LEVEL=off: nothing, not even a failing handler', async () => {
    const { client, stderr } = await overStdio({ MCP_LOG_LEVEL: 'off' });
    await client.callTool({ name: 'boom', arguments: {} });
    await client.listTools();
    expect(lines(stderr())).toEqual([]);
  });
});

describe('over HTTP', () => {
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    http = await startHttpServer(dir, { LOG_TEST_TOKENS: `alice:${TOKEN}` });
  });
  afterAll(() => http?.stop());

  it('logs every request by default with its principal and session, and never the token', async () => {
    for (const modern of [false, true]) {
      const client = new Client(
        { name: 'log-e2e', version: '0.0.0' },
        modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
      );
      clients.push(client);
      await client.callTool({ name: 'hush', arguments: { text: 'hidden-over-http' } });
      await client.close();
    }
    await until(() => lines(http.stderr()).filter((l) => l.name === 'hush').length === 2, 'two hush lines');
    const hush = lines(http.stderr()).filter((l) => l.name === 'hush');
    expect(hush[0]).toMatchObject({
      level: 'info',
      method: 'tools/call',
      principal: 'alice',
      era: 'legacy',
      outcome: 'ok',
    });
    expect(typeof hush[0]!.session).toBe('string');
    expect(hush[1]).toMatchObject({ principal: 'alice', era: '2026-07-28', outcome: 'ok' });
    expect(http.stderr()).not.toContain(TOKEN);
    expect(http.stderr()).not.toContain('hidden-over-http');
    // Clients that do everything right are never refused.
    expect(lines(http.stderr()).filter((l) => l.msg === 'refused')).toEqual([]);
  });

  it('logs a request refused before any method runs: status, why, path without its query, never the token', async () => {
    const post = (
      headers: Record<string, string>,
      body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      url = http.url,
    ) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    const statuses = [
      (await post({})).status,
      (await post({ Authorization: 'Bearer not-the-token-0815' })).status,
      (await post({ Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' })).status,
      (await post({ Authorization: `Bearer ${TOKEN}` }, `{"pad":"${'x'.repeat(1_100_000)}"}`)).status,
      (await post({ Authorization: `Bearer ${TOKEN}` }, '{}', new URL('/nope?key=sekret-in-query', http.url))).status,
    ];
    expect(statuses).toEqual([401, 401, 403, 413, 404]);
    await until(() => lines(http.stderr()).filter((l) => l.msg === 'refused').length === 5, 'five refused lines');
    const refused = lines(http.stderr()).filter((l) => l.msg === 'refused');
    const at = new URL(http.url).pathname;
    expect(refused).toEqual([
      expect.objectContaining({
        level: 'info',
        httpMethod: 'POST',
        path: at,
        status: 401,
        reason: expect.stringContaining('invalid_token'),
      }),
      expect.objectContaining({ level: 'info', status: 401, reason: expect.stringMatching(/^invalid_token/) }),
      expect.objectContaining({ level: 'warn', status: 403, reason: expect.stringContaining('evil.example') }),
      expect.objectContaining({ level: 'warn', status: 413, reason: expect.stringContaining('larger than') }),
      expect.objectContaining({ level: 'warn', path: '/nope', status: 404 }),
    ]);
    for (const line of refused)
      expect(line).toMatchObject({ remote: expect.any(String), durationMs: expect.any(Number) });
    expect(http.stderr()).not.toContain(TOKEN);
    expect(http.stderr()).not.toContain('not-the-token-0815');
    expect(http.stderr()).not.toContain('sekret-in-query');
  });
});
