/**
 * From a real API to a server with no code written: a Fastify app on 127.0.0.1 (CRUD over a Map,
 * a bearer token, a slow endpoint) describes itself with @fastify/swagger; `mcpgen import openapi`
 * turns that document into a manifest, which is generated, built with tsc and served over
 * Streamable HTTP; a real MCP client calls every operation, then the API's errors, a wrong token
 * and a time limit come back as error results.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli/main.js';
import { inventoryApi, TOKEN } from './helpers/inventory-api.mjs';
import { builtProject, memoryIO, scratch, startHttpServer } from './helpers/project.js';

let app: FastifyInstance;
let apiUrl: string;
let dir: string;
let mcp: Awaited<ReturnType<typeof startHttpServer>>;
let client: Client;
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML and JSON results, read field by field in assertions
let imported: Record<string, any>;

beforeAll(async () => {
  app = await inventoryApi();
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The API's own description of itself, as its users would download it.
  const work = scratch('openapi-fastify-import');
  writeFileSync(path.join(work, 'openapi.yaml'), app.swagger({ yaml: true }));
  const io = memoryIO(work);
  expect(await runCli(['import', 'openapi', 'openapi.yaml'], io), io.err).toBe(0);
  let manifest = readFileSync(path.join(work, 'mcpgen.yaml'), 'utf8');
  imported = parse(manifest);
  // Curation in the manifest: a time limit for the whole API (the slow report runs past it).
  manifest = manifest.replace(
    '    auth: { type: bearer, env: INVENTORY_TOKEN }\n',
    '    auth: { type: bearer, env: INVENTORY_TOKEN }\n    timeoutMs: 1000\n',
  );
  dir = await builtProject('openapi-fastify', manifest);
  mcp = await startHttpServer(dir, { INVENTORY_URL: apiUrl, INVENTORY_TOKEN: TOKEN });
  client = new Client({ name: 'openapi-fastify-e2e', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcp.url));
}, 240_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await mcp?.stop();
  await app?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML and JSON results, read field by field in assertions
type Result = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: any };
const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }, { timeout: 20_000 }) as Promise<Result>;
const text = (r: Result) => r.content.map((c) => c.text ?? '').join('');

describe('a Fastify API imported and called through a real MCP client', () => {
  it('imports one tool per operation, with the api from the security scheme', () => {
    expect(Object.keys(imported.tools).sort()).toEqual([
      'build_report',
      'create_item',
      'delete_item',
      'get_item',
      'list_items',
      'replace_item',
    ]);
    expect(imported.apis.inventory).toEqual({
      baseUrl: { env: 'INVENTORY_URL' },
      auth: { type: 'bearer', env: 'INVENTORY_TOKEN' },
    });
    expect(imported.tools.create_item.input.properties.id).toBeUndefined();
  });

  it('lists the tools with their schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(6);
    expect(tools.find((t) => t.name === 'get_item')!.outputSchema).toMatchObject({ type: 'object' });
    expect(tools.find((t) => t.name === 'get_item')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('create, get, list, replace, delete: every operation', async () => {
    const created = await call(client, 'create_item', { name: 'Hammer', price: 12.5, tags: ['tools'] });
    expect(created.isError, text(created)).toBeFalsy();
    expect(created.structuredContent).toEqual({ id: 1, name: 'Hammer', price: 12.5, tags: ['tools'] });
    await call(client, 'create_item', { name: 'Apple', price: 0.5, tags: ['food'] });

    const got = await call(client, 'get_item', { id: 1 });
    expect(got.structuredContent).toEqual({ id: 1, name: 'Hammer', price: 12.5, tags: ['tools'] });

    const listed = await call(client, 'list_items', { tag: 'food' });
    expect(listed.structuredContent).toEqual({
      items: [{ id: 2, name: 'Apple', price: 0.5, tags: ['food'] }],
      total: 1,
    });

    const replaced = await call(client, 'replace_item', { id: 1, name: 'Sledgehammer', price: 40 });
    expect(replaced.structuredContent).toEqual({ id: 1, name: 'Sledgehammer', price: 40 });

    const deleted = await call(client, 'delete_item', { id: 2 });
    expect(deleted.isError, text(deleted)).toBeFalsy();
    expect((await call(client, 'list_items')).structuredContent).toMatchObject({ total: 1 });
  });

  it("the API's errors come back as error results with the status and its message", async () => {
    const r = await call(client, 'get_item', { id: 99 });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('404');
    expect(text(r)).toContain('no item 99');
    const invalid = await call(client, 'create_item', { name: 'Nothing' });
    expect(invalid.isError).toBe(true);
  });

  it('a call past the time limit is an error result naming it', async () => {
    const started = Date.now();
    const r = await call(client, 'build_report');
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/time|1000 ?ms/i);
    expect(Date.now() - started).toBeLessThan(2900);
  });

  it('a wrong token: the API refuses, the tool says so', async () => {
    const wrong = await startHttpServer(dir, { INVENTORY_URL: apiUrl, INVENTORY_TOKEN: 'not-the-token' });
    const other = new Client({ name: 'openapi-fastify-e2e-wrong', version: '0.0.0' });
    try {
      await other.connect(new StreamableHTTPClientTransport(wrong.url));
      const r = await call(other, 'get_item', { id: 1 });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain('401');
      expect(text(r)).toContain('wrong or missing token');
    } finally {
      await other.close().catch(() => {});
      await wrong.stop();
    }
  });
});
