/**
 * A 2025 session's POST of one request, written straight to Node's response (../src/session-post.ts)
 * through the SDK's own session transport and McpServer: a quick answer is JSON in one write, one
 * that sends something first streams as SSE, a stream the handler closes resumes with
 * `Last-Event-ID`, and what the path does not take the transport answers as before.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { serveSession } from '../src/http-wire.js';
import { compiledOnFirstUse } from '../src/schemas.js';
import { MemoryEventStore } from '../src/sessions.js';

let url: URL;
/** The requests the transport's own handleRequest answered (the rest went the quick way). */
let viaTransport = 0;
let sessionId: string;
const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const id = req.headers['mcp-session-id'];
    const transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport) return void serveSession(transport, req, res, body);
    const server = new McpServer({ name: 'quick', version: '1.0.0' }, { capabilities: { logging: {} } });
    const noInput = compiledOnFirstUse<Record<string, never>>({ type: 'object' });
    server.registerTool('quick', { inputSchema: noInput }, () => ({ content: [{ type: 'text', text: 'done' }] }));
    server.registerTool('chatty', { inputSchema: noInput }, async (_args, ctx) => {
      await ctx.mcpReq.log('info', 'working');
      return { content: [{ type: 'text', text: 'said' }] };
    });
    server.registerTool('polled', { inputSchema: noInput }, async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { content: [{ type: 'text', text: 'later' }] };
    });
    const made = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval: 50,
      onsessioninitialized: (sid) => void transports.set(sid, made),
    });
    const handle = made.handleRequest.bind(made);
    made.handleRequest = (...args) => {
      viaTransport += 1;
      return handle(...args);
    };
    void server.connect(made).then(() => serveSession(made, req, res, body));
  });
});

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(method: string, body: unknown, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

let nextId = 1;
const call = (name: string) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'tools/call',
  params: { name, arguments: {} },
});

/** The SSE events of `text`: their ids and parsed data (empty data as null). */
const events = (text: string) =>
  text
    .split('\n\n')
    .filter((e) => e.includes('data:'))
    .map((e) => {
      const field = (name: string) => new RegExp(`^${name}: ?(.*)$`, 'm').exec(e)?.[1];
      const data = field('data');
      return { id: field('id'), retry: field('retry'), data: data ? JSON.parse(data) : null };
    });

beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const init = await send('POST', {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  expect(init.status).toBe(200);
  sessionId = String(init.headers['mcp-session-id']);
  expect(transports.has(sessionId)).toBe(true);
  expect((await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
});

afterAll(async () => {
  await Promise.all([...transports.values()].map((t) => t.close()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describe('a session POST of one request', () => {
  it('answers as JSON, whole, with its length and the session id, when the answer is all there is', async () => {
    const request = call('quick');
    const before = viaTransport;
    const got = await send('POST', request);
    expect(viaTransport).toBe(before);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.text)));
    expect(got.headers['mcp-session-id']).toBe(sessionId);
    expect(JSON.parse(got.text)).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  it('streams as SSE when something comes before the answer: the priming event, then each message with its id', async () => {
    const request = call('chatty');
    const before = viaTransport;
    const got = await send('POST', request);
    expect(viaTransport).toBe(before);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/event-stream');
    expect(got.headers['mcp-session-id']).toBe(sessionId);
    const [priming, log, answer, ...rest] = events(got.text);
    expect(rest).toEqual([]);
    expect(priming).toMatchObject({ data: null, retry: '50' });
    expect(priming!.id).toBeTruthy();
    expect(log!.data).toMatchObject({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
    expect(answer!.data).toMatchObject({ id: request.id, result: { content: [{ text: 'said' }] } });
    expect(new Set([priming!.id, log!.id, answer!.id]).size).toBe(3);
  });

  it('ends the stream when the handler closes it, and a GET with Last-Event-ID gets the answer', async () => {
    const request = call('polled');
    const cut = await send('POST', request);
    expect(cut.status).toBe(200);
    const [priming, ...rest] = events(cut.text);
    expect(rest).toEqual([]);
    expect(priming!.id).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await send('GET', undefined, { accept: 'text/event-stream', 'last-event-id': priming!.id! });
    expect(resumed.status).toBe(200);
    const replayed = events(resumed.text).map((e) => e.data);
    expect(replayed).toEqual([
      { jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'later' }] } },
    ]);
  });

  it('leaves to the transport what it does not take: batches, a wrong Accept, an unknown version, a wrong Content-Type', async () => {
    const before = viaTransport;
    const batch = await send('POST', [call('quick'), call('quick')]);
    expect(viaTransport).toBe(before + 1);
    expect(batch.status).toBe(200);
    expect(events(batch.text).filter((e) => e.data).length).toBe(2);
    expect((await send('POST', call('quick'), { accept: 'application/json' })).status).toBe(406);
    const version = await send('POST', call('quick'), { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(version.text).toContain('Unsupported protocol version');
    expect((await send('POST', call('quick'), { 'content-type': 'text/plain' })).status).toBe(415);
  });
});
