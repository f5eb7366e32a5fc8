/**
 * The legacy HTTP+SSE transport (2024-11-05, src/generated/sse.ts) against generated projects
 * compiled with tsc and run as processes (`--http --port 0`), with the real SDK v1 client
 * (`SSEClientTransport`, the transport clients of that era use): every operation of
 * examples/conformance over /sse, then the guards, the body limit, bearer auth, sessions bound to
 * their principal, per-entry scope challenges, and `sse: false`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch } from './helpers/project.js';

/** A project built from `from` (with `manifestTail` appended), and a handler file per entry of `handlers`. */
async function build(
  name: string,
  from: string,
  manifestTail = '',
  handlers: Record<string, string> = {},
): Promise<string> {
  const dir = scratch(name, from);
  if (manifestTail) appendFileSync(path.join(dir, 'mcpgen.yaml'), manifestTail);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const [file, text] of Object.entries(handlers)) writeFileSync(path.join(dir, file), text);
  const tsc = await buildServer(dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  return dir;
}

interface Server {
  /** The MCP endpoint the server printed; the SSE paths are beside it. */
  url: URL;
  stderr: () => string;
  stop(): Promise<void>;
}

const servers: Server[] = [];

/** Runs `node <entry> --http --port 0` in `dir` and waits (bounded) for the URL it prints. */
async function serve(dir: string, env: NodeJS.ProcessEnv = {}, entry = 'dist/src/main.js'): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [entry, '--http', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 15 s:\n${stderr}`)), 15_000);
    child.stderr!.on('data', () => {
      const m = /at (http:\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${stderr}`)));
  });
  const server: Server = {
    url,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A raw request (Host and Origin exactly as given), answered within 10 s. */
function send(
  url: URL,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${init.method ?? 'GET'} ${url} timed out`)));
    req.on('error', reject).end(init.body);
  });
}

/** Opens an event stream; resolves with its `endpoint` event (the message URL) within 10 s. */
function openStream(
  url: URL,
  headers: Record<string, string> = {},
): Promise<{ endpoint: URL; events: () => string; ended: () => boolean; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`GET ${url}: ${res.statusCode}`));
      }
      let events = '';
      let ended = false;
      res.on('end', () => (ended = true));
      res.setEncoding('utf8').on('data', (chunk: string) => {
        events += chunk;
        const m = /event: endpoint\ndata: (\S+)\n\n/.exec(events);
        if (m) {
          clearTimeout(timer);
          resolve({
            endpoint: new URL(m[1]!, url),
            events: () => events,
            ended: () => ended,
            close: () => req.destroy(),
          });
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no endpoint event from ${url} within 10 s`));
    }, 10_000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

