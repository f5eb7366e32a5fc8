/**
 * HTTP-backed tools (`apis`, a tool's `http:`), with real parts: a real node:http API on
 * 127.0.0.1 (pets in a Map, a bearer token, a slow endpoint, errors as JSON, a redirect to a
 * second server on another port, so another origin), a generated project built with tsc and
 * called through a real MCP client over Streamable HTTP. Each behaviour of the runtime's
 * /http-backend is called once: arguments placed in path, query, headers and body; JSON as
 * structuredContent; HTTP errors, time limits and network errors as error results; the token sent
 * only to the API's origin; the MCP client's own token never forwarded; cancellation reaching the
 * API; a handler wrapping the call with ctx.http(); the server refusing to start without its token.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, run, startHttpServer } from './helpers/project.js';

const TOKEN = 'api-secret-token';
const MCP_TOKEN = 'mcp-client-token';

const MANIFEST = `version: 1
server: { name: pets-over-http, version: 0.1.0 }
transports:
  http: { auth: { bearer: { tokensEnv: PETS_MCP_TOKENS } } }
apis:
  pets:
    baseUrl: { env: PETS_URL }
    auth: { type: bearer, env: PETS_TOKEN }
    headers: { Accept: application/json }
    timeoutMs: 5000
tools:
  get_pet:
    description: Gets a pet by its id
    input:
      type: object
      properties: { petId: { type: integer }, verbose: { type: boolean }, requestId: { type: string } }
      required: [petId]
    output:
      type: object
      properties: { id: { type: integer }, name: { type: string }, tag: { type: string } }
      required: [id, name]
    http:
      method: GET
      path: /pets/{petId}
      query: [verbose]
      headers: { X-Request-Id: requestId }
  list_pets:
    description: Lists pets, by tags
    input:
      type: object
      properties: { tag: { type: array, items: { type: string } }, limit: { type: integer } }
    http: { method: GET, path: /pets }
  add_pet:
    description: Adds a pet
    input:
      type: object
      properties:
        pet: { type: object, properties: { name: { type: string }, tag: { type: string } }, required: [name] }
      required: [pet]
    http: { method: POST, path: /pets, body: pet }
  update_pet:
    description: Updates a pet; properties named nowhere go into the JSON body object
    input:
      type: object
      properties: { petId: { type: integer }, name: { type: string }, tag: { type: string } }
      required: [petId]
    http: { method: PUT, path: "/pets/{petId}" }
  delete_pet:
    description: Deletes a pet
    input: { type: object, properties: { petId: { type: integer } }, required: [petId] }
    http: { method: DELETE, path: "/pets/{petId}" }
  rename_pet:
    description: Renames a pet through its handler, which wraps the call
    input: { type: object, properties: { petId: { type: integer }, name: { type: string } }, required: [petId, name] }
    http: { method: PATCH, path: "/pets/{petId}", body: [name], handler: true }
  count_cats:
    description: Counts the cats with a call of its own (ctx.http with a path)
  get_file:
    description: Reads a file by name
    input: { type: object, properties: { name: { type: string } }, required: [name] }
    http: { method: GET, path: "/files/{name}" }
  slow:
    description: Waits longer than its time limit
    http: { method: GET, path: /slow, timeoutMs: 300 }
  slow_unlimited:
    description: Waits two seconds, for cancellation
    http: { method: GET, path: /slow }
  elsewhere:
    description: Redirected to another origin
    http: { method: GET, path: /redirect }
  boom:
    description: Fails on the API's side
    http: { method: GET, path: /boom }
  image:
    description: An image
    http: { method: GET, path: /image }
  binary:
    description: Bytes of no known kind
    http: { method: GET, path: /binary }
  greeting:
    description: Plain text
    http: { method: GET, path: /text }
`;

const HANDLERS: Record<string, string> = {
  'src/handlers/tools/rename_pet.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['rename_pet'] = async (_input, ctx) => {
  const res = await ctx.http<{ name: string }>();
  if (!res.ok) throw new Error(\`the API refused: \${res.status}\`);
  return \`renamed to \${res.data.name}\`;
};
`,
  'src/handlers/tools/count_cats.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['count_cats'] = async (_input, ctx) => {
  const res = await ctx.http<unknown[]>({ path: '/pets', query: { tag: ['cat'] } });
  return \`\${res.data.length} cats\`;
};
`,
};

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  requestId: string | undefined;
  body: string;
}

const seen: Seen[] = [];
const elsewhereSeen: Seen[] = [];
let aborted = 0;
const pets = new Map<number, { id: number; name: string; tag?: string }>();
let api: Server;
let other: Server;
let apiUrl: string;
let dir: string;
let mcp: Awaited<ReturnType<typeof startHttpServer>>;
let client: Client;

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
}

async function record(req: IncomingMessage, into: Seen[]): Promise<Seen> {
  let body = '';
  for await (const chunk of req) body += chunk;
  const s = {
    method: req.method!,
    url: req.url!,
    authorization: req.headers.authorization,
    requestId: req.headers['x-request-id'] as string | undefined,
    body,
  };
  into.push(s);
  return s;
}

async function answer(req: IncomingMessage, res: ServerResponse, otherOrigin: string): Promise<void> {
  const s = await record(req, seen);
  const url = new URL(s.url, 'http://api');
  if (s.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { message: 'missing or wrong token' });
  const id = /^\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (url.pathname === '/pets' && s.method === 'GET') {
    const tags = url.searchParams.getAll('tag');
    return json(
      res,
      200,
      [...pets.values()].filter((p) => !tags.length || tags.includes(p.tag ?? '')),
    );
  }
  if (url.pathname === '/pets' && s.method === 'POST') {
    const pet = { id: pets.size + 1, ...JSON.parse(s.body) };
    pets.set(pet.id, pet);
    return json(res, 201, pet);
  }
  if (id !== undefined) {
    const pet = pets.get(Number(id));
    if (!pet) return json(res, 404, { message: `pet ${id} not found` });
    if (s.method === 'GET') return json(res, 200, pet);
    if (s.method === 'PUT' || s.method === 'PATCH') {
      Object.assign(pet, JSON.parse(s.body));
      return json(res, 200, pet);
    }
    if (s.method === 'DELETE') {
      pets.delete(pet.id);
      return void res.writeHead(204).end();
    }
  }
  if (url.pathname.startsWith('/files/')) return json(res, 200, { path: url.pathname });
  if (url.pathname === '/slow') {
    const timer = setTimeout(() => json(res, 200, { slow: true }), 2000);
    res.on('close', () => {
      if (!res.writableEnded) aborted++;
      clearTimeout(timer);
    });
    return;
  }
  if (url.pathname === '/redirect') return void res.writeHead(302, { location: `${otherOrigin}/capture` }).end();
  if (url.pathname === '/boom') return json(res, 500, { error: { message: 'the database is on fire' } });
  if (url.pathname === '/image')
    return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  if (url.pathname === '/binary')
    return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(1234));
  if (url.pathname === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('hello there');
  json(res, 404, { title: 'no such endpoint' });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  other = createServer((req, res) => void record(req, elsewhereSeen).then(() => json(res, 200, { captured: true })));
  const otherOrigin = await listen(other);
  api = createServer((req, res) => void answer(req, res, otherOrigin));
  apiUrl = await listen(api);
  dir = await builtProject('http-backend', MANIFEST, HANDLERS);
  mcp = await startHttpServer(dir, { PETS_URL: apiUrl, PETS_TOKEN: TOKEN, PETS_MCP_TOKENS: MCP_TOKEN });
  client = new Client({ name: 'http-backend-e2e', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcp.url, { requestInit: { headers: { authorization: `Bearer ${MCP_TOKEN}` } } }),
  );
}, 180_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await mcp?.stop();
  await new Promise((r) => api?.close(r));
  await new Promise((r) => other?.close(r));
});

type Result = {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: unknown;
};
const call = (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
  client.callTool({ name, arguments: args }, { signal, timeout: 20_000 }) as Promise<Result>;
const text = (r: Result) => r.content.map((c) => c.text ?? '').join('');
const last = () => seen[seen.length - 1]!;

describe('HTTP-backed tools through a real client', () => {
  it('lists the tools with their schemas, none needing a handler file', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_pet');
    expect(tools.find((t) => t.name === 'get_pet')!.outputSchema).toBeDefined();
  });

  it('POST: the body property is the JSON body; the JSON answer comes back as text', async () => {
    const r = await call('add_pet', { pet: { name: 'Tom', tag: 'cat' } });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(last().body)).toEqual({ name: 'Tom', tag: 'cat' });
    expect(JSON.parse(text(r))).toEqual({ id: 1, name: 'Tom', tag: 'cat' });
    // An object is structuredContent even without `output`.
    expect(r.structuredContent).toEqual({ id: 1, name: 'Tom', tag: 'cat' });
    await call('add_pet', { pet: { name: 'Rex', tag: 'dog' } });
  });

  it('GET: path, query and header placed; JSON as structuredContent; the API token, not the client’s', async () => {
    const r = await call('get_pet', { petId: 1, verbose: true, requestId: 'req-7' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ id: 1, name: 'Tom', tag: 'cat' });
    expect(last()).toMatchObject({ method: 'GET', url: '/pets/1?verbose=true', requestId: 'req-7' });
    expect(last().authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen.some((s) => s.authorization?.includes(MCP_TOKEN))).toBe(false);
  });

  it('GET: properties named nowhere go to the query string, arrays repeated; a JSON array is text', async () => {
    const r = await call('list_pets', { tag: ['cat', 'dog'], limit: 5 });
    expect(last().url).toBe('/pets?tag=cat&tag=dog&limit=5');
    expect(JSON.parse(text(r))).toHaveLength(2);
    expect(r.structuredContent).toBeUndefined();
  });

  it('PUT without body: properties named nowhere form the JSON body object; absent ones are left out', async () => {
    const r = await call('update_pet', { petId: 2, tag: 'good dog' });
    expect(r.isError).toBeFalsy();
    expect(last()).toMatchObject({ method: 'PUT', url: '/pets/2' });
    expect(JSON.parse(last().body)).toEqual({ tag: 'good dog' });
  });

  it('a handler wraps the declared call with ctx.http(), and makes its own with a path', async () => {
    expect(text(await call('rename_pet', { petId: 1, name: 'Thomas' }))).toBe('renamed to Thomas');
    expect(last()).toMatchObject({ method: 'PATCH', url: '/pets/1' });
    expect(JSON.parse(last().body)).toEqual({ name: 'Thomas' });
    expect(text(await call('count_cats'))).toBe('1 cats');
    expect(last().url).toBe('/pets?tag=cat');
  });

  it('HTTP errors are error results with the status and the API message', async () => {
    const missing = await call('get_pet', { petId: 99 });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('HTTP 404 Not Found: pet 99 not found');
    const boom = await call('boom');
    expect(boom.isError).toBe(true);
    expect(text(boom)).toBe('HTTP 500 Internal Server Error: the database is on fire');
  });

  it('DELETE answered 204: a text result', async () => {
    const r = await call('delete_pet', { petId: 2 });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain('204');
    expect(last()).toMatchObject({ method: 'DELETE', url: '/pets/2' });
  });

  it('path values are percent-encoded and cannot climb out of the path', async () => {
    const r = await call('get_file', { name: '../admin?x=1#y' });
    expect(r.structuredContent).toEqual({ path: '/files/..%2Fadmin%3Fx%3D1%23y' });
    const before = seen.length;
    const up = await call('get_file', { name: '..' });
    expect(up.isError).toBe(true);
    expect(text(up)).toContain('may not be ".."');
    expect(seen.length).toBe(before);
  });

  it('a time limit is an error result naming the milliseconds', async () => {
    const r = await call('slow');
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('pets: GET /slow got no answer within 300 ms');
  });

  it('a redirect to another origin is followed without the token', async () => {
    const r = await call('elsewhere');
    expect(r.structuredContent).toEqual({ captured: true });
    expect(last().authorization).toBe(`Bearer ${TOKEN}`);
    expect(elsewhereSeen).toHaveLength(1);
    expect(elsewhereSeen[0]!.authorization).toBeUndefined();
  });

  it('an image is image content; other bytes a note naming their type and size; text as text', async () => {
    expect((await call('image')).content[0]).toEqual({ type: 'image', data: 'iVBORw==', mimeType: 'image/png' });
    expect(text(await call('binary'))).toBe(
      'the API answered with application/octet-stream (1234 bytes), which is not shown',
    );
    expect(text(await call('greeting'))).toBe('hello there');
  });

  it('cancelling the MCP request aborts the API request', async () => {
    const before = aborted;
    const controller = new AbortController();
    const pending = call('slow_unlimited', {}, controller.signal);
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => aborted, { timeout: 5000 }).toBe(before + 1);
  });
});

describe('the environment', () => {
  it('a server whose API token is unset refuses to start, naming the variable', async () => {
    const env = { ...process.env, PETS_URL: apiUrl, PETS_MCP_TOKENS: MCP_TOKEN };
    delete env.PETS_TOKEN;
    const r = await run(
      process.execPath,
      [path.join(dir, 'dist/src/main.js'), '--http', '--port', '0'],
      dir,
      15_000,
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('apis.pets: set the environment variable PETS_TOKEN');
  });

  /** Calls `tool` on a server of the project started with the API at `url` and `token`. */
  async function callWith(url: string, token: string, tool: string, args: Record<string, unknown> = {}) {
    const server = await startHttpServer(dir, { PETS_URL: url, PETS_TOKEN: token, PETS_MCP_TOKENS: MCP_TOKEN });
    const c = new Client({ name: 'http-backend-e2e', version: '0.0.0' });
    try {
      await c.connect(
        new StreamableHTTPClientTransport(server.url, {
          requestInit: { headers: { authorization: `Bearer ${MCP_TOKEN}` } },
        }),
      );
      return (await c.callTool({ name: tool, arguments: args })) as Result;
    } finally {
      await c.close().catch(() => {});
      await server.stop();
    }
  }

  it('an API nobody listens on is an error result naming the failure', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    const r = await callWith(url, TOKEN, 'greeting');
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('pets: GET /text failed: ECONNREFUSED');
  });

  it('a wrong token is the API’s 401, as an error result with its message', async () => {
    const r = await callWith(apiUrl, 'not-the-token', 'get_pet', { petId: 1 });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('HTTP 401 Unauthorized: missing or wrong token');
  });
});
