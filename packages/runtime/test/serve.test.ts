/**
 * The runtime serving a server built by hand, as generated code builds one, to real clients: in
 * memory (a 2025 connection), then over Streamable HTTP on 127.0.0.1 on both protocol eras.
 */
import { request as httpRequest } from 'node:http';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fromJsonSchema, InMemoryTransport, type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ServerApp } from '../src/app.js';
import type { HandlerContext, ToolContent, ToolHandler } from '../src/handlers.js';
import { type HttpConfig, type HttpServerHandle, startHttp } from '../src/http.js';
import { installInput, onRootsChanged, type RootsChange } from '../src/input.js';
import { verifyRequestState } from '../src/request-state.js';
import { content, lazy, reachable, register, type Register, toolResult } from '../src/runtime.js';
import { contentTool, structuredTool } from '../src/tools.js';

const greetInput = fromJsonSchema<{ name: string }>({
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
});
const countOutput = fromJsonSchema<{ count: number }>({
  type: 'object',
  properties: { count: { type: 'number' } },
  required: ['count'],
});

let greetLoads = 0;
const greetModule = lazy(async () => {
  greetLoads += 1;
  return { handler: (({ name }) => `Hello, ${name}`) as ToolHandler<{ name: string }, ToolContent> };
});
const module = <I, O>(handler: ToolHandler<I, O>) => lazy(async () => ({ handler }));

const confirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

/** Every tool, by name, as generated server.ts lists them. */
const tools: Record<string, Register> = {
  greet: (server) => contentTool(server, 'greet', { description: 'Greets' }, greetInput, greetModule),
  blocks: (server) =>
    contentTool(
      server,
      'blocks',
      undefined,
      undefined,
      module<unknown, ToolContent>(() => [
        content.text('two blocks'),
        content.image(new Uint8Array([1, 2, 3]), 'image/png'),
      ]),
    ),
  custom: (server) =>
    contentTool(
      server,
      'custom',
      undefined,
      undefined,
      module<unknown, ToolContent>(() =>
        toolResult({ content: [content.text('as sent')], isError: true, _meta: { 'example.com/k': 1 } }),
      ),
    ),
  fail: (server) =>
    contentTool(
      server,
      'fail',
      undefined,
      undefined,
      module<unknown, ToolContent>(() => {
        throw new Error('the forecast service is down');
      }),
    ),
  count: (server) =>
    structuredTool(
      server,
      'count',
      undefined,
      undefined,
      countOutput,
      module<unknown, { count: number }>(() => ({ count: 3 })),
    ),
  confirm: (server) =>
    contentTool(
      server,
      'confirm',
      undefined,
      undefined,
      module<unknown, ToolContent>((_input, ctx: HandlerContext) => {
        const answer = ctx.accepted<{ ok: boolean }>('confirm');
        if (!answer)
          return ctx.ask({
            inputRequests: {
              confirm: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: confirmSchema } },
            },
          });
        return `confirmed: ${answer.ok}`;
      }),
    ),
  roots: (server) =>
    contentTool(
      server,
      'roots',
      undefined,
      undefined,
      module<unknown, ToolContent>((_input, ctx: HandlerContext) => {
        const answer = ctx.inputResponse('roots');
        if (answer.kind === 'missing') return ctx.ask({ inputRequests: { roots: { method: 'roots/list' } } });
        return JSON.stringify(answer);
      }),
    ),
};

/** What each instance registered: the tools its request could reach. */
const registered: string[][] = [];

function createServer(ctx: McpRequestContext = { era: 'legacy' }): McpServer {
  const server = new McpServer(
    { name: 'runtime-test', version: '1.2.3' },
    { capabilities: { tools: {} }, requestState: { verify: verifyRequestState } },
  );
  installInput(server, ctx.era);
  const names: string[] = [];
  registered.push(names);
  const reach = reachable(ctx.requestInfo);
  const recording = Object.fromEntries(
    Object.entries(tools).map(([name, entry]) => [name, (s: McpServer) => (names.push(name), entry(s))]),
  );
  register(server, recording, reach.tools);
  return server;
}

const app: ServerApp = { info: { name: 'runtime-test', version: '1.2.3' }, createServer, subscribable: new Set() };

const config: HttpConfig = {
  host: '127.0.0.1',
  port: 0,
  path: '/mcp',
  allowedHosts: [],
  allowedOrigins: [],
  maxBodyBytes: 1024 * 1024,
};

