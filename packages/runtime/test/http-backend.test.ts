/**
 * HTTP-backed tools, the parts without a network: where arguments go (path, query, headers,
 * body), what the environment must hold, and how an answer becomes a tools/call result. The
 * calls themselves, redirects and time limits run against real servers in
 * test/http-backend-e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { resolveApi } from '../src/http-backend.js';
import type { HttpResponse } from '../src/http-call.js';
import { type HttpBinding, requestOf, requestOfCall } from '../src/http-request.js';
import { httpResult } from '../src/http-result.js';

const get: HttpBinding = { api: 'a', method: 'GET', path: '/pets/{petId}', query: ['verbose'], rest: 'query' };

describe('requestOf', () => {
  it('places path, query and header properties; the rest in the query for GET; absent ones left out', () => {
    const req = requestOf(
      { ...get, headers: { 'X-Id': 'requestId' } },
      { petId: 7, verbose: false, requestId: 'r1', tags: ['a', 'b'], none: undefined, nil: null },
    );
    expect(req).toEqual({
      method: 'GET',
      path: '/pets/7',
      query: [
        ['verbose', 'false'],
        ['tags', 'a'],
        ['tags', 'b'],
      ],
      headers: { 'X-Id': 'r1' },
      body: undefined,
    });
  });

  it('POST without body: the rest is the JSON body object; with body: that property is the body', () => {
    const post: HttpBinding = { api: 'a', method: 'POST', path: '/pets', rest: 'body' };
    expect(requestOf(post, { name: 'Tom', tag: undefined }).body).toEqual({ name: 'Tom' });
    expect(requestOf(post, {}).body).toBeUndefined();
    const one: HttpBinding = { ...post, body: 'pet', rest: 'query' };
    expect(requestOf(one, { pet: [1, 2], dryRun: true })).toMatchObject({ body: [1, 2], query: [['dryRun', 'true']] });
    const list: HttpBinding = { ...post, body: ['name', 'tag'], rest: 'query' };
    expect(requestOf(list, { name: 'Tom' }).body).toEqual({ name: 'Tom' });
  });

  it('percent-encodes path values: no `/`, `?`, `#`; a `.` or `..` segment is refused', () => {
    const file: HttpBinding = { api: 'a', method: 'GET', path: '/files/{name}', rest: 'query' };
    expect(requestOf(file, { name: '../etc/passwd?x#y' }).path).toBe('/files/..%2Fetc%2Fpasswd%3Fx%23y');
    expect(() => requestOf(file, { name: '..' })).toThrow('may not be ".."');
    expect(() => requestOf(file, { name: '.' })).toThrow('may not be "."');
    expect(() => requestOf(file, {})).toThrow('path parameter name is missing');
    expect(requestOf(file, { name: '...' }).path).toBe('/files/...');
  });

  it('a call with a path keeps it as written', () => {
    expect(requestOfCall({ path: '/x/y', query: { a: [1, 2], b: undefined }, body: { z: 1 } })).toEqual({
      method: 'GET',
      path: '/x/y',
      query: [
        ['a', '1'],
        ['a', '2'],
      ],
      headers: {},
      body: { z: 1 },
    });
  });
});

describe('resolveApi', () => {
  const config = { baseUrl: { env: 'PETS_URL', default: 'https://pets.example.com/v1/' } };

  it('reads the base URL from the environment, else its default', () => {
    expect(resolveApi('pets', config, {}).baseUrl).toBe('https://pets.example.com/v1');
    const api = resolveApi('pets', config, { PETS_URL: 'http://127.0.0.1:8080' });
    expect(api).toMatchObject({ baseUrl: 'http://127.0.0.1:8080', origin: 'http://127.0.0.1:8080', timeoutMs: 30000 });
  });

  it('names the variable that is missing or wrong', () => {
    expect(() => resolveApi('pets', { baseUrl: { env: 'PETS_URL' } }, {})).toThrow(
      "apis.pets: set the environment variable PETS_URL (the API's base URL)",
    );
    expect(() => resolveApi('pets', config, { PETS_URL: 'file:///etc' })).toThrow('must be http or https');
    expect(() => resolveApi('pets', { ...config, auth: { type: 'bearer', env: 'PETS_TOKEN' } }, {})).toThrow(
      'PETS_TOKEN',
    );
    // A credential no header can carry: named, never quoted.
    const broken = () =>
      resolveApi('pets', { ...config, auth: { type: 'bearer', env: 'PETS_TOKEN' } }, { PETS_TOKEN: 'sk-1\nX' });
    expect(broken).toThrow(
      'apis.pets: the environment variable PETS_TOKEN (its bearer token) holds a line break or NUL',
    );
    expect(broken).not.toThrow('sk-1');
  });

  it('turns each auth type into credentials', () => {
    const bearer = resolveApi('p', { ...config, auth: { type: 'bearer', env: 'T' } }, { T: 'tok' });
    expect(bearer.authHeaders).toEqual({ authorization: 'Bearer tok' });
    const header = resolveApi(
      'p',
      { ...config, auth: { type: 'apiKey', in: 'header', name: 'X-Key', env: 'K' } },
      { K: 'k' },
    );
    expect(header.authHeaders).toEqual({ 'x-key': 'k' });
    const query = resolveApi(
      'p',
      { ...config, auth: { type: 'apiKey', in: 'query', name: 'key', env: 'K' } },
      { K: 'k' },
    );
    expect(query.authQuery).toEqual([['key', 'k']]);
    const basic = resolveApi(
      'p',
      { ...config, auth: { type: 'basic', usernameEnv: 'U', passwordEnv: 'P' } },
      { U: 'u', P: 'p' },
    );
    expect(basic.authHeaders).toEqual({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
  });
});

describe('httpResult', () => {
  const res = (over: Partial<HttpResponse>): HttpResponse => ({
    ok: true,
    status: 200,
    statusText: 'OK',
    url: 'http://x/',
    headers: new Headers(),
    contentType: 'application/json',
    data: null,
    json: over.data !== undefined && over.contentType === undefined,
    size: 0,
    ...over,
  });

  it('JSON objects as structuredContent and text; arrays wrapped only for a tool with output', () => {
    expect(httpResult(res({ data: { a: 1 } }), false)).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    expect(httpResult(res({ data: [1] }), false)).toEqual({ content: [{ type: 'text', text: '[1]' }] });
    expect(httpResult(res({ data: [1] }), true).structuredContent).toEqual({ result: [1] });
  });

  it('HTTP errors with the API message, from message, error, detail, title or the text, truncated', () => {
    const message = (data: unknown, contentType = 'application/json') =>
      httpResult(res({ ok: false, status: 400, statusText: 'Bad Request', data, contentType }), false);
    expect(message({ message: 'no' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'HTTP 400 Bad Request: no' }],
    });
    expect(message({ error: { message: 'nested' } }).content[0]).toMatchObject({
      text: 'HTTP 400 Bad Request: nested',
    });
    expect(message({ detail: 'd', title: 't' }).content[0]).toMatchObject({ text: 'HTTP 400 Bad Request: d' });
    expect(message('plain words', 'text/plain').content[0]).toMatchObject({
      text: 'HTTP 400 Bad Request: plain words',
    });
    const long = message('x'.repeat(5000), 'text/plain').content[0] as { text: string };
    expect(long.text.length).toBeLessThan(1100);
    // An empty message gives way to the next field; a cut never splits a character.
    expect(message({ message: '', error: 'bad' }).content[0]).toMatchObject({ text: 'HTTP 400 Bad Request: bad' });
    const emoji = message(`${'x'.repeat(999)}😀tail`, 'text/plain').content[0] as { text: string };
    expect(emoji.text).toBe(`HTTP 400 Bad Request: ${'x'.repeat(999)}…`);
  });

  it('a JSON string answer is JSON; a JSON body that is not JSON is not', () => {
    expect(httpResult(res({ data: 'hello', json: true }), true)).toEqual({
      content: [{ type: 'text', text: '"hello"' }],
      structuredContent: { result: 'hello' },
    });
    expect(httpResult(res({ data: 'hello', json: false }), true).isError).toBe(true);
  });

  it('a tool with output refuses what is not JSON; bytes are an image or a note', () => {
    expect(httpResult(res({ contentType: 'text/html', data: '<p>' }), true).isError).toBe(true);
    const png = httpResult(res({ contentType: 'image/png', data: new Uint8Array([1, 2]), size: 2 }), false);
    expect(png.content[0]).toEqual({ type: 'image', data: 'AQI=', mimeType: 'image/png' });
    const zip = httpResult(res({ contentType: 'application/zip', data: new Uint8Array(3), size: 3 }), false);
    expect(zip.content[0]).toMatchObject({
      text: 'the API answered with application/zip (3 bytes), which is not shown',
    });
  });
});
