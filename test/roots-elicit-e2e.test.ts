/**
 * Roots and elicitation on the wire: a client that answers roots/list
 * with "Roots not supported" gets the handler's fallback, notifications/roots/list_changed reaches
 * an onRootsChanged listener, and elicited content of the wrong type never reaches the handler.
 * Raw JSON-RPC over stdio (2025 sessions after initialize, 2026-07-28 per request), 2026-07-28
 * over HTTP, and 2025 sessions over Streamable HTTP and HTTP+SSE through the SDK v1 client, against the handlers in test/fixtures/roots-elicit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch, startHttpServer } from './helpers/project.js';

type Message = {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

const FIXTURE = path.join(REPO, 'test/fixtures/roots-elicit');
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-wire', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, roots: {} },
};
const SCHEMA = { type: 'object', properties: { username: { type: 'string', minLength: 2 } }, required: ['username'] };
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const WRONG = 'the accepted content does not match the requested schema: username must be a string';

let dir: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = scratch('roots-elicit', FIXTURE);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const name of ['where', 'signup', 'roots_seen'])
    cpSync(path.join(FIXTURE, `handlers/${name}.ts`), path.join(dir, `src/handlers/tools/${name}.ts`));
  const tsc = await buildServer(dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  http = await startHttpServer(dir);
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await http?.stop();
});

/** A stdio child; requests the server sends are answered by `answer` (its result or error). */
class StdioWire {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly seen: Message[] = [];
  stderr = '';
  #buffer = '';

  constructor(answer: (request: Message) => Pick<Message, 'result' | 'error'> = () => ({ result: {} })) {
    this.#child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
      cwd: dir,
      // Warnings too: a client's content the server refused is one.
      env: { ...process.env, NODE_OPTIONS: '', MCP_LOG_LEVEL: 'warn' },
    });
    children.push(this.#child);
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(this.#buffer.slice(0, end)) as Message;
        this.#buffer = this.#buffer.slice(end + 1);
        this.seen.push(message);
        if (message.method !== undefined && message.id !== undefined)
          this.write({ id: message.id, ...answer(message) });
      }
    });
  }

  write(message: Omit<Message, 'jsonrpc'>): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  /** Writes a request and waits (bounded) for the response with its id. */
  async request(message: Omit<Message, 'jsonrpc'>): Promise<Message> {
    this.write(message);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.seen.find((m) => m.id === message.id && m.method === undefined);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no answer to ${JSON.stringify(message)} within 10 s; saw ${JSON.stringify(this.seen)}\n${this.stderr}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The requests the server sent with `method`. */
  sent(method: string): Message[] {
    return this.seen.filter((m) => m.method === method && m.id !== undefined);
  }

  async initialize(version: string, capabilities: Record<string, unknown>): Promise<void> {
    const init = await this.request({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
    });
    expect(init.result?.protocolVersion).toBe(version);
    this.write({ method: 'notifications/initialized' });
  }

  close(): void {
    this.#child.kill('SIGTERM');
  }
}

const call = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

