/**
 * resources/read of a template through a real client: an exploded variable (`{v*}`) reaches the
 * handler in the shape its schema declares, whether the URI carries one item or several, with every
 * RFC 6570 operator; query variables may come in any order or not at all.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';

import { readTemplate, uriTemplate } from '../src/resources.js';
import { lazy } from '../src/runtime.js';
import { compiledOnFirstUse } from '../src/schemas.js';

const echo = lazy(async () => ({ read: (params: unknown) => JSON.stringify(params) }));
const templates = {
  files: { uri: 'files://{path*}', path: { type: 'array', items: { type: 'string' } } },
  search: { uri: 'docs://search{?tags*}', tags: { type: 'array', items: { type: 'string' } } },
  raw: { uri: 'raw://names/{names*}', names: { type: 'string' } },
  segments: { uri: 'tree://root{/parts*}', parts: { type: 'array', items: { type: 'string' } } },
  matrix: { uri: 'm://grid{;x,y}', x: { type: 'string' }, y: { type: 'string' } },
  anchor: { uri: 'page://doc{#section}', section: { type: 'string' } },
  labels: { uri: 'l://set{.label*}', label: { type: 'array', items: { type: 'string' } } },
  query: {
    uri: 'q://items/{id}{?fields,limit}',
    id: { type: 'string' },
    fields: { type: 'string' },
    limit: { type: 'string' },
  },
  repeated: { uri: 'r://tagged{?tag*}', tag: { type: 'array', items: { type: 'string' } } },
  spans: { uri: 'd://{+a}/{+b}/{+c}/x', a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
  dotted: { uri: 'v://release{.major,minor}', major: { type: 'string' }, minor: { type: 'string' } },
  reserved: { uri: 'p://{+dir,file}', dir: { type: 'string' }, file: { type: 'string' } },
  fragments: { uri: 'f://doc{#part,line}', part: { type: 'string' }, line: { type: 'string' } },
  accented: { uri: 'i://café/{id}{?q}', id: { type: 'string' }, q: { type: 'string' } },
  capital: { uri: 'Notes://{id}', id: { type: 'string' } },
};
/** Query variables may be left out (RFC 6570 leaves out an undefined one). */
const optional = new Set(['fields', 'limit', 'tag', 'tags', 'q']);

function createServer(): McpServer {
  const server = new McpServer({ name: 'lists', version: '1.0.0' });
  for (const [name, { uri, ...properties }] of Object.entries(templates)) {
    const params = compiledOnFirstUse({
      type: 'object',
      properties,
      required: Object.keys(properties).filter((p) => !optional.has(p)),
      additionalProperties: false,
    });
    server.registerResource(
      name,
      new ResourceTemplate(uriTemplate(uri), { list: undefined }),
      {},
      (u, variables, ctx) => readTemplate(echo, u, variables, ctx, params, 'text/plain', server),
    );
  }
  return server;
}

describe('a list variable read through a template', () => {
  const client = new Client({ name: 'test', version: '1.0.0' });
  afterAll(() => client.close());

  it.each([
    ['files://a', { path: ['a'] }],
    ['files://a,b%2Cc', { path: ['a', 'b,c'] }],
    ['docs://search?tags=draft', { tags: ['draft'] }],
    ['docs://search?tags=draft,final', { tags: ['draft', 'final'] }],
    ['raw://names/ann,bob', { names: 'ann,bob' }],
    ['raw://names/ann', { names: 'ann' }],
    ['tree://root/a/b%2Fc/d', { parts: ['a', 'b/c', 'd'] }],
    ['tree://root/a', { parts: ['a'] }],
    ['m://grid;x=1;y=2', { x: '1', y: '2' }],
    ['m://grid;x;y=2', { x: '', y: '2' }],
    ['page://doc#intro', { section: 'intro' }],
    ['l://set.red.green', { label: ['red', 'green'] }],
    ['q://items/7', { id: '7' }],
    ['q://items/7?limit=5', { id: '7', limit: '5' }],
    ['q://items/7?limit=5&fields=name&utm=x', { id: '7', fields: 'name', limit: '5' }],
    ['r://tagged?tag=a&tag=b%20c', { tag: ['a', 'b c'] }],
    ['d://p/q/r/s/x', { a: 'p/q', b: 'r', c: 's' }],
    ['v://release.2.7', { major: '2', minor: '7' }],
    ['p://src/lib,main.ts', { dir: 'src/lib', file: 'main.ts' }],
    ['f://doc#intro,12', { part: 'intro', line: '12' }],
    ['i://caf%C3%A9/notes?q=1', { id: 'notes', q: '1' }],
    ['i://caf%c3%a9/notes', { id: 'notes' }],
    ['notes://7', { id: '7' }],
  ])('%s', async (uri, params) => {
    if (!client.transport) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createServer().connect(serverSide);
      await client.connect(clientSide);
    }
    const read = await client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: JSON.stringify(params) }]);
  });

  // The fragment is no part of the query.
  it.each(['q://items/7/8', 'tree://root', 'm://grid;y=2', 'q://items/7?limit=5#top'])(
    '%s: no template matches, not found',
    async (uri) => {
      await expect(client.readResource({ uri })).rejects.toThrow(/not found/i);
    },
  );

  it('a template beyond ASCII reads the URI as written too, which the URL parser percent-encodes', async () => {
    const read = await client.readResource({ uri: 'i://café/notes' });
    expect(read.contents).toEqual([{ uri: 'i://caf%C3%A9/notes', mimeType: 'text/plain', text: '{"id":"notes"}' }]);
  });

  it('a long URI that three reserved expansions could split every way is refused at once, not after minutes', async () => {
    const started = performance.now();
    await expect(client.readResource({ uri: `d://${'a/'.repeat(4000)}y` })).rejects.toThrow(/not found/i);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