/** Resolves with what `promise` gives, or fails after `ms`. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)),
  ]);
}

/** Waits (polling, at most 5 s) until `done` holds. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const clients: Client[] = [];

async function connect(sse: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(
    { name: 'mcpgen-sse-e2e', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  await within(10_000, client.connect(new SSEClientTransport(sse, { requestInit: { headers } })), `connect to ${sse}`);
  clients.push(client);
  return client;
}

const text = (result: object) =>
  ((('content' in result ? result.content : undefined) ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('');
const json = { 'Content-Type': 'application/json' };
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((s) => s.stop()));
});

describe('every operation over /sse (examples/conformance, SDK v1 client)', () => {
  let dir: string;
  let server: Server;
  let sse: URL;
  let client: Client;
  beforeAll(async () => {
    dir = await build('sse-conformance', path.join(REPO, 'examples/conformance'));
    server = await serve(dir);
    sse = new URL('/sse', server.url);
    client = await connect(sse);
    // The client answers the server's own requests.
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { username: 'ada', email: 'ada@example.com' },
    }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'four' },
      model: 'test-model',
    }));
  }, 180_000);

  it('initializes: 2025 protocol, the manifest server and its capabilities', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'mcpgen-conformance', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      logging: {},
      completions: {},
    });
  });

  it('names the message endpoint under messagesPath, with a session id', async () => {
    const stream = await openStream(sse);
    stream.close();
    expect(stream.endpoint.pathname).toBe('/messages');
    expect(stream.endpoint.searchParams.get('sessionId')).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream.events()).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
  });

  it('lists and calls tools, with a tool error as an isError result', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'test_simple_text',
        'test_error_handling',
        'test_tool_with_progress',
        'json_schema_2020_12_tool',
      ]),
    );
    expect(text(await client.callTool({ name: 'test_simple_text' }))).toBe(
      'This is a simple text response for testing.',
    );
    const error = await client.callTool({ name: 'test_error_handling' });
    expect(error.isError).toBe(true);
    const invalid = await client.callTool({ name: 'test_sampling', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/Input validation error/);
  });

  it('reports progress', async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: 'test_tool_with_progress' }, undefined, {
      onprogress: (p) => void seen.push(p.progress),
    });
    expect(text(result)).toBe('Tool with progress completed');
    // The SDK v1 client handles the result before the notification just ahead of it and drops that
    // one (seen over stdio too); the stream itself carries all three before the result:
    expect(seen.slice(0, 2)).toEqual([0, 50]);
    const stream = await openStream(sse);
    const post = (message: object) =>
      send(stream.endpoint, { method: 'POST', headers: json, body: JSON.stringify(message) });
    await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', _meta: { progressToken: 'p' } },
    });
    await until(() => stream.events().includes('"id":2'), 'the result on the stream');
    stream.close();
    const order = [...stream.events().matchAll(/"progress":(\d+)|"id":2/g)].map((m) => m[1] ?? 'result');
    expect(order).toEqual(['0', '50', '100', 'result']);
  });

  it('lists and reads resources and templates', async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
    expect(uris).toEqual(['test://static-binary', 'test://static-text', 'test://watched-resource']);
    const read = await client.readResource({ uri: 'test://static-text' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://static-text', mimeType: 'text/plain' });
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
    ]);
    const data = await client.readResource({ uri: 'test://template/7/data' });
    expect(data.contents[0]).toMatchObject({ uri: 'test://template/7/data', mimeType: 'application/json' });
  });

  it('delivers a resource update to a subscriber', async () => {
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await client.callTool({ name: 'test_update_watched_resource' });
    await expect(within(5_000, updated, 'resources/updated')).resolves.toBe('test://watched-resource');
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  it('lists and gets prompts, and completes an argument', async () => {
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a', arg2='b'");
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('sets the log level and sends log messages above it', async () => {
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params.data));
    await client.setLoggingLevel('info');
    expect(text(await client.callTool({ name: 'test_logging_tool' }))).toBe('logged');
    await until(() => messages.includes('test_logging_tool ran'), 'log message');
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'test_logging_tool' });
    await client.ping(); // a round trip after the call: a message sent would have arrived by now
    expect(messages.filter((m) => m === 'test_logging_tool ran')).toHaveLength(1);
  });

  it('answers ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });

  it('cancels: the call ends at once and the session keeps serving', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool({ name: 'test_slow_operation' }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('user pressed stop'), 100);
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text(await client.callTool({ name: 'test_simple_text' }))).toContain('simple text');
  });

  it('elicits and samples: the server asks, the client answers on the same session', async () => {
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(text(elicited)).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'two plus two?' } });
    expect(text(sampled)).toBe('LLM response: four');
  });

  it('sends list-changed notifications published with ctx.notify', async () => {
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.callTool({ name: 'test_trigger_tool_change' });
    await expect(within(5_000, changed, 'tools/list_changed')).resolves.toBeUndefined();
  });

  it('reaches a client on another stream too, and not after that stream closed', async () => {
    const other = await connect(sse);
    const changed = new Promise<void>((resolve) =>
      other.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.callTool({ name: 'test_trigger_tool_change' });
    await within(5_000, changed, 'tools/list_changed on the other stream');
    await other.close();
    expect(text(await client.callTool({ name: 'test_simple_text' }))).toContain('simple text');
  });

  it('answers a missing or unknown sessionId with a JSON-RPC error (400, 404)', async () => {
    const missing = await send(new URL('/messages', server.url), { method: 'POST', headers: json, body: ping });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/sessionId/) },
      id: null,
    });
    const unknown = await send(new URL('/messages?sessionId=00000000-0000-0000-0000-000000000000', server.url), {
      method: 'POST',
      headers: json,
      body: ping,
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('forgets a session when its stream closes', async () => {
    const stream = await openStream(sse);
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    expect((await send(stream.endpoint, { method: 'POST', headers: json, body: init })).status).toBe(202);
    stream.close();
    await until(
      async () => (await send(stream.endpoint, { method: 'POST', headers: json, body: ping })).status === 404,
      'session removal',
    );
  });

  it('accepts a message as the transport does (202) and answers on the stream', async () => {
    const stream = await openStream(sse);
    const res = await send(stream.endpoint, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });
    expect(res.status).toBe(202);
    await until(() => stream.events().includes('"id":7'), 'ping result on the stream');
    expect(stream.events()).toContain('event: message\ndata: {"result":{},"jsonrpc":"2.0","id":7}');
    const bad = await send(stream.endpoint, { method: 'POST', headers: json, body: '{"hello":1}' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: -32600 } });
    stream.close();
  });

  it('answers other methods with 405 and Allow', async () => {
    const post = await send(sse, { method: 'POST', headers: json, body: ping });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    const get = await send(new URL('/messages?sessionId=x', server.url));
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('checks Host and Origin on both endpoints (403), as on /mcp', async () => {
    expect((await send(sse, { headers: { Host: 'evil.example.com', Accept: 'text/event-stream' } })).status).toBe(403);
    expect(
      (await send(sse, { headers: { Origin: 'https://evil.example.com', Accept: 'text/event-stream' } })).status,
    ).toBe(403);
    const stream = await openStream(sse, { Origin: `http://localhost:${server.url.port}` });
    for (const headers of [{ Host: 'evil.example.com' }, { Origin: 'https://evil.example.com' }] as Record<
      string,
      string
    >[]) {
      expect(
        (await send(stream.endpoint, { method: 'POST', headers: { ...json, ...headers }, body: ping })).status,
      ).toBe(403);
    }
    stream.close();
  });

  it('refuses a body over the limit (413) on the message endpoint', async () => {
    const stream = await openStream(sse);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_048_576) } });
    const res = await send(stream.endpoint, { method: 'POST', headers: json, body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      error: { code: -32600, message: 'Request body larger than 1048576 bytes' },
    });
    stream.close();
  });

  it('keeps at most maxSessions streams (the least recently used is closed), keeps them alive, and close() ends them all', async () => {
    // startHttp of the compiled project, in this process: the options a user passes in code.
    type Options = {
      port: number;
      maxSessions: number;
      sse: { path: string; messagesPath: string; keepAliveMs: number };
    };
    const { startHttp } = (await import(path.join(dir, 'dist/src/generated/http.js'))) as {
      startHttp(options: Options): Promise<{ url: URL; close(): Promise<void> }>;
    };
    const handle = await startHttp({
      port: 0,
      maxSessions: 2,
      sse: { path: '/legacy/sse', messagesPath: '/legacy/messages', keepAliveMs: 50 },
    });
    try {
      const url = new URL('/legacy/sse', handle.url);
      const first = await openStream(url);
      expect(first.endpoint.pathname).toBe('/legacy/messages');
      const second = await openStream(url);
      // Used last, so the first is now the least recently used.
      expect((await send(first.endpoint, { method: 'POST', headers: json, body: ping })).status).toBe(202);
      const third = await openStream(url);
      expect((await send(second.endpoint, { method: 'POST', headers: json, body: ping })).status).toBe(404);
      await until(() => second.ended(), 'the evicted stream ended');
      expect((await send(first.endpoint, { method: 'POST', headers: json, body: ping })).status).toBe(202);
      // Quiet streams carry keep-alive comments (which EventSource clients skip).
      await until(() => third.events().includes('\n\n: keepalive\n\n'), 'a keep-alive comment');
      await handle.close();
      await until(() => first.ended() && third.ended(), 'streams ended by close()');
    } finally {
      await handle.close();
    }
  });

  it('keeps /health and the 404 off the endpoints', async () => {
    expect((await send(new URL('/health', server.url))).status).toBe(200);
    expect((await send(new URL('/sse/elsewhere', server.url))).status).toBe(404);
  });
});

describe('bearer auth and principals over /sse (test/fixtures/valid/protocol)', () => {
  let server: Server;
  let scoped: Server;
  let sse: URL;
  beforeAll(async () => {
    const dir = await build(
      'sse-bearer',
      path.join(REPO, 'test/fixtures/valid/protocol'),
      'tools:\n  whoami: { description: "Says which client is calling, from its bearer token" }\n',
      {
        'src/handlers/tools/whoami.ts':
          "import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['whoami'] = async (_input, ctx) => `client=${ctx.authInfo?.clientId ?? 'none'}`;\n",
        // A scope no token here has, registered by hand on the SDK's own hook (scopeChallenge): the
        // manifest's per-entry scopes cannot be refused to static tokens, which carry them all
        // (oauth-e2e refuses them to a real OAuth token over /sse). In the user's hooks module, so
        // it patches the SDK the bundled server runs on.
        'src/hooks.ts': [
          "import type { RequestHooks } from '@mcpgen/runtime';",
          "import { McpServer, requireScopes } from '@modelcontextprotocol/server';",
          '',
          'const registerTool = McpServer.prototype.registerTool;',
          'McpServer.prototype.registerTool = function (this: McpServer, ...args: Parameters<McpServer["registerTool"]>) {',
          '  const [name, config, callback] = args;',
          "  const scoped = process.env.SCOPED_TOOL === name ? { ...config, scopeChallenge: requireScopes('admin') } : config;",
          '  return registerTool.call(this, name, scoped, callback as never);',
          '} as McpServer["registerTool"];',
          '',
          'export const hooks: RequestHooks = {};',
          '',
        ].join('\n'),
      },
    );
    server = await serve(dir, { PROTOCOL_TOKENS: 'alice:tokA,bob:tokB' });
    // The fixture moves the transport: transports.http.sse: { path: /events, messagesPath: /events/messages }.
    sse = new URL('/events', server.url);
    scoped = await serve(dir, { PROTOCOL_TOKENS: 'alice:tokA', SCOPED_TOOL: 'whoami' });
  }, 180_000);

  it('serves the paths the manifest gives', async () => {
    const stream = await openStream(sse, { Authorization: 'Bearer tokA' });
    stream.close();
    expect(stream.endpoint.pathname).toBe('/events/messages');
    expect(
      (
        await send(new URL('/sse', server.url), {
          headers: { Accept: 'text/event-stream', Authorization: 'Bearer tokA' },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses the stream and the messages without a valid token (401 with a challenge)', async () => {
    const stream = await send(sse, { headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(401);
    expect(stream.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect((await send(sse, { headers: { Accept: 'text/event-stream', Authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
    const open = await openStream(sse, { Authorization: 'Bearer tokA' });
    expect((await send(open.endpoint, { method: 'POST', headers: json, body: ping })).status).toBe(401);
    open.close();
  });

  it('gives handlers the caller (ctx.authInfo)', async () => {
    const alice = await connect(sse, { Authorization: 'Bearer tokA' });
    const bob = await connect(sse, { Authorization: 'Bearer tokB' });
    expect(text(await alice.callTool({ name: 'whoami' }))).toBe('client=alice');
    expect(text(await bob.callTool({ name: 'whoami' }))).toBe('client=bob');
  });

  it("answers another principal's message to a session as an unknown session (404), logged without the token", async () => {
    const stream = await openStream(sse, { Authorization: 'Bearer tokA' });
    const asBob = await send(stream.endpoint, {
      method: 'POST',
      headers: { ...json, Authorization: 'Bearer tokB' },
      body: ping,
    });
    expect(asBob.status).toBe(404);
    expect(JSON.parse(asBob.body)).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    const asAlice = await send(stream.endpoint, {
      method: 'POST',
      headers: { ...json, Authorization: 'Bearer tokA' },
      body: ping,
    });
    expect(asAlice.status).toBe(202);
    stream.close();
    const id = stream.endpoint.searchParams.get('sessionId')!;
    await vi.waitFor(() =>
      expect(server.stderr()).toContain(`refused session ${id.slice(0, 8)}…: opened by alice, used by bob`),
    );
    expect(server.stderr()).not.toMatch(/tokA|tokB/);
  });

  it('answers a call without the scope its entry needs with 403 insufficient_scope, as /mcp does', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    });
    const stream = await openStream(new URL('/events', scoped.url), { Authorization: 'Bearer tokA' });
    const res = await send(stream.endpoint, {
      method: 'POST',
      headers: { ...json, Authorization: 'Bearer tokA' },
      body: call,
    });
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope".*scope="admin"/);
    // The call never reached the session: no answer on the stream.
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.events()).not.toContain('"id":3');
    stream.close();
    // The same challenge from the SDK's own transport on /mcp (2025 session).
    const headers = { ...json, Accept: 'application/json, text/event-stream', Authorization: 'Bearer tokA' };
    const init = await fetch(scoped.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await init.body?.cancel();
    const session = {
      ...headers,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    const mcp = await fetch(scoped.url, {
      method: 'POST',
      headers: session,
      body: call,
      signal: AbortSignal.timeout(10_000),
    });
    await mcp.body?.cancel();
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('www-authenticate')).toBe(res.headers['www-authenticate']);
  });
});

describe('transports.http.sse: false (test/cases/no-sse)', () => {
  it('serves no /sse nor /messages (404), and /mcp as before', async () => {
    const server = await serve(await build('sse-off', path.join(REPO, 'test/cases/no-sse')));
    expect((await send(new URL('/sse', server.url), { headers: { Accept: 'text/event-stream' } })).status).toBe(404);
    expect(
      (await send(new URL('/messages?sessionId=x', server.url), { method: 'POST', headers: json, body: ping })).status,
    ).toBe(404);
    expect((await send(new URL('/health', server.url))).status).toBe(200);
    const mcp = await send(server.url, {
      method: 'POST',
      headers: { ...json, Accept: 'application/json, text/event-stream' },
      body: ping,
    });
    expect(mcp.status).not.toBe(404);
  }, 180_000);
});