describe.each(['2024-11-05', '2025-06-18', '2025-11-25'])('stdio, a %s session', (version) => {
  it('answers roots/list "Roots not supported" with the handler\'s fallback', async () => {
    const wire = new StdioWire((request) =>
      request.method === 'roots/list' ? { error: { code: -32601, message: 'Roots not supported' } } : { result: {} },
    );
    try {
      await wire.initialize(version, { roots: { listChanged: true } });
      expect(await wire.request(call(1, 'where'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text('fallback to the working directory (-32601: Roots not supported)'),
      });
      const [asked] = wire.sent('roots/list');
      expect(asked).toMatchObject({ jsonrpc: '2.0', method: 'roots/list' });
    } finally {
      wire.close();
    }
  });

  it('gives the handler the roots when the client lists them', async () => {
    const wire = new StdioWire((request) =>
      request.method === 'roots/list' ? { result: { roots: [{ uri: 'file:///work', name: 'work' }] } } : { result: {} },
    );
    try {
      await wire.initialize(version, { roots: {} });
      expect(await wire.request(call(1, 'where'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text('roots: file:///work'),
      });
    } finally {
      wire.close();
    }
  });

  it('reports roots/list_changed to onRootsChanged, which lists the roots again', async () => {
    let roots = [{ uri: 'file:///a' }];
    const wire = new StdioWire((request) => (request.method === 'roots/list' ? { result: { roots } } : { result: {} }));
    try {
      await wire.initialize(version, { roots: { listChanged: true } });
      // The first call loads the handler module, which registers its listener.
      expect(await wire.request(call(1, 'roots_seen'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text('0 change(s); roots: '),
      });
      roots = [{ uri: 'file:///b' }, { uri: 'file:///c' }];
      wire.write({ method: 'notifications/roots/list_changed' });
      const deadline = Date.now() + 5_000;
      while (wire.sent('roots/list').length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await wire.request(call(2, 'roots_seen'))).toEqual({
        jsonrpc: '2.0',
        id: 2,
        result: text('1 change(s); roots: file:///b, file:///c'),
      });
    } finally {
      wire.close();
    }
  });

  it('keeps elicited content of the wrong type from the handler, which sees an error', async () => {
    const wire = new StdioWire((request) =>
      request.method === 'elicitation/create'
        ? { result: { action: 'accept', content: { username: 5 } } }
        : { result: {} },
    );
    try {
      await wire.initialize(version, { elicitation: {} });
      expect(await wire.request(call(1, 'signup'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text(`not signed up (-32602: ${WRONG})`),
      });
      expect(wire.sent('elicitation/create')[0]?.params).toMatchObject({
        message: 'Pick a username',
        requestedSchema: SCHEMA,
      });
      await vi.waitFor(() => expect(wire.stderr).toContain(`elicitation 'user' of tools/call: ${WRONG}`));
    } finally {
      wire.close();
    }
  });

  it('gives the handler conforming content and its own requestState', async () => {
    const wire = new StdioWire((request) =>
      request.method === 'elicitation/create'
        ? { result: { action: 'accept', content: { username: 'ada' } } }
        : { result: {} },
    );
    try {
      await wire.initialize(version, { elicitation: {} });
      expect(await wire.request(call(1, 'signup'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text('handler got {"kind":"elicit","action":"accept","content":{"username":"ada"}} (state {"step":1})'),
      });
    } finally {
      wire.close();
    }
  });

  it('does not send a request the client cannot take: the handler falls back', async () => {
    const wire = new StdioWire();
    try {
      await wire.initialize(version, {});
      expect(await wire.request(call(1, 'where'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: text(
          'fallback to the working directory (-32021: the client did not declare the capability roots/list needs)',
        ),
      });
      expect(wire.sent('roots/list')).toEqual([]);
    } finally {
      wire.close();
    }
  });
});

// ---- 2026-07-28: input_required results and retries ------------------------------------------

type Send = (message: Omit<Message, 'jsonrpc'>) => Promise<Message>;

async function modernHttp(message: Omit<Message, 'jsonrpc'>): Promise<Message> {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': String(message.params?.name),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const body = await res.text();
  if (!res.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(body) as Message;
  const events = body
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim())
    .map((line) => JSON.parse(line.slice(5)) as Message);
  return events.find((m) => m.id === message.id && m.method === undefined)!;
}

const modernCall = (id: number, name: string, extra: Record<string, unknown> = {}) =>
  call(id, name, { _meta: ENVELOPE, ...extra });
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'roots-elicit', version: '0.1.0' } };

function modernChecks(send: () => Send) {
  it('answers input_required with the elicitation, then -32602 for content of the wrong type', async () => {
    const first = await send()(modernCall(1, 'signup'));
    expect(first).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'input_required',
        inputRequests: {
          user: {
            method: 'elicitation/create',
            params: { message: 'Pick a username', requestedSchema: SCHEMA, mode: 'form' },
          },
        },
        requestState: expect.any(String),
        _meta: SERVER_INFO,
      },
    });
    const requestState = first.result!.requestState;
    const wrong = await send()(
      modernCall(2, 'signup', {
        inputResponses: { user: { action: 'accept', content: { username: 5 } } },
        requestState,
      }),
    );
    expect(wrong).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: `inputResponses.user: ${WRONG}` } });
    const right = await send()(
      modernCall(3, 'signup', {
        inputResponses: { user: { action: 'accept', content: { username: 'ada' } } },
        requestState,
      }),
    );
    expect(right).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {
        ...text('handler got {"kind":"elicit","action":"accept","content":{"username":"ada"}} (state {"step":1})'),
        resultType: 'complete',
        _meta: SERVER_INFO,
      },
    });
  });

  it('lets a retry that leaves out roots/list reach the fallback (2026 has no error answer)', async () => {
    const first = await send()(modernCall(11, 'where'));
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { roots: { method: 'roots/list' } },
    });
    const requestState = first.result!.requestState;
    const retry = await send()(modernCall(12, 'where', { inputResponses: {}, requestState }));
    expect(retry).toEqual({
      jsonrpc: '2.0',
      id: 12,
      result: {
        ...text(
          "fallback to the working directory (-32601: the client retried without an answer to the input request 'roots')",
        ),
        resultType: 'complete',
        _meta: SERVER_INFO,
      },
    });
    const listed = await send()(
      modernCall(13, 'where', { inputResponses: { roots: { roots: [{ uri: 'file:///work' }] } }, requestState }),
    );
    expect(listed.result).toEqual({ ...text('roots: file:///work'), resultType: 'complete', _meta: SERVER_INFO });
  });
}

