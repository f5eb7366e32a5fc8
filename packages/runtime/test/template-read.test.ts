/**
 * resources/read of a template through a real client: an exploded variable (`{v*}`) reaches the
 * handler in the shape its schema declares, whether the URI carries one item or several.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';

import { readTemplate } from '../src/resources.js';
import { lazy } from '../src/runtime.js';
import { compiledOnFirstUse } from '../src/schemas.js';

const echo = lazy(async () => ({ read: (params: unknown) => JSON.stringify(params) }));
const templates = {
  files: { uri: 'files://{path*}', path: { type: 'array', items: { type: 'string' } } },
  search: { uri: 'docs://search{?tags*}', tags: { type: 'array', items: { type: 'string' } } },
  raw: { uri: 'raw://names/{names*}', names: { type: 'string' } },
};

function createServer(): McpServer {
  const server = new McpServer({ name: 'lists', version: '1.0.0' });
  for (const [name, { uri, ...properties }] of Object.entries(templates)) {
    const params = compiledOnFirstUse({
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    server.registerResource(name, new ResourceTemplate(uri, { list: undefined }), {}, (u, variables, ctx) =>
      readTemplate(echo, u, variables, ctx, params, 'text/plain', server),
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
  ])('%s', async (uri, params) => {
    if (!client.transport) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createServer().connect(serverSide);
      await client.connect(clientSide);
    }
    const read = await client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: JSON.stringify(params) }]);
  });
});
