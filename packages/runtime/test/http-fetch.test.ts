/**
 * Sending to an API, against real node:http servers on 127.0.0.1: credentials (the API's, and the
 * caller's own) go to the API's origin only, on every hop there and on no hop elsewhere; a path
 * cannot lead to another origin; headers are one per name whatever their case; a query is kept as
 * written; a redirect loop stops after MAX_REDIRECTS; a 303 continues as a GET without the body; a
 * body over MAX_RESPONSE_BYTES fails the call; a time limit past a timer's range is none.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveApi } from '../src/http-backend.js';
import { MAX_REDIRECTS, MAX_RESPONSE_BYTES, send } from '../src/http-fetch.js';

const seen: { origin: string; method: string; url: string; body: string; headers: IncomingMessage['headers'] }[] = [];
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
    seen.push({ origin: 'other', method: req.method!, url: req.url!, body, headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"at":"other"}');
  });
  [api, apiUrl] = await serve((req, res, body) => {
    seen.push({ origin: 'api', method: req.method!, url: req.url!, body, headers: req.headers });
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/away') return void res.writeHead(302, { location: `${otherUrl}/landed?key=leaked` }).end();
    if (path === '/loop') return void res.writeHead(307, { location: '/loop' }).end();
    if (path === '/see-other') return void res.writeHead(303, { location: '/done' }).end();
    if (path === '/away-bare') return void res.writeHead(302, { location: `${otherUrl}/landed` }).end();
    if (path === '/moved') return void res.writeHead(301, { location: '/v2/items' }).end();
    if (path === '/slow') return void setTimeout(() => res.writeHead(200).end(), 50);
    if (path === '/json-string') return void res.writeHead(200, { 'content-type': 'application/json' }).end('"hi"');
    if (path === '/not-json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('hi');
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
const bearer = () =>
  resolveApi('b', { baseUrl: { env: 'A' }, auth: { type: 'bearer', env: 'T' } }, { A: apiUrl, T: 't' });
const request = (path: string, method: 'GET' | 'POST' = 'GET', body?: unknown, headers = {}) => ({
  method,
  path,
  query: [] as [string, string][],
  headers,
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

  it("the caller's credentials stay with the API's origin too", async () => {
    seen.length = 0;
    await send(
      keyed(),
      request('/away-bare', 'GET', undefined, { Authorization: 'Bearer mine', Cookie: 'sid=1' }),
      5000,
      signal(),
    );
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer mine', cookie: 'sid=1' });
    expect(seen[1]!.origin).toBe('other');
    expect([seen[1]!.headers.authorization, seen[1]!.headers.cookie]).toEqual([undefined, undefined]);
  });

  it('a key in the query goes again on each hop within the origin', async () => {
    seen.length = 0;
    await send(keyed(), request('/moved'), 5000, signal());
    expect(seen.map((s) => s.url)).toEqual(['/moved?key=secret', '/v2/items?key=secret']);
  });

  it('a path that leads to another origin is refused, credentials unsent', async () => {
    const base = new URL(apiUrl);
    const api = resolveApi(
      'a',
      { baseUrl: { env: 'A' }, auth: { type: 'apiKey', in: 'query', name: 'key', env: 'K' } },
      { A: `http://${base.hostname}:${base.port.slice(0, -1)}`, K: 'secret' },
    );
    seen.length = 0;
    await expect(send(api, request(`${base.port.slice(-1)}/leak`), 5000, signal())).rejects.toThrow(
      `a: the path "${base.port.slice(-1)}/leak" leads out of http://${base.hostname}:${base.port.slice(0, -1)}`,
    );
    expect(seen).toEqual([]);
  });

  it('headers are one per name whatever their case: the caller sets Content-Type, the auth Authorization', async () => {
    seen.length = 0;
    const headers = { 'Content-Type': 'application/merge-patch+json', Authorization: 'Bearer other' };
    await send(bearer(), request('/echo', 'POST', { a: 1 }, headers), 5000, signal());
    expect(seen[0]!.headers['content-type']).toBe('application/merge-patch+json');
    expect(seen[0]!.headers.authorization).toBe('Bearer t');
  });

  it('a query written in the path is sent as written, the parameters after it', async () => {
    seen.length = 0;
    await send(
      keyed(),
      {
        ...request('/q?filter=a%20b&flag&ids=1,2'),
        query: [
          ['page', '2'],
          ['q', 'x y&z'],
        ],
      },
      5000,
      signal(),
    );
    expect(seen[0]!.url).toBe('/q?filter=a%20b&flag&ids=1,2&page=2&q=x%20y%26z&key=secret');
  });

  it('a time limit past what a timer holds is none; one that is not a positive number is refused', async () => {
    for (const limit of [Number.POSITIVE_INFINITY, 3_000_000_000])
      expect((await send(keyed(), request('/slow'), limit, signal())).status).toBe(200);
    for (const limit of [0, -1, Number.NaN])
      await expect(send(keyed(), request('/slow'), limit, signal())).rejects.toThrow(
        `a: GET /slow: the time limit must be a positive number of ms, not ${limit}`,
      );
  });

  it('tells a JSON string from a JSON body that is not JSON', async () => {
    expect(await send(keyed(), request('/json-string'), 5000, signal())).toMatchObject({ data: 'hi', json: true });
    expect(await send(keyed(), request('/not-json'), 5000, signal())).toMatchObject({ data: 'hi', json: false });
  });
});
