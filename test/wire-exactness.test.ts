/**
 * Protocol exactness on the wire: raw JSON-RPC, the exact message a
 * client of each revision sends and the exact answer its revision specifies, over stdio (a child
 * process written line by line) and Streamable HTTP (fetch: 2025 sessions after initialize with
 * Mcp-Session-Id, 2026-07-28 with the `_meta` envelope and its headers), against examples/conformance
 * compiled once into a scratch folder, plus a resource and a template whose handlers find nothing.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch, startHttpServer } from './helpers/project.js';
import { answerOf, type Message } from './helpers/wire.js';

type Legacy = '2024-11-05' | '2025-06-18' | '2025-11-25';

const LEGACY: Legacy[] = ['2024-11-05', '2025-06-18', '2025-11-25'];
const MODERN = '2026-07-28';
/** What the server speaks: 2026-07-28 per request, the SDK's 2025 versions through initialize. */
const EVERY_VERSION = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
const ENVELOPE = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-wire', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
const NO_INPUT = { type: 'object', properties: {}, additionalProperties: false };
const EMPTY_HINT = '(its handler returned no contents; to say so, throw notFound(uri))';

let dir: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
let manifest: { tools: Record<string, { input?: unknown }>; prompts: Record<string, { description: string }> };
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = scratch('wire-exactness', path.join(REPO, 'examples/conformance'));
  // Handlers that find nothing: one returns [], the template returns [] or throws notFound(uri).
  const file = path.join(dir, 'mcpgen.yaml');
  const yaml = readFileSync(file, 'utf8')
    .replace(
      '\nresources:\n',
      '\nresources:\n  empty_resource:\n    uri: test://empty\n    description: A handler that finds nothing\n    mimeType: text/plain\n',
    )
    .replace(
      '\nresourceTemplates:\n',
      '\nresourceTemplates:\n  empty_template:\n    uriTemplate: test://empty/{id}/data\n    description: Finds nothing, or throws notFound for gone\n    mimeType: text/plain\n    params: { id: { type: string, description: The ID } }\n',
    );
  writeFileSync(file, yaml);
  manifest = parse(yaml);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  writeFileSync(
    path.join(dir, 'src/handlers/resources/empty_resource.ts'),
    "import type { ResourceHandlers } from '../../generated/handlers.js';\n\nexport const read: ResourceHandlers['empty_resource'] = async () => [];\n",
  );
  writeFileSync(
    path.join(dir, 'src/handlers/templates/empty_template.ts'),
    "import type { TemplateHandlers } from '../../generated/handlers.js';\nimport { notFound } from '@mcpgen/runtime';\n\n" +
      "export const read: TemplateHandlers['empty_template']['read'] = async ({ id }, uri) => {\n  if (id === 'gone') throw notFound(uri);\n  return [];\n};\n",
  );
  const tsc = await buildServer(dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  http = await startHttpServer(dir);
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await http?.stop();
});

// ---- stdio: a child process, one JSON-RPC message a line ----------------------------------------

class StdioWire {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #seen: Message[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];

  constructor() {
    this.#child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    children.push(this.#child);
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        if (line.trim()) this.#seen.push(JSON.parse(line) as Message);
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.#child.stderr.resume();
  }

  /** Writes `message` as one line and waits (bounded) for the response with its id. */
  async request(message: Omit<Message, 'jsonrpc'>): Promise<Message> {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.#seen.find((m) => m.id === message.id && m.method === undefined);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no answer to ${JSON.stringify(message)} within 10 s; saw ${JSON.stringify(this.#seen)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  notify(method: string): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  close(): void {
    this.#child.kill('SIGTERM');
  }
}

// ---- HTTP: fetch -------------------------------------------------------------------------------

const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

async function openSession(version: string): Promise<{ id: string; init: Message }> {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: ACCEPT,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
    }),
  });
  const id = res.headers.get('mcp-session-id');
  const init = await answerOf(res, 0);
  expect(id, JSON.stringify(init)).toBeTruthy();
  const initialized = await fetch(http.url, {
    method: 'POST',
    headers: { ...ACCEPT, 'mcp-session-id': id!, 'mcp-protocol-version': init.result!.protocolVersion as string },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.body?.cancel();
  expect(initialized.status).toBe(202);
  return { id: id!, init };
}

async function sessionRequest(session: string, version: string, message: Omit<Message, 'jsonrpc'>): Promise<Message> {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: { ...ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  return answerOf(res, message.id);
}

/** The name header of a 2026-07-28 request (streamable-http, "Standard Headers"). */
function nameOf(message: Omit<Message, 'jsonrpc'>): Record<string, string> {
  const params = message.params ?? {};
  const name = message.method === 'resources/read' ? params.uri : params.name;
  return typeof name === 'string' ? { 'Mcp-Name': name } : {};
}

async function modernHttp(
  message: Omit<Message, 'jsonrpc'>,
  version = MODERN,
): Promise<{ status: number; body: Message }> {
  const withMeta = { ...message, params: { ...message.params, _meta: ENVELOPE(version) } };
  const res = await fetch(http.url, {
    method: 'POST',
    headers: { ...ACCEPT, 'MCP-Protocol-Version': version, 'Mcp-Method': message.method!, ...nameOf(message) },
    body: JSON.stringify({ jsonrpc: '2.0', ...withMeta }),
  });
  return { status: res.status, body: await answerOf(res, message.id) };
}

// ---- What each revision says -------------------------------------------------------------------

const notFoundError = (id: number, uri: string, code: number, message = `Resource not found: ${uri}`) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, data: { uri } },
});

