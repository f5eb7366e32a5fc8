/**
 * Capabilities and content on the wire: raw JSON-RPC
 * over stdio (a child process, one message a line) and Streamable HTTP (2025 sessions after
 * initialize, 2026-07-28 per request), the exact message a client of each revision sends and the
 * exact answer its revision specifies, against two scratch projects: tools embedding resources
 * (and annotated prompt content), and resources with subscriptions, cache hints and an input round.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtProject, startHttpServer } from './helpers/project.js';
import { answerOf, type Message } from './helpers/wire.js';

type Request = Omit<Message, 'jsonrpc'>;

const LEGACY = ['2024-11-05', '2025-06-18', '2025-11-25'] as const;
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-wire', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const modern = (message: Request): Request => ({ ...message, params: { ...message.params, _meta: ENVELOPE } });

const TOOLS_MANIFEST = `version: 1
server: { name: caps-tools, version: 0.1.0 }
tools:
  fetch_doc:
    description: Returns a document embedded as a resource
    content: [text, resource]
prompts:
  annotated:
    description: Content blocks with annotations
    messages:
      - role: user
        text: Read the guide
        annotations: { audience: [user], priority: 0.5 }
      - role: user
        resource: { uri: docs://guide, mimeType: text/plain, text: The guide }
        annotations: { audience: [assistant], priority: 1, lastModified: "2025-01-12T15:00:58Z" }
      - role: user
        resource: { uri: docs://logo, mimeType: image/png, blob: iVBORw0KGgo= }
        annotations: { priority: 0 }
      - role: assistant
        image: { data: iVBORw0KGgo=, mimeType: image/png }
        annotations: { audience: [user, assistant] }
`;
const FETCH_DOC =
  "import type { ToolHandlers } from '../../generated/handlers.js';\n\n" +
  "export const handler: ToolHandlers['fetch_doc'] = async () => [\n" +
  "  { type: 'resource', resource: { uri: 'docs://guide', mimeType: 'text/plain', text: 'The guide' } },\n];\n";

const RESOURCES_MANIFEST = `version: 1
server: { name: caps-resources, version: 0.1.0 }
cache:
  resources/read: { ttlMs: 60000, cacheScope: public }
resources:
  status:
    uri: app://status
    description: Subscribable
    mimeType: text/plain
    text: ok
    subscribe: true
  secret:
    uri: app://secret
    description: Asks who reads it first
    mimeType: text/plain
`;
const SECRET =
  "import type { ResourceHandlers } from '../../generated/handlers.js';\nimport { inputRequired } from '@mcpgen/runtime';\n\n" +
  "export const read: ResourceHandlers['secret'] = async (_uri, ctx) => {\n" +
  "  const who = ctx.accepted<{ name: string }>('who');\n" +
  '  if (who) return `for ${who.name}`;\n' +
  "  return ctx.ask({ inputRequests: { who: inputRequired.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }) } });\n};\n";

const EMBEDDED = { type: 'resource', resource: { uri: 'docs://guide', mimeType: 'text/plain', text: 'The guide' } };
const ANNOTATED = [
  {
    role: 'user',
    content: { type: 'text', text: 'Read the guide', annotations: { audience: ['user'], priority: 0.5 } },
  },
  {
    role: 'user',
    content: {
      type: 'resource',
      resource: { uri: 'docs://guide', mimeType: 'text/plain', text: 'The guide' },
      annotations: { audience: ['assistant'], priority: 1, lastModified: '2025-01-12T15:00:58Z' },
    },
  },
  {
    role: 'user',
    content: {
      type: 'resource',
      resource: { uri: 'docs://logo', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
      annotations: { priority: 0 },
    },
  },
  {
    role: 'assistant',
    content: {
      type: 'image',
      data: 'iVBORw0KGgo=',
      mimeType: 'image/png',
      annotations: { audience: ['user', 'assistant'] },
    },
  },
];
const NOT_SUBSCRIBABLE = (id: number, uri: string) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32602, message: `Resource ${uri} does not support subscriptions` },
});

let toolsDir: string;
let resourcesDir: string;
let bareDir: string;
const servers: Awaited<ReturnType<typeof startHttpServer>>[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  toolsDir = await builtProject('content-caps-tools', TOOLS_MANIFEST, { 'src/handlers/tools/fetch_doc.ts': FETCH_DOC });
  resourcesDir = await builtProject('content-caps-resources', RESOURCES_MANIFEST, {
    'src/handlers/resources/secret.ts': SECRET,
  });
  // The same tool without `content`: the manifest does not say it embeds resources.
  bareDir = await builtProject('content-caps-bare', TOOLS_MANIFEST.replace('    content: [text, resource]\n', ''), {
    'src/handlers/tools/fetch_doc.ts': FETCH_DOC,
  });
}, 240_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
});

// ---- stdio --------------------------------------------------------------------------------------

class StdioWire {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly seen: Message[] = [];
  stderr = '';
  #buffer = '';

  constructor(dir: string) {
    this.#child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
      cwd: dir,
      // Warnings too: what a developer sets to see them over stdio.
      env: { ...process.env, NODE_OPTIONS: '', MCP_LOG_LEVEL: 'warn' },
    });
    children.push(this.#child);
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        if (line.trim()) this.seen.push(JSON.parse(line) as Message);
      }
    });
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
  }

  /** Waits (bounded) until a message matching `match` arrives. */
  async waitFor(match: (m: Message) => boolean, what: string): Promise<Message> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.seen.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} within 10 s; saw ${JSON.stringify(this.seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  request(message: Request): Promise<Message> {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    return this.waitFor((m) => m.id === message.id && m.method === undefined, `answer to ${JSON.stringify(message)}`);
  }

  async initialize(version: string): Promise<Message> {
    const init = await this.request({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
    });
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return init;
  }
}

// ---- HTTP ---------------------------------------------------------------------------------------

const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

class HttpWire {
  constructor(readonly url: URL) {}

  async session(version: string): Promise<{ init: Message; send: (m: Request) => Promise<Message> }> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: ACCEPT,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-wire', version: '0.0.0' } },
      }),
    });
    const id = res.headers.get('mcp-session-id')!;
    const init = await answerOf(res, 0);
    const headers = { ...ACCEPT, 'mcp-session-id': id, 'mcp-protocol-version': version };
    const initialized = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await initialized.body?.cancel();
    const send = async (message: Request) =>
      answerOf(
        await fetch(this.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) }),
        message.id,
      );
    return { init, send };
  }

  /** A 2026-07-28 request with its envelope and standard headers. */
  post(message: Request, signal?: AbortSignal): Promise<Response> {
    const params = message.params ?? {};
    const name = message.method === 'resources/read' ? params.uri : params.name;
    return fetch(this.url, {
      method: 'POST',
      headers: {
        ...ACCEPT,
        'MCP-Protocol-Version': MODERN,
        'Mcp-Method': message.method!,
        ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...modern(message) }),
      ...(signal ? { signal } : {}),
    });
  }

  async modern(message: Request): Promise<Message> {
    return answerOf(await this.post(message), message.id);
  }

  /** The first SSE message of a subscriptions/listen stream (or its JSON error), then the stream is closed. */
  async listen(message: Request): Promise<{ status: number; first: Message }> {
    const abort = new AbortController();
    const res = await this.post(message, abort.signal);
    if (!res.headers.get('content-type')?.includes('text/event-stream'))
      return { status: res.status, first: (await res.json()) as Message };
    const reader = res.body!.getReader();
    let text = '';
    const deadline = Date.now() + 10_000;
    while (!/^data:.*$/m.test(text) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    const line = /^data:(.*)$/m.exec(text);
    if (!line) throw new Error(`no event on the listen stream: ${text}`);
    return { status: res.status, first: JSON.parse(line[1]!) as Message };
  }
}

