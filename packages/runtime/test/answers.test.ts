/**
 * Errors as each revision specifies them, on the raw wire of a 2025 connection: a malformed request
 * is -32602 naming the parameter (not -32603 with a zod dump), a result the protocol refuses is
 * -32603 and named in the server's log, invalid tool arguments are -32602 before 2025-11-25 and a
 * tool result from then on, and a 2025-06-18 client's elicitation/create carries no `mode`.
 */
import { fromJsonSchema, InMemoryTransport, type JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { speakEra } from '../src/era.js';
import { installInput } from '../src/input.js';
import { inputRequired, lazy } from '../src/runtime.js';
import { installHandlers } from '../src/sdk-handlers.js';
import { contentTool } from '../src/tools.js';
import type { ToolContent, ToolHandler } from '../src/handlers.js';

const input = fromJsonSchema<{ city: string }>({
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
});
const module = <I>(handler: ToolHandler<I, ToolContent>) => lazy(async () => ({ handler }));

function build(): McpServer {
  const server = new McpServer({ name: 'answers', version: '1.0.0' }, {});
  installInput(server, 'legacy');
  speakEra(server, 'legacy');
  installHandlers(server, { tools: {}, resources: {}, prompts: {} });
  contentTool(
    server,
    'weather',
    undefined,
    input,
    module<{ city: string }>(({ city }) => `sunny in ${city}`),
  );
  // Image data that is not base64: the SDK's result check refuses it.
  contentTool(
    server,
    'broken_image',
    undefined,
    undefined,
    module(() => [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }]),
  );
  contentTool(
    server,
    'ask',
    undefined,
    undefined,
    module((_input, ctx) => {
      const answer = ctx.accepted<{ ok: boolean }>('confirm');
      if (answer) return `ok: ${answer.ok}`;
      return ctx.ask({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Sure?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
      });
    }),
  );
  server.registerResource('r', 'answers://r', {}, () => ({ contents: [{ uri: 'answers://r', text: 'r' }] }));
  return server;
}

/** A 2025 connection of `version` on the raw wire: requests out, answers (and the server's requests) in. */
async function connect(version: string, capabilities: object = {}) {
  const server = build();
  const [client, side] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  const waiting = new Map<number | string, (m: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    received.push(message);
    const m = message as { id?: number | string; method?: string };
    if (m.method === 'elicitation/create') {
      void client.send({
        jsonrpc: '2.0',
        id: m.id!,
        result: { action: 'accept', content: { ok: true } },
      } as JSONRPCMessage);
    } else if (m.id !== undefined) waiting.get(m.id)?.(message);
  };
  await server.connect(side);
  await client.start();
  let next = 0;
  const request = (method: string, params: object = {}) =>
    new Promise<JSONRPCMessage>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  await request('initialize', { protocolVersion: version, capabilities, clientInfo: { name: 'raw', version: '0' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  return { request, received, close: () => server.close() };
}

const errorOf = (m: JSONRPCMessage) => (m as { error?: { code: number; message: string } }).error;

describe('answers per revision', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a malformed request is -32602 naming the parameter, not -32603 with a zod dump', async () => {
    const c = await connect('2025-11-25');
    expect(errorOf(await c.request('resources/read', {}))).toEqual({
      code: -32602,
      message: 'Invalid params for resources/read: uri: expected string, received undefined',
    });
    expect(errorOf(await c.request('tools/call', { name: 5 }))).toMatchObject({ code: -32602 });
    await c.close();
  });

  it('a result the protocol refuses is -32603, and the server log names the tool', async () => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const c = await connect('2025-11-25');
    const error = errorOf(await c.request('tools/call', { name: 'broken_image', arguments: {} }));
    expect(error).toEqual({
      code: -32603,
      message: "Internal error: the server's answer to tools/call breaks the protocol",
    });
    const lines = logged.mock.calls.flatMap(([text]) => String(text).split('\n').filter(Boolean));
    logged.mockRestore();
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: expect.stringMatching(
          /^tools\/call "broken_image": the handler's result breaks the protocol: Invalid tools\/call result: /,
        ),
      }),
    );
    await c.close();
  });

  it('invalid tool arguments: -32602 up to 2025-06-18, an isError result from 2025-11-25 on', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18']) {
      const c = await connect(version);
      const error = errorOf(await c.request('tools/call', { name: 'weather', arguments: { city: 5 } }));
      expect(error, version).toEqual({
        code: -32602,
        message: 'Invalid arguments for tool weather: data/city must be string',
      });
      await c.close();
    }
    const c = await connect('2025-11-25');
    const answer = (await c.request('tools/call', { name: 'weather', arguments: { city: 5 } })) as {
      result?: { isError?: boolean };
    };
    expect(answer.result?.isError).toBe(true);
    expect(errorOf(await c.request('tools/call', { name: 'weather', arguments: { city: 'Oslo' } }))).toBeUndefined();
    await c.close();
  });

  it('elicitation/create to a 2025-06-18 client carries no `mode` (a 2025-11-25 field); to 2025-11-25 it does', async () => {
    for (const [version, mode] of [
      ['2025-06-18', undefined],
      ['2025-11-25', 'form'],
    ] as const) {
      const c = await connect(version, { elicitation: {} });
      expect(await c.request('tools/call', { name: 'ask', arguments: {} })).toMatchObject({
        result: { content: [{ text: 'ok: true' }] },
      });
      const asked = c.received.find((m) => (m as { method?: string }).method === 'elicitation/create') as {
        params: Record<string, unknown>;
      };
      expect(asked.params.mode, version).toBe(mode);
      expect(asked.params.message).toBe('Sure?');
      await c.close();
    }
  });
});

describe('annotations written inside an embedded resource (the 2025-06-18 examples)', () => {
  it('reach the client on the content block, in tool and prompt results, merged with the block’s own', async () => {
    const { Client } = await import('@modelcontextprotocol/client');
    const { getPrompt } = await import('../src/prompts.js');
    const server = build();
    const embedded = {
      type: 'resource' as const,
      resource: { uri: 'answers://doc', text: 'doc', annotations: { audience: ['user'], priority: 0.3 } },
      annotations: { priority: 0.9 },
    };
    contentTool(
      server,
      'embeds',
      undefined,
      undefined,
      module(() => [embedded as never]),
    );
    const promptModule = lazy(async () => ({ get: () => [{ role: 'user' as const, content: embedded as never }] }));
    server.registerPrompt('embeds', {}, (args, sdk) => getPrompt(promptModule, args, sdk, server) as never);
    const client = new Client({ name: 'annotations', version: '0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const expected = {
      type: 'resource',
      resource: { uri: 'answers://doc', text: 'doc' },
      annotations: { audience: ['user'], priority: 0.9 },
    };
    expect((await client.callTool({ name: 'embeds', arguments: {} })).content).toEqual([expected]);
    expect((await client.getPrompt({ name: 'embeds' })).messages[0]!.content).toEqual(expected);
    await client.close();
    await server.close();
  });
});