/** A requester for one session of one revision, on one transport. */
type Send = (message: Omit<Message, 'jsonrpc'>) => Promise<Message>;

function resourceChecks(send: () => Send, code: number) {
  it(`a missing resource is ${code} with data.uri`, async () => {
    expect(await send()({ id: 11, method: 'resources/read', params: { uri: 'test://nope' } })).toEqual(
      notFoundError(11, 'test://nope', code),
    );
  });

  it('a handler returning [] is not found too, with a word for its author', async () => {
    expect(await send()({ id: 12, method: 'resources/read', params: { uri: 'test://empty' } })).toEqual(
      notFoundError(12, 'test://empty', code, `Resource not found: test://empty ${EMPTY_HINT}`),
    );
    expect(await send()({ id: 13, method: 'resources/read', params: { uri: 'test://empty/7/data' } })).toEqual(
      notFoundError(13, 'test://empty/7/data', code, `Resource not found: test://empty/7/data ${EMPTY_HINT}`),
    );
  });

  it('a template handler throwing notFound(uri) is the same error', async () => {
    expect(await send()({ id: 14, method: 'resources/read', params: { uri: 'test://empty/gone/data' } })).toEqual(
      notFoundError(14, 'test://empty/gone/data', code),
    );
  });
}

function sharedChecks(send: () => Send) {
  it('prompts/get sends the description, declarative and handler-backed', async () => {
    const simple = await send()({ id: 21, method: 'prompts/get', params: { name: 'test_simple_prompt' } });
    expect(simple.result).toMatchObject({
      description: manifest.prompts.test_simple_prompt!.description,
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
    const handled = await send()({
      id: 22,
      method: 'prompts/get',
      params: { name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://static-text' } },
    });
    expect(handled.error).toBeUndefined();
    expect(handled.result!.description).toBe(manifest.prompts.test_prompt_with_embedded_resource!.description);
  });

  it('a tool without input takes no properties; a declared input schema is sent verbatim', async () => {
    const list = await send()({ id: 23, method: 'tools/list', params: {} });
    const tools = list.result!.tools as { name: string; inputSchema: unknown }[];
    const schemaOf = (name: string) => tools.find((t) => t.name === name)?.inputSchema;
    const without = Object.keys(manifest.tools).filter((name) => manifest.tools[name]!.input === undefined);
    expect(without.length).toBeGreaterThan(10);
    for (const name of without) expect(schemaOf(name), name).toEqual(NO_INPUT);
    expect(schemaOf('json_schema_2020_12_tool')).toEqual(manifest.tools.json_schema_2020_12_tool!.input);
    // And it means it: an argument the schema does not allow is refused, none at all is fine.
    const called = await send()({ id: 24, method: 'tools/call', params: { name: 'test_simple_text' } });
    expect(called.result).toMatchObject({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    const extra = await send()({
      id: 25,
      method: 'tools/call',
      params: { name: 'test_simple_text', arguments: { city: 'Paris' } },
    });
    expect(JSON.stringify(extra)).toMatch(/must NOT have additional properties/);
  });
}

function legacyChecks(send: () => Send) {
  resourceChecks(send, -32002);
  sharedChecks(send);
  it('logging/setLevel with an unknown level is -32602 naming the levels; a known one is {}', async () => {
    expect(await send()({ id: 31, method: 'logging/setLevel', params: { level: 'loud' } })).toEqual({
      jsonrpc: '2.0',
      id: 31,
      error: {
        code: -32602,
        message:
          'Invalid params for logging/setLevel: level: must be one of debug, info, notice, warning, error, critical, alert, emergency; got "loud"',
      },
    });
    expect(await send()({ id: 32, method: 'logging/setLevel', params: { level: 'warning' } })).toEqual({
      jsonrpc: '2.0',
      id: 32,
      result: {},
    });
  });
}

describe.each(LEGACY)('stdio, %s (initialize)', (version) => {
  let wire: StdioWire;
  beforeAll(async () => {
    wire = new StdioWire();
    const init = await wire.request({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
    });
    expect(init.result!.protocolVersion).toBe(version);
    wire.notify('notifications/initialized');
  }, 30_000);
  afterAll(() => wire?.close());
  legacyChecks(() => (message) => wire.request(message));
});

describe.each(LEGACY)('HTTP, %s (session)', (version) => {
  let session: string;
  beforeAll(async () => {
    const opened = await openSession(version);
    expect(opened.init.result!.protocolVersion).toBe(version);
    session = opened.id;
  }, 30_000);
  legacyChecks(() => (message) => sessionRequest(session, version, message));
});

describe('stdio, 2026-07-28 (per-request _meta)', () => {
  let wire: StdioWire;
  const send: Send = (message) => wire.request({ ...message, params: { ...message.params, _meta: ENVELOPE() } });
  beforeAll(() => void (wire = new StdioWire()));
  afterAll(() => wire?.close());

  it('server/discover lists every version the server accepts', async () => {
    const discover = await send({ id: 1, method: 'server/discover', params: {} });
    expect(discover.result!.supportedVersions).toEqual(EVERY_VERSION);
  });

  resourceChecks(() => send, -32602);
  sharedChecks(() => send);

  it('once a 2026 request was served, one claiming an unknown version is refused with every version', async () => {
    expect((await send({ id: 41, method: 'prompts/list', params: {} })).result!.prompts).toBeDefined();
    const refused = await wire.request({ id: 42, method: 'tools/list', params: { _meta: ENVELOPE('2099-01-01') } });
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: 42,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2099-01-01',
        data: { supported: EVERY_VERSION, requested: '2099-01-01' },
      },
    });
    // The connection goes on serving 2026-07-28.
    expect((await send({ id: 43, method: 'prompts/list', params: {} })).result!.prompts).toBeDefined();
  });
});

describe('stdio, a connection whose first request claims an unknown version', () => {
  let wire: StdioWire;
  beforeAll(() => void (wire = new StdioWire()));
  afterAll(() => wire?.close());

  it('is refused with -32022 listing every version', async () => {
    const refused = await wire.request({ id: 1, method: 'tools/list', params: { _meta: ENVELOPE('2099-01-01') } });
    expect(refused).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32022, data: { supported: EVERY_VERSION, requested: '2099-01-01' } },
    });
  });
});