async function http(dir: string): Promise<HttpWire> {
  const server = await startHttpServer(dir);
  servers.push(server);
  return new HttpWire(server.url);
}

// ---- Item 4: tools that embed resources declare `resources` -------------------------------------

describe('a tools-only server whose tools embed resources declares resources', () => {
  const lists = async (send: (m: Request) => Promise<Message>, wrap: (m: Request) => Request = (m) => m) => {
    const resources = await send(wrap({ id: 2, method: 'resources/list', params: {} }));
    const templates = await send(wrap({ id: 3, method: 'resources/templates/list', params: {} }));
    const call = await send(wrap({ id: 4, method: 'tools/call', params: { name: 'fetch_doc' } }));
    return { resources, templates, call };
  };

  for (const version of LEGACY) {
    it(`stdio ${version}: initialize declares it, the lists answer empty, the tool embeds`, async () => {
      const wire = new StdioWire(toolsDir);
      const init = await wire.initialize(version);
      expect(init.result!.capabilities).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
      });
      const { resources, templates, call } = await lists((m) => wire.request(m));
      expect(resources).toEqual({ jsonrpc: '2.0', id: 2, result: { resources: [] } });
      expect(templates).toEqual({ jsonrpc: '2.0', id: 3, result: { resourceTemplates: [] } });
      expect(call).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [EMBEDDED] } });
    });

    it(`http ${version}: the same in a session`, async () => {
      const session = await (await http(toolsDir)).session(version);
      expect(session.init.result!.capabilities).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
      });
      const { resources, templates, call } = await lists(session.send);
      expect(resources).toEqual({ jsonrpc: '2.0', id: 2, result: { resources: [] } });
      expect(templates).toEqual({ jsonrpc: '2.0', id: 3, result: { resourceTemplates: [] } });
      expect(call).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [EMBEDDED] } });
    });
  }

  const modernChecks = async (send: (m: Request) => Promise<Message>) => {
    const discover = await send(modern({ id: 1, method: 'server/discover', params: {} }));
    expect((discover.result!.capabilities as Record<string, unknown>).resources).toEqual({ listChanged: true });
    const { resources, templates, call } = await lists(send, modern);
    expect(resources.result).toMatchObject({ resources: [], ttlMs: 0, cacheScope: 'private' });
    expect(templates.result).toMatchObject({ resourceTemplates: [], ttlMs: 0, cacheScope: 'private' });
    expect(call.result!.content).toEqual([EMBEDDED]);
  };

  it('stdio 2026-07-28: server/discover declares it, the lists answer empty', async () => {
    const wire = new StdioWire(toolsDir);
    await modernChecks((m) => wire.request(m));
  });

  it('http 2026-07-28: the same per request', async () => {
    const wire = await http(toolsDir);
    await modernChecks((m) => wire.modern(m));
  });

  it('without `content: [resource]`, nothing is declared and the embedding is reported on stderr once', async () => {
    const wire = new StdioWire(bareDir);
    const init = await wire.initialize('2025-11-25');
    expect(init.result!.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
    });
    expect(await wire.request({ id: 4, method: 'tools/call', params: { name: 'fetch_doc' } })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { content: [EMBEDDED] },
    });
    expect(await wire.request({ id: 5, method: 'tools/call', params: { name: 'fetch_doc' } })).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [EMBEDDED] },
    });
    const warning =
      'tool fetch_doc returned an embedded resource, but the server does not declare the resources capability; add `content: [resource]` to tools.fetch_doc in the manifest';
    const warned = () =>
      wire.stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .filter((line) => line.msg === warning);
    await vi.waitFor(() => expect(warned()).toEqual([expect.objectContaining({ level: 'warn' })]));
  });
});