describe('stdio, 2026-07-28 (per-request _meta)', () => {
  let wire: StdioWire;
  beforeAll(() => void (wire = new StdioWire()));
  afterAll(() => wire?.close());
  modernChecks(() => (message) => wire.request(message));
});

describe('HTTP, 2026-07-28 (per-request _meta and headers)', () => {
  modernChecks(() => modernHttp);
});

// ---- 2025 sessions over HTTP: the SDK v1 client answers the server's requests -----------------

type V1Transport = InstanceType<typeof StreamableHTTPClientTransport> | InstanceType<typeof SSEClientTransport>;

/** An SDK v1 client (2025-11-25) over `transport`; its roots/list and elicitation answers are `handlers`'. */
async function v1Session(
  transport: () => V1Transport,
  capabilities: Record<string, unknown>,
  handlers: { roots?: () => Promise<{ roots: { uri: string }[] }>; elicit?: () => Promise<Record<string, unknown>> },
): Promise<V1Client> {
  const client = new V1Client({ name: 'v1-http', version: '0.0.0' }, { capabilities });
  if (handlers.roots) client.setRequestHandler(ListRootsRequestSchema, handlers.roots);
  if (handlers.elicit) client.setRequestHandler(ElicitRequestSchema, handlers.elicit as never);
  await client.connect(transport());
  return client;
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe.each([
  ['Streamable HTTP', () => new StreamableHTTPClientTransport(http.url)],
  ['HTTP+SSE', () => new SSEClientTransport(new URL('/sse', http.url))],
] as const)('a 2025-11-25 session over %s', (_name, transport) => {
  it('answers roots/list "Roots not supported" with the handler\'s fallback', async () => {
    const client = await v1Session(
      transport,
      { roots: { listChanged: true } },
      {
        roots: async () => {
          throw new McpError(-32601, 'Roots not supported');
        },
      },
    );
    try {
      const result = await client.callTool({ name: 'where', arguments: {} });
      expect(textOf(result)).toBe('fallback to the working directory (-32601: Roots not supported)');
      expect(result.isError).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('reports roots/list_changed to onRootsChanged, which lists the roots of that session', async () => {
    let roots = [{ uri: 'file:///x' }];
    const client = await v1Session(transport, { roots: { listChanged: true } }, { roots: async () => ({ roots }) });
    try {
      const before = Number(/^(\d+)/.exec(textOf(await client.callTool({ name: 'roots_seen', arguments: {} })))![1]);
      roots = [{ uri: 'file:///y' }];
      await client.sendRootsListChanged();
      const deadline = Date.now() + 5_000;
      const expected = `${before + 1} change(s); roots: file:///y`;
      let seen = '';
      // The listener counts the change, then lists the roots over the session's stream.
      while (Date.now() < deadline) {
        seen = textOf(await client.callTool({ name: 'roots_seen', arguments: {} }));
        if (seen === expected) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toBe(expected);
    } finally {
      await client.close();
    }
  });

  it('keeps elicited content of the wrong type from the handler', async () => {
    const client = await v1Session(
      transport,
      { elicitation: {} },
      { elicit: async () => ({ action: 'accept', content: { username: 5 } }) },
    );
    try {
      expect(textOf(await client.callTool({ name: 'signup', arguments: {} }))).toBe(`not signed up (-32602: ${WRONG})`);
    } finally {
      await client.close();
    }
  });
});
