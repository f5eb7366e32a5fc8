/**
 * Sending to an API, against real node:http servers on 127.0.0.1: an API key in the query goes to
 * the API's origin only and is taken off a redirect elsewhere; a redirect loop stops after
 * MAX_REDIRECTS; a 303 continues as a GET without the body; a body over MAX_RESPONSE_BYTES fails
 * the call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveApi } from '../src/http-backend.js';
import { MAX_REDIRECTS, MAX_RESPONSE_BYTES, send } from '../src/http-fetch.js';

const seen: { origin: string; method: string; url: string; body: string }[] = [];
let api: Server;
let other: Server;
let apiUrl: string;
let otherUrl: string;

function serve(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<[Server, string]> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    handle(req, res, body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve([server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`]),
    ),
  );
}

beforeAll(async () => {
  [other, otherUrl] = await serve((req, res, body) => {
    seen.push({ origin: 'other', method: req.method!, url: req.url!, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"at":"other"}');
  });
  [api, apiUrl] = await serve((req, res, body) => {
    seen.push({ origin: 'api', method: req.method!, url: req.url!, body });
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/away') return void res.writeHead(302, { location: `${otherUrl}/landed?key=leaked` }).end();
    if (path === '/loop') return void res.writeHead(307, { location: '/loop' }).end();
    if (path === '/see-other') return void res.writeHead(303, { location: '/done' }).end();
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 11; i++) res.write(chunk);
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"at":"api"}');
  });
});

afterAll(async () => {
  await new Promise((r) => api.close(r));
  await new Promise((r) => other.close(r));
});

const keyed = () =>
  resolveApi(
    'a',
    { baseUrl: { env: 'A' }, auth: { type: 'apiKey', in: 'query', name: 'key', env: 'K' } },
    {
      A: apiUrl,
      K: 'secret',
    },
  );
const request = (path: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => ({
  method,
  path,
  query: [] as [string, string][],
  headers: {},
  body,
});
const signal = () => new AbortController().signal;

describe('send', () => {
  it('an API key in the query reaches the API, and is taken off a redirect to another origin', async () => {
    seen.length = 0;
    const res = await send(keyed(), request('/away'), 5000, signal());
    expect(res.data).toEqual({ at: 'other' });
    expect(seen[0]).toMatchObject({ origin: 'api', url: '/away?key=secret' });
    expect(seen[1]).toMatchObject({ origin: 'other', url: '/landed' });
  });

  it(`stops after ${MAX_REDIRECTS} redirects`, async () => {
    await expect(send(keyed(), request('/loop'), 5000, signal())).rejects.toThrow(
      `a: more than ${MAX_REDIRECTS} redirects`,
    );
  });

  it('a 303 continues as a GET without the body', async () => {
    seen.length = 0;
    await send(keyed(), request('/see-other', 'POST', { a: 1 }), 5000, signal());
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ['POST', '{"a":1}'],
      ['GET', ''],
    ]);
  });

  it(`a body over ${MAX_RESPONSE_BYTES} bytes fails the call`, async () => {
    await expect(send(keyed(), request('/huge'), 10_000, signal())).rejects.toThrow('byte limit');
  });
});