// ---- Item 8: annotations of prompt content ------------------------------------------------------

describe('prompt content carries its annotations verbatim', () => {
  for (const version of LEGACY) {
    it(`stdio and http ${version}`, async () => {
      const wire = new StdioWire(toolsDir);
      await wire.initialize(version);
      const expected = {
        jsonrpc: '2.0',
        id: 6,
        result: { description: 'Content blocks with annotations', messages: ANNOTATED },
      };
      expect(await wire.request({ id: 6, method: 'prompts/get', params: { name: 'annotated' } })).toEqual(expected);
      const session = await (await http(toolsDir)).session(version);
      expect(await session.send({ id: 6, method: 'prompts/get', params: { name: 'annotated' } })).toEqual(expected);
    });
  }

  it('stdio and http 2026-07-28', async () => {
    const wire = new StdioWire(toolsDir);
    const stdio = await wire.request(modern({ id: 6, method: 'prompts/get', params: { name: 'annotated' } }));
    expect(stdio.result!.messages).toEqual(ANNOTATED);
    const overHttp = await (await http(toolsDir)).modern({
      id: 6,
      method: 'prompts/get',
      params: { name: 'annotated' },
    });
    expect(overHttp.result!.messages).toEqual(ANNOTATED);
  });
});

// ---- Item 5: no cache hints after an input round ------------------------------------------------

