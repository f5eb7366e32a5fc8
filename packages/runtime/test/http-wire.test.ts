/**
 * How answers reach the wire (../src/http-wire.ts): JSON whole with its length, a quick SSE answer
 * as JSON, a streamed one as SSE; the request view the SDK reads; the body reader's limits.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { readJson, soleMessage, webRequest, writeResponse } from '../src/http-wire.js';

const encode = (text: string) => new TextEncoder().encode(text);
const PRIMING = 'id: s_1\nretry: 1000\ndata: \n\n';
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{}}';
const event = (data: string) => `event: message\nid: s_2\ndata: ${data}\n\n`;

describe('soleMessage', () => {
  it('finds the one message of an SSE answer, beside priming events and comments', () => {
    expect(soleMessage([encode(PRIMING), encode(event(ANSWER))])).toBe(ANSWER);
    expect(soleMessage([encode(`: keepalive\n\n${PRIMING}${event(ANSWER)}`)])).toBe(ANSWER);
  });

  it('keeps the stream when something came before the answer, or nothing did', () => {
    const progress = '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}';
    expect(soleMessage([encode(PRIMING), encode(event(progress)), encode(event(ANSWER))])).toBeUndefined();
    expect(soleMessage([encode(PRIMING)])).toBeUndefined();
  });
});

let server: ReturnType<typeof createServer> | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `handle`, sends one request, resolves what came back. */
async function exchange(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  method = 'POST',
  body = '{}',
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method, path: '/mcp?x=1' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('writeResponse', () => {
  it('writes a JSON answer whole, with its length', async () => {
    const got = await exchange((req, res) => writeResponse(req, res, Response.json({ ok: true })));
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(got.text.length));
    expect(JSON.parse(got.text)).toEqual({ ok: true });
  });

  it('sends a POST whose SSE answer held only its message as JSON, keeping the other headers', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode(PRIMING));
        queueMicrotask(() => {
          controller.enqueue(encode(event(ANSWER)));
          controller.close();
        });
      },
    });
    const response = new Response(body, {
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'mcp-session-id': 's' },
    });
    const got = await exchange((req, res) => writeResponse(req, res, response));
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['mcp-session-id']).toBe('s');
    expect(got.headers['cache-control']).toBeUndefined();
    expect(got.text).toBe(ANSWER);
  });

  it('keeps each cookie its own header line', async () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const got = await exchange((req, res) => writeResponse(req, res, new Response('{}', { headers })));
    expect(got.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('an SSE stream that fails before its first write leaves the answer to the caller', async () => {
    const broken = new ReadableStream({ start: (c) => c.error(new Error('stream broke')) });
    const sse = new Response(broken, { headers: { 'content-type': 'text/event-stream' } });
    const got = await exchange(async (req, res) => {
      await writeResponse(req, res, sse).catch((error: Error) => {
        expect(res.headersSent).toBe(false);
        res.writeHead(500).end(error.message);
      });
      // Past the turn in which the held events would have been written: nothing more is.
      await new Promise((r) => setImmediate(r));
    });
    expect([got.status, got.text]).toEqual([500, 'stream broke']);
  });

  it('streams an answer that takes longer, events as they come', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode(PRIMING));
        setTimeout(() => {
          controller.enqueue(encode(event(ANSWER)));
          controller.close();
        }, 20);
      },
    });
    const response = new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    const got = await exchange((req, res) => writeResponse(req, res, response));
    expect(got.headers['content-type']).toBe('text/event-stream');
    expect(got.text).toBe(PRIMING + event(ANSWER));
  });
});

describe('webRequest and readJson', () => {
  it('shows the SDK method, URL and headers of the Node request without copying them', async () => {
    let seen: { method: string; url: string; accept: string | null; has: boolean; names: string[] } | undefined;
    await exchange(async (req, res) => {
      req.headers.accept = 'application/json, text/event-stream';
      const view = webRequest(req);
      seen = {
        method: view.method,
        url: view.url,
        accept: view.headers.get('Accept'),
        has: view.headers.has('mcp-session-id'),
        names: [...view.headers.keys()],
      };
      res.end();
    });
    expect(seen).toMatchObject({ method: 'POST', accept: 'application/json, text/event-stream', has: false });
    expect(seen!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?x=1$/);
    expect(seen!.names).toContain('host');
  });

  it('parses a body within the limit, and answers 413 or 400 otherwise', async () => {
    let parsed: unknown;
    const ok = await exchange(
      async (req, res) => {
        parsed = (await readJson(req, res, 100))?.body;
        res.end();
      },
      'POST',
      '{"a":1}',
    );
    expect(ok.status).toBe(200);
    expect(parsed).toEqual({ a: 1 });
    const big = await exchange((req, res) => readJson(req, res, 4).then(() => {}), 'POST', '{"a":12345}');
    expect(big.status).toBe(413);
    const bad = await exchange((req, res) => readJson(req, res, 100).then(() => {}), 'POST', '{nope');
    expect(bad.status).toBe(400);
  });

  it('a client gone before its body was in is no error: null, nothing answered', async () => {
    const read = new Promise<unknown>((resolve, reject) => {
      server = createServer((req, res) => void readJson(req, res, 100).then(resolve, reject));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const socket = connect((server!.address() as AddressInfo).port, '127.0.0.1');
    socket.write('POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
    setTimeout(() => socket.destroy(), 50);
    expect(await read).toBeNull();
  });

  it('takes a request target in absolute form as the URL', async () => {
    let url: string | undefined;
    server = createServer((req, res) => {
      url = webRequest(req).url;
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const socket = connect((server!.address() as AddressInfo).port, '127.0.0.1');
    socket.end('GET http://example.test/mcp?x=1 HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n');
    await new Promise((r) => socket.on('close', r).resume());
    expect(url).toBe('http://example.test/mcp?x=1');
  });
});