describe('HTTP, 2026-07-28 (per-request _meta and headers)', () => {
  const send: Send = async (message) => (await modernHttp(message)).body;

  it('server/discover lists every version the server accepts', async () => {
    expect((await send({ id: 1, method: 'server/discover', params: {} })).result!.supportedVersions).toEqual(
      EVERY_VERSION,
    );
  });

  resourceChecks(() => send, -32602);
  sharedChecks(() => send);

  it('a request claiming an unknown version is 400 -32022 listing every version', async () => {
    const refused = await modernHttp({ id: 44, method: 'tools/list', params: {} }, '2099-01-01');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: 44,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2099-01-01',
        data: { supported: EVERY_VERSION, requested: '2099-01-01' },
      },
    });
  });
});

describe('initialize with a version the server does not know', () => {
  // basic/lifecycle (2024-11-05 … 2025-11-25): the server answers with a version it supports, the
  // latest; initialize negotiates 2025 revisions only (2026-07-28 has no initialize).
  const unknown = {
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
  };

  it('stdio: answers 2025-11-25', async () => {
    const wire = new StdioWire();
    try {
      expect((await wire.request(unknown)).result!.protocolVersion).toBe('2025-11-25');
    } finally {
      wire.close();
    }
  });

  it('HTTP: answers 2025-11-25', async () => {
    const res = await fetch(http.url, {
      method: 'POST',
      headers: ACCEPT,
      body: JSON.stringify({ jsonrpc: '2.0', ...unknown }),
    });
    expect((await answerOf(res, 0)).result!.protocolVersion).toBe('2025-11-25');
  });
});

describe('HTTP 405 names the allowed methods', () => {
  it.each(['GET', 'DELETE', 'PUT'])('%s without a session: 405 with Allow', async (method) => {
    const res = await fetch(http.url, { method, headers: { Accept: 'application/json, text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await res.json()).error.code).toBe(-32000);
  });

  it('PUT with a session: 405 with Allow (the session transport)', async () => {
    const { id } = await openSession('2025-11-25');
    const res = await fetch(http.url, {
      method: 'PUT',
      headers: { ...ACCEPT, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    });
    await res.body?.cancel();
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});