/** The `_meta` of a 2026-07-28 request. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { roots: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'runtime-test-client', version: '0.0.0' },
};

const text = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((b) => b.text ?? `<${b.type}>`);

/** What every era must answer the same. */
async function listsAndCallsTools(client: Client) {
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name).sort()).toEqual([
    'blocks',
    'confirm',
    'count',
    'custom',
    'fail',
    'greet',
    'roots',
  ]);
  const greet = listed.tools.find((t) => t.name === 'greet')!;
  expect(greet.description).toBe('Greets');
  expect(greet.inputSchema).toMatchObject({ type: 'object', required: ['name'] });
  // A tool without input says it takes none.
  expect(listed.tools.find((t) => t.name === 'blocks')!.inputSchema).toEqual({
    type: 'object',
    properties: {},
    additionalProperties: false,
  });

  const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
  expect(greeted.isError).toBeUndefined();
  expect((await client.callTool({ name: 'blocks', arguments: {} })).content).toEqual([
    { type: 'text', text: 'two blocks' },
    { type: 'image', data: 'AQID', mimeType: 'image/png' },
  ]);
  expect(await client.callTool({ name: 'custom', arguments: {} })).toMatchObject({
    content: [{ type: 'text', text: 'as sent' }],
    isError: true,
    _meta: { 'example.com/k': 1 },
  });
  const failed = await client.callTool({ name: 'fail', arguments: {} });
  expect(failed.isError).toBe(true);
  expect(text(failed).join('')).toContain('the forecast service is down');
  expect(await client.callTool({ name: 'count', arguments: {} })).toMatchObject({
    content: [{ type: 'text', text: '{"count":3}' }],
    structuredContent: { count: 3 },
  });
  // Invalid input never reaches the handler.
  const invalid = await client.callTool({ name: 'greet', arguments: { name: 7 } }).then(
    (result) => (result.isError ? text(result).join('') : 'answered'),
    (error: Error) => error.message,
  );
  expect(invalid).not.toBe('answered');
}