describe('2026-07-28: a result answered after input_required is not cacheable', () => {
  const rounds = async (send: (m: Request) => Promise<Message>) => {
    // Without an input round the configured hint applies.
    const plain = await send(modern({ id: 1, method: 'resources/read', params: { uri: 'app://status' } }));
    expect(plain.result).toMatchObject({
      contents: [{ uri: 'app://status', mimeType: 'text/plain', text: 'ok' }],
      ttlMs: 60000,
      cacheScope: 'public',
    });
    const first = await send(modern({ id: 2, method: 'resources/read', params: { uri: 'app://secret' } }));
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' } },
    });
    expect(first.result).not.toHaveProperty('ttlMs');
    const retry = await send(
      modern({
        id: 3,
        method: 'resources/read',
        params: {
          uri: 'app://secret',
          inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
          ...(first.result!.requestState !== undefined ? { requestState: first.result!.requestState } : {}),
        },
      }),
    );
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'app://secret', mimeType: 'text/plain', text: 'for Ada' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
    // The next plain read is cacheable again.
    const again = await send(modern({ id: 4, method: 'resources/read', params: { uri: 'app://status' } }));
    expect(again.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
  };

  it('stdio', async () => {
    const wire = new StdioWire(resourcesDir);
    await rounds((m) => wire.request(m));
  });

  it('http', async () => {
    const wire = await http(resourcesDir);
    await rounds((m) => wire.modern(m));
  });
});

// ---- Item 6: subscriptions/listen refuses what resources/subscribe refuses ----------------------

describe('subscribing to a resource that is not subscribable is -32602 in every era', () => {
  const legacy = async (send: (m: Request) => Promise<Message>) => {
    expect(await send({ id: 7, method: 'resources/subscribe', params: { uri: 'app://secret' } })).toEqual(
      NOT_SUBSCRIBABLE(7, 'app://secret'),
    );
    expect(await send({ id: 8, method: 'resources/subscribe', params: { uri: 'app://status' } })).toEqual({
      jsonrpc: '2.0',
      id: 8,
      result: {},
    });
  };

  for (const version of LEGACY) {
    it(`stdio ${version}: resources/subscribe`, async () => {
      const wire = new StdioWire(resourcesDir);
      await wire.initialize(version);
      await legacy((m) => wire.request(m));
    });

    it(`http ${version}: resources/subscribe`, async () => {
      const session = await (await http(resourcesDir)).session(version);
      await legacy(session.send);
    });
  }

  const listen = (id: number, uris: string[]) =>
    modern({ id, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris } } });
  const ACK = (uris: string[]) => ({ notifications: { resourceSubscriptions: uris } });

  it('stdio 2026-07-28: subscriptions/listen', async () => {
    const wire = new StdioWire(resourcesDir);
    expect(await wire.request(listen(9, ['app://secret']))).toEqual(NOT_SUBSCRIBABLE(9, 'app://secret'));
    expect(await wire.request(listen(10, ['app://status', 'app://nope', 'app://secret']))).toEqual({
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32602, message: 'Resources app://nope, app://secret do not support subscriptions' },
    });
    wire.request(listen(11, ['app://status'])).catch(() => {});
    const ack = await wire.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged', 'acknowledgement');
    expect(ack.params).toMatchObject(ACK(['app://status']));
  });

  it('http 2026-07-28: subscriptions/listen', async () => {
    const wire = await http(resourcesDir);
    expect(await wire.listen(listen(9, ['app://secret']))).toEqual({
      status: 200,
      first: NOT_SUBSCRIBABLE(9, 'app://secret'),
    });
    const ok = await wire.listen(listen(11, ['app://status']));
    expect(ok.status).toBe(200);
    expect(ok.first).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: ACK(['app://status']),
    });
  });
});
