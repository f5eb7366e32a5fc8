/**
 * resources/list through a real client: a template's listed resources keep what they set and take
 * the rest from the template, all but its title.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';

import type { TemplateLister } from '../src/handlers.js';
import type { ServerApp } from '../src/app.js';
import { type HttpConfig, type HttpServerHandle, startHttp } from '../src/http.js';
import { listResources } from '../src/resources.js';
import { lazy } from '../src/runtime.js';

const lister: TemplateLister = () => [
  { uri: 'weather://forecast/paris', name: 'paris' },
  { uri: 'weather://forecast/london', name: 'london', title: 'London' },
  { uri: 'weather://forecast/tokyo', name: 'tokyo', description: 'Tokyo, daily', mimeType: 'text/plain' },
];
const forecasts = lazy(async () => ({ list: lister }));

function createServer(): McpServer {
  const server = new McpServer({ name: 'listing', version: '1.0.0' });
  server.registerResource(
    'forecast',
    new ResourceTemplate('weather://forecast/{city}', { list: (ctx) => listResources(forecasts, ctx, server) }),
    { title: 'Forecast', description: 'Forecast for a city', mimeType: 'application/json' },
    (uri) => ({ contents: [{ uri: uri.href, text: '{}' }] }),
  );
  return server;
}

const expected = [
  {
    uri: 'weather://forecast/paris',
    name: 'paris',
    description: 'Forecast for a city',
    mimeType: 'application/json',
  },
  {
    uri: 'weather://forecast/london',
    name: 'london',
    title: 'London',
    description: 'Forecast for a city',
    mimeType: 'application/json',
  },
  { uri: 'weather://forecast/tokyo', name: 'tokyo', description: 'Tokyo, daily', mimeType: 'text/plain' },
];

describe('a template’s listed resources', () => {
  let http: HttpServerHandle | undefined;
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
    await http?.close();
  });

  it('in memory: each keeps its own name and title, the template fills in the rest', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    clients.push(client);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createServer().connect(serverSide);
    await client.connect(clientSide);
    const { resources } = await client.listResources();
    expect(resources).toEqual(expected);
    // Not merely undefined: no title key at all reaches a client over the wire (below) either.
    expect(resources.filter((r) => r.title === 'Forecast')).toEqual([]);
  });

  it('over Streamable HTTP: no listed resource carries the template’s title on the wire', async () => {
    const app: ServerApp = { info: { name: 'listing', version: '1.0.0' }, createServer, subscribable: new Set() };
    const config: HttpConfig = {
      host: '127.0.0.1',
      port: 0,
      path: '/mcp',
      allowedHosts: [],
      allowedOrigins: [],
      maxBodyBytes: 1 << 20,
    };
    http = await startHttp(app, config);
    const client = new Client({ name: 'test', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const { resources } = await client.listResources();
    expect(resources).toEqual(expected);
    expect(resources.map((r) => Object.hasOwn(r, 'title'))).toEqual([false, true, false]);
  });
});