describe('in memory, 2025 connection', () => {
  let client: Client;
  let server: McpServer;
  const asked: unknown[] = [];

  beforeAll(async () => {
    server = createServer();
    client = new Client(
      { name: 'runtime-test-client', version: '0.0.0' },
      { capabilities: { elicitation: { form: {} }, roots: { listChanged: true } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { ok: true } };
    });
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('answers every tool as generated code registers them', async () => {
    await listsAndCallsTools(client);
  });

  it('loads a handler module once, on its first call', async () => {
    const before = greetLoads;
    await client.callTool({ name: 'greet', arguments: { name: 'a' } });
    await client.callTool({ name: 'greet', arguments: { name: 'b' } });
    expect(greetLoads - before).toBeLessThanOrEqual(1);
    expect(greetLoads).toBe(1);
  });

  it('asks the client itself when a handler calls ctx.ask, then runs the handler again', async () => {
    expect((await client.callTool({ name: 'confirm', arguments: {} })).content).toEqual([
      { type: 'text', text: 'confirmed: true' },
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'form', message: 'Sure?', requestedSchema: confirmSchema });
  });

  it('tells onRootsChanged listeners, which can list the roots', async () => {
    const changes: { change: RootsChange; roots: unknown }[] = [];
    const seen = new Promise<void>((resolve) => {
      const remove = onRootsChanged(async (change) => {
        changes.push({ change, roots: await change.listRoots() });
        remove();
        resolve();
      });
    });
    await client.sendRootsListChanged();
    await withTimeout(seen, 5000, 'onRootsChanged was not called');
    expect(changes).toHaveLength(1);
    expect(changes[0]!.change.server).toBe(server);
    expect(changes[0]!.roots).toEqual([{ uri: 'file:///work', name: 'work' }]);
  });
});

describe('startHttp on 127.0.0.1', () => {
  let http: HttpServerHandle;
  const clients: Client[] = [];

  beforeAll(async () => {
    http = await startHttp(app, config, { port: 0, redisUrl: false });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await http?.close();
  });

  async function connect(modern: boolean): Promise<Client> {
    const client = new Client(
      { name: 'runtime-test-client', version: '0.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: false } }));
    clients.push(client);
    await withTimeout(client.connect(new StreamableHTTPClientTransport(http.url)), 10_000, 'connect timed out');
    return client;
  }

  it('listens on the port it picked, at the configured path', () => {
    expect(http.url.hostname).toBe('127.0.0.1');
    expect(http.url.pathname).toBe('/mcp');
    expect(Number(http.url.port)).toBeGreaterThan(0);
  });

  it.each([
    ['2025', false],
    ['2026-07-28', true],
  ])('lists and calls the tools, %s client', async (_era, modern) => {
    const client = await connect(modern);
    expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
    expect(client.getServerVersion()).toMatchObject({ name: 'runtime-test', version: '1.2.3' });
    await listsAndCallsTools(client);
    // ctx.ask: the runtime asks a 2025 client itself; a 2026-07-28 client answers input_required and retries.
    expect((await client.callTool({ name: 'confirm', arguments: {} })).content).toEqual([
      { type: 'text', text: 'confirmed: false' },
    ]);
  });

  it('registers only the tool a 2026-07-28 call names', async () => {
    const client = await connect(true);
    registered.length = 0;
    await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(registered.filter((names) => names.length > 0)).toEqual([['greet']]);
  });

  it('reads a 2026-07-28 retry that leaves out an answer it asked for as an error, and refuses forged state', async () => {
    // By hand: a client SDK answers every input request it can.
    const call = async (extra: Record<string, unknown>) => {
      const response = await fetch(http.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'roots',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'roots', arguments: {}, _meta: ENVELOPE, ...extra },
        }),
        signal: AbortSignal.timeout(5000),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const first = await call({});
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { roots: { method: 'roots/list' } },
    });
    expect(first.result!.requestState).toEqual(expect.any(String));
    const retried = await call({ requestState: first.result!.requestState, inputResponses: {} });
    expect(JSON.parse(text(retried.result!)[0]!)).toEqual({
      kind: 'error',
      code: -32601,
      message: "the client retried without an answer to the input request 'roots'",
    });
    const forged = await call({ requestState: `${first.result!.requestState as string}x`, inputResponses: {} });
    expect(forged.error?.code).toBe(-32602);
  });

  it('answers /health, 404 elsewhere, and refuses a foreign Host header', async () => {
    const health = await fetch(new URL('/health', http.url), { signal: AbortSignal.timeout(5000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', name: 'runtime-test', version: '1.2.3' });
    const elsewhere = await fetch(new URL('/other', http.url), { signal: AbortSignal.timeout(5000) });
    expect(elsewhere.status).toBe(404);
    // DNS rebinding: on loopback only localhost names get in.
    expect(await statusWithHost(http.url, 'evil.example')).toBe(403);
  });

  it('answers 405 to a GET without a session', async () => {
    const response = await fetch(http.url, { signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe('startHttp with static bearer tokens', () => {
  const tokensEnv = 'MCPGEN_RUNTIME_TEST_TOKENS';
  const bearer = { tokensEnv, requiredScopes: [], scopes: [] };

  it('does not start when the tokens variable is unset, and names it', async () => {
    delete process.env[tokensEnv];
    await expect(startHttp(app, { ...config, bearer }, { port: 0, redisUrl: false })).rejects.toThrow(
      `${tokensEnv} is not set`,
    );
  });

  it('refuses requests without a listed token, and serves those with one', async () => {
    process.env[tokensEnv] = 'ci:secret-token';
    const http = await startHttp(app, { ...config, bearer }, { port: 0, redisUrl: false });
    try {
      const refused = await fetch(http.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: 'Bearer wrong',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        signal: AbortSignal.timeout(5000),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const client = new Client(
        { name: 'runtime-test-client', version: '0.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await withTimeout(
        client.connect(
          new StreamableHTTPClientTransport(http.url, {
            requestInit: { headers: { Authorization: 'Bearer secret-token' } },
          }),
        ),
        10_000,
        'connect timed out',
      );
      expect((await client.listTools()).tools).toHaveLength(7);
      await client.close();
    } finally {
      delete process.env[tokensEnv];
      await http.close();
    }
  });
});

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The status of a GET /health-less request to the MCP path with another Host header (fetch cannot set Host). */
function statusWithHost(url: URL, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { Host: host, 'Content-Type': 'application/json' },
        timeout: 5000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end('{}');
  });
}
