import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { REPO, SCRATCH } from './helpers/project.js';
import {
  buildExampleCopy,
  ensurePackages,
  startBalancer,
  startRedis,
  startReplicas,
  stopAll,
  TEST_REQUEST_STATE_KEY,
  waitFor,
  type Balancer,
  type RedisProcess,
  type Replica,
} from './helpers/services.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const PREFIX = 'mcp:mcpgen-conformance:';
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const ROOT = 'file:///tmp/scale-root';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redis: RedisProcess;
let replicas: Replica[];
let balancer: Balancer;
let mcpUrl: URL;
let keys: Redis;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  ensurePackages(['redis-server', 'haproxy']);
  const project = buildExampleCopy(REPO, 'conformance', path.join(SCRATCH, 'scale-e2e'));
  redis = await startRedis({ appendonly: true });
  replicas = await startReplicas(project, 3, { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY });
  balancer = await startBalancer(replicas.map((r) => r.port));
  mcpUrl = new URL(`${balancer.url}/mcp`);
  keys = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  keys.on('error', () => {}); // while the Redis run stops it
  await keys.connect();
}, 240_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close().catch(() => {})));
  keys?.disconnect();
  await stopAll();
});

// ---- answers a client gives to what the server asks ---------------------------------------------

const NAMED: Record<string, unknown> = {
  name: 'Ada',
  color: 'blue',
  username: 'ann',
  email: 'a@b.c',
  context: 'scale',
  confirm: true,
  ok: true,
};

/** A value each field of a requested form accepts (elicited content is checked against it). */
function answerFor(
  schema: { properties?: Record<string, Record<string, unknown>> } | undefined,
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const [field, prop] of Object.entries(schema?.properties ?? {})) {
    const choices = (p: Record<string, unknown>) =>
      (p.enum as unknown[] | undefined)?.[0] ??
      ((p.oneOf ?? p.anyOf) as Array<{ const: unknown }> | undefined)?.[0]?.const;
    if (field in NAMED) content[field] = NAMED[field];
    else if (prop.type === 'array') content[field] = [choices(prop.items as Record<string, unknown>)];
    else if (prop.type === 'integer' || prop.type === 'number') content[field] = 7;
    else if (prop.type === 'boolean') content[field] = true;
    else content[field] = choices(prop) ?? 'yes';
  }
  return content;
}
const SAMPLED = {
  role: 'assistant' as const,
  model: 'scale-test-model',
  content: { type: 'text' as const, text: 'Paris' },
};

/** What every tool a plain client can call answers, on either era (from the handlers' code). */
const TOOL_CALLS: Array<{
  name: string;
  arguments?: Record<string, unknown>;
  text?: string | RegExp;
  types?: string[];
  isError?: boolean;
}> = [
  { name: 'test_simple_text', text: 'This is a simple text response for testing.' },
  { name: 'test_image_content', types: ['image'] },
  { name: 'test_audio_content', types: ['audio'] },
  { name: 'test_embedded_resource', types: ['resource'] },
  { name: 'test_multiple_content_types', types: ['text', 'image', 'resource'] },
  { name: 'test_error_handling', text: 'This tool intentionally returns an error for testing', isError: true },
  {
    name: 'json_schema_2020_12_tool',
    arguments: { name: 'n', contactMethod: 'email', email: 'a@b.c' },
    text: 'Received: {"name":"n","contactMethod":"email","email":"a@b.c"}',
  },
  { name: 'test_custom_header', arguments: { region: 'eu-west' }, text: 'Region: eu-west' },
  { name: 'test_sampling', arguments: { prompt: 'Capital of France?' }, text: 'LLM response: Paris' },
  {
    name: 'test_elicitation',
    arguments: { message: 'Who are you?' },
    text: 'User response: action=accept, content={"username":"ann","email":"a@b.c"}',
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    text: 'Elicitation completed: action=accept, content={"name":"Ada","age":7,"score":7,"status":"active","verified":true}',
  },
  {
    name: 'test_elicitation_sep1330_enums',
    text: 'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1"],"titledMulti":["value1"]}',
  },
  { name: 'test_missing_capability', text: 'sampling completed' },
  { name: 'test_streaming_elicitation', text: 'Hello, Ada!' },
  { name: 'test_logging_tool', text: 'logged' },
  { name: 'test_input_required_result_elicitation', text: 'Hello, Ada!' },
  { name: 'test_input_required_result_sampling', text: 'The model answered: Paris' },
  { name: 'test_input_required_result_list_roots', text: `Roots: ${ROOT}` },
  { name: 'test_input_required_result_request_state', text: 'state-ok: confirmed=true' },
  { name: 'test_input_required_result_multiple_inputs', text: 'Hello Ada: Paris (1 roots)' },
  { name: 'test_input_required_result_multi_round', text: 'Ada likes blue' },
  { name: 'test_input_required_result_tampered_state', text: 'state-ok' },
  { name: 'test_input_required_result_capabilities', text: 'answered with elicit' },
  { name: 'greet', arguments: { name: 'Ada' }, text: 'Hello, Ada!' },
];

type Content = Array<{ type: string; text?: string }>;
const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as Content).map((b) => b.text ?? '').join('');
const contentText = (result: { contents: unknown[] }) => String((result.contents[0] as { text?: unknown }).text);

function checkToolResult(call: (typeof TOOL_CALLS)[number], result: { content?: unknown; isError?: unknown }) {
  const label = `${call.name}: ${JSON.stringify(result)}`;
  if (call.text instanceof RegExp) expect(textOf(result), label).toMatch(call.text);
  else if (call.text !== undefined) expect(textOf(result), label).toBe(call.text);
  if (call.types)
    expect(
      ((result.content ?? []) as Content).map((b) => b.type),
      label,
    ).toEqual(call.types);
  expect(Boolean(result.isError), label).toBe(Boolean(call.isError));
}

// ---- clients -----------------------------------------------------------------------------------

interface Heard {
  logs: string[];
  updated: string[];
  tools: number;
  prompts: number;
}

/** A 2025 client (SDK v1) through the balancer that answers elicitation, sampling and roots. */
async function legacyClient(): Promise<{ client: LegacyClient; transport: LegacyTransport; heard: Heard }> {
  const client = new LegacyClient(
    { name: 'scale-legacy', version: '0.0.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
  );
  const heard: Heard = { logs: [], updated: [], tools: 0, prompts: 0 };
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: 'accept',
    content: answerFor(
      (request.params as { requestedSchema?: Parameters<typeof answerFor>[0] }).requestedSchema,
    ) as Record<string, string>,
  }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED);
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: ROOT, name: 'root' }] }));
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void heard.logs.push(`${n.params.level}: ${String(n.params.data)}`),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.updated.push(n.params.uri));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.tools++);
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void heard.prompts++);
  const transport = new LegacyTransport(mcpUrl, {
    reconnectionOptions: {
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport, heard };
}

/** A 2026-07-28 client (SDK v2, pinned) through the balancer, answering input_required rounds. */
async function modernClient(): Promise<{ client: ModernClient; heard: Heard }> {
  const client = new ModernClient(
    { name: 'scale-modern', version: '0.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: MODERN } },
    },
  );
  const heard: Heard = { logs: [], updated: [], tools: 0, prompts: 0 };
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept',
    content: answerFor(
      (request.params as { requestedSchema?: Parameters<typeof answerFor>[0] }).requestedSchema,
    ) as Record<string, string>,
  }));
  client.setRequestHandler('sampling/createMessage', async () => SAMPLED);
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: ROOT, name: 'root' }] }));
  client.setNotificationHandler(
    'notifications/message',
    (n) => void heard.logs.push(`${n.params.level}: ${String(n.params.data)}`),
  );
  client.setNotificationHandler('notifications/resources/updated', (n) => void heard.updated.push(n.params.uri));
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard.tools++);
  client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.prompts++);
  await client.connect(new ModernTransport(mcpUrl));
  closers.push(() => client.close());
  return { client, heard };
}

/** haproxy's request counters per replica, to subtract: what a stretch of a test sent where. */
async function counting(): Promise<() => Promise<number[]>> {
  const before = await balancer.stats();
  return async () => (await balancer.stats()).map((s, i) => s.requests - before[i]!.requests);
}

// ---- raw JSON-RPC ------------------------------------------------------------------------------

type Rpc = {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/** The JSON-RPC messages of a body: JSON, or the data lines of an SSE stream. */
function messagesOf(text: string): Rpc[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return [JSON.parse(trimmed)].flat();
  return trimmed
    .split(/\n\n+/)
    .map((event) =>
      event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join(''),
    )
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as Rpc);
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'scale-raw', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {} },
};

/** One 2026-07-28 request, raw, with its `_meta` envelope and headers; its answer (the one with `id`). */
async function modern(
  base: string,
  id: number,
  method: string,
  params: Record<string, unknown> = {},
  timeoutMs = 10_000,
): Promise<{ status: number; answer?: Rpc; text: string }> {
  const target = params.name ?? params.uri;
  const name: Record<string, string> = typeof target === 'string' ? { 'Mcp-Name': target } : {};
  const res = await fetch(new URL('/mcp', base), {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...ENVELOPE, ...((params._meta as object) ?? {}) } },
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let answer: Rpc | undefined;
  try {
    answer = messagesOf(text).find((m) => m.id === id);
  } catch {
    answer = undefined;
  }
  return { status: res.status, answer, text };
}

/** A raw 2025 session through the balancer: initialize, then notifications/initialized. */
async function rawSession(): Promise<{ id: string; headers: Record<string, string> }> {
  const init = await fetch(mcpUrl, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'scale-raw', version: '0' } },
    }),
    signal: AbortSignal.timeout(5_000),
  });
  expect(init.status, await init.clone().text()).toBe(200);
  const id = init.headers.get('mcp-session-id')!;
  await init.text();
  const headers = { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY };
  const initialized = await fetch(mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    signal: AbortSignal.timeout(5_000),
  });
  expect(initialized.status).toBe(202);
  return { id, headers };
}

/** Keys this server keeps in Redis, other than the replicas' heartbeats. */
async function sessionKeys(): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await keys.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found.filter((k) => !k.startsWith(`${PREFIX}replica:`)).sort();
}

async function health(replica: Replica): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${replica.port}/health`, { signal: AbortSignal.timeout(2_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

// ---- scenarios ---------------------------------------------------------------------------------

describe('2025 era (SDK v1 client) through the balancer', () => {
  it('every operation of examples/conformance, one session served by all three replicas', async () => {
    const served = await counting();
    const { client, transport, heard } = await legacyClient();
    expect(transport.sessionId).toBeTruthy();
    expect(client.getServerVersion()?.name).toBe('mcpgen-conformance');

    for (let i = 0; i < 3; i++) {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const call of TOOL_CALLS) expect(tools).toContain(call.name);
    }
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      'test://static-binary',
      'test://static-text',
      'test://watched-resource',
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');

    for (const call of TOOL_CALLS)
      checkToolResult(
        call,
        (await client.callTool({ name: call.name, arguments: call.arguments ?? {} })) as { content?: unknown },
      );

    expect(await client.readResource({ uri: 'test://static-text' })).toMatchObject({
      contents: [{ text: 'This is the content of the static text resource.' }],
    });
    expect((await client.readResource({ uri: 'test://static-binary' })).contents[0]).toMatchObject({
      mimeType: 'image/png',
      blob: expect.any(String),
    });
    expect(await client.readResource({ uri: 'test://watched-resource' })).toMatchObject({
      contents: [{ text: 'Watched resource content' }],
    });
    expect(JSON.parse(contentText(await client.readResource({ uri: 'test://template/42/data' })))).toEqual({
      id: '42',
      templateTest: true,
      data: 'Data for ID: 42',
    });

    expect(JSON.stringify((await client.getPrompt({ name: 'test_simple_prompt' })).messages)).toContain(
      'This is a simple prompt for testing.',
    );
    expect(
      JSON.stringify(
        (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).messages,
      ),
    ).toContain("arg1='a', arg2='b'");
    expect(
      (await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://x' } }))
        .messages[0]!.content,
    ).toMatchObject({ type: 'resource', resource: { uri: 'test://x' } });
    expect((await client.getPrompt({ name: 'test_prompt_with_image' })).messages[0]!.content).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
    });
    expect(JSON.stringify((await client.getPrompt({ name: 'test_input_required_result_prompt' })).messages)).toContain(
      'Use this context: scale',
    );

    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);

    // Progress, three times: whichever replica runs it, the client hears 0, 50, 100.
    for (let i = 0; i < 3; i++) {
      const seen: number[] = [];
      const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
        onprogress: (p) => void seen.push(p.progress),
      });
      expect(textOf(result)).toBe('Tool with progress completed');
      expect(seen).toEqual([0, 50, 100]);
    }

    // Logging: heard at the default level; after logging/setLevel error, nothing from any replica.
    heard.logs.length = 0;
    expect(textOf(await client.callTool({ name: 'test_tool_with_logging', arguments: {} }))).toBe(
      'Tool with logging executed successfully',
    );
    await waitFor('three log messages', () => heard.logs.length >= 3, 3_000);
    expect(heard.logs).toEqual([
      'info: Tool execution started',
      'info: Tool processing data',
      'info: Tool execution completed',
    ]);
    await client.setLoggingLevel('error');
    heard.logs.length = 0;
    for (let i = 0; i < 6; i++) {
      await client.callTool({ name: i % 2 ? 'test_logging_tool' : 'test_tool_with_logging', arguments: {} });
    }
    await sleep(300);
    expect(heard.logs, 'log messages below the level set').toEqual([]);
    // And back: every replica learns the new level too.
    await client.setLoggingLevel('info');
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'test_logging_tool', arguments: {} });
    await waitFor('a log message from each of three calls', () => heard.logs.length >= 3, 3_000);
    expect(heard.logs).toEqual([
      'info: test_logging_tool ran',
      'info: test_logging_tool ran',
      'info: test_logging_tool ran',
    ]);

    // Slow operation, cancelled: the cancellation reaches the replica running it, the session goes on.
    const controller = new AbortController();
    const started = Date.now();
    const slow = client.callTool({ name: 'test_slow_operation', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('stop'), 300);
    await expect(slow).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
      'This is a simple text response for testing.',
    );

    const counts = await served();
    for (const [i, n] of counts.entries())
      expect(n, `requests of the session served by r${i}: ${counts.join(', ')}`).toBeGreaterThan(5);
    await transport.terminateSession();
    await client.close();
  });

  it('notifications from calls on every replica arrive on the GET stream exactly once', async () => {
    const { client, transport, heard } = await legacyClient();
    const sessionKey = `${PREFIX}session:${transport.sessionId}`;
    // The v1 client opens its GET stream after initialize; the record names the replica holding it.
    await waitFor(
      'a replica holding the GET stream',
      async () => Boolean(await keys.hget(sessionKey, 'stream')),
      5_000,
    );
    await client.subscribeResource({ uri: 'test://watched-resource' });
    expect(await keys.smembers(`${sessionKey}:subs`)).toEqual(['test://watched-resource']);
    const served = await counting();
    const N = 6;
    for (let i = 0; i < N; i++) {
      expect(textOf(await client.callTool({ name: 'test_update_watched_resource', arguments: {} }))).toBe(
        'update published',
      );
      expect(textOf(await client.callTool({ name: 'test_trigger_tool_change', arguments: {} }))).toBe(
        'tool list change published',
      );
      expect(textOf(await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} }))).toBe(
        'prompt list change published',
      );
    }
    await waitFor(
      `${N} of each notification`,
      () => heard.updated.length >= N && heard.tools >= N && heard.prompts >= N,
      5_000,
    ).catch(() => {});
    await sleep(500); // duplicates, if any, would come by now
    expect({ updated: heard.updated.length, tools: heard.tools, prompts: heard.prompts }).toEqual({
      updated: N,
      tools: N,
      prompts: N,
    });
    expect(new Set(heard.updated)).toEqual(new Set(['test://watched-resource']));
    expect((await served()).filter((n) => n >= N).length, 'the calls ran on every replica').toBe(3);
    // Unsubscribed: updates stop, list changes go on.
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    await sleep(400);
    expect(heard.updated.length).toBe(N);
    await transport.terminateSession();
    await client.close();
  });
});

describe('2026-07-28 (SDK v2 client, raw JSON-RPC) through the balancer', () => {
  it('every operation of examples/conformance, spread over all three replicas', async () => {
    const served = await counting();
    const { client } = await modernClient();
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const call of TOOL_CALLS) expect(tools).toContain(call.name);
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      'test://static-binary',
      'test://static-text',
      'test://watched-resource',
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
    // input_required rounds are requests of their own: each may land on another replica.
    for (const call of TOOL_CALLS)
      checkToolResult(
        call,
        (await client.callTool({ name: call.name, arguments: call.arguments ?? {} })) as { content?: unknown },
      );
    const seen: number[] = [];
    expect(
      textOf(
        await client.callTool({ name: 'test_tool_with_progress' }, { onprogress: (p) => void seen.push(p.progress) }),
      ),
    ).toBe('Tool with progress completed');
    expect(seen).toEqual([0, 50, 100]);
    expect(textOf(await client.callTool({ name: 'test_tool_with_logging' }))).toBe(
      'Tool with logging executed successfully',
    );
    expect(await client.readResource({ uri: 'test://static-text' })).toMatchObject({
      contents: [{ text: 'This is the content of the static text resource.' }],
    });
    expect(JSON.parse(contentText(await client.readResource({ uri: 'test://template/9/data' })))).toMatchObject({
      id: '9',
    });
    expect(
      JSON.stringify(
        (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } })).messages,
      ),
    ).toContain("arg1='x', arg2='y'");
    expect(JSON.stringify((await client.getPrompt({ name: 'test_input_required_result_prompt' })).messages)).toContain(
      'Use this context: scale',
    );
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
    const controller = new AbortController();
    const slow = client.callTool({ name: 'test_slow_operation' }, { signal: controller.signal });
    setTimeout(() => controller.abort('stop'), 200);
    await expect(slow).rejects.toThrow();
    const counts = await served();
    for (const [i, n] of counts.entries())
      expect(n, `requests served by r${i}: ${counts.join(', ')}`).toBeGreaterThan(5);
    await client.close();
  });

  it('requestState rounds cross replicas; a tampered one is refused with -32602', async () => {
    const served = await counting();
    const base = balancer.url;
    const first = await modern(base, 1, 'tools/call', {
      name: 'test_input_required_result_multi_round',
      arguments: {},
    });
    expect(first.answer?.result, first.text).toMatchObject({
      resultType: 'input_required',
      inputRequests: { step1: { method: 'elicitation/create' } },
    });
    const second = await modern(base, 2, 'tools/call', {
      name: 'test_input_required_result_multi_round',
      arguments: {},
      inputResponses: { step1: { action: 'accept', content: { name: 'Grace' } } },
      requestState: first.answer!.result!.requestState,
    });
    expect(second.answer?.result, second.text).toMatchObject({
      resultType: 'input_required',
      inputRequests: { step2: { method: 'elicitation/create' } },
    });
    const third = await modern(base, 3, 'tools/call', {
      name: 'test_input_required_result_multi_round',
      arguments: {},
      inputResponses: { step2: { action: 'accept', content: { color: 'green' } } },
      requestState: second.answer!.result!.requestState,
    });
    expect(textOf(third.answer!.result!), third.text).toBe('Grace likes green');
    const ask = await modern(base, 4, 'tools/call', {
      name: 'test_input_required_result_tampered_state',
      arguments: {},
    });
    const state = String(ask.answer!.result!.requestState);
    const tampered = state.slice(0, -2) + (state.at(-2) === 'A' ? 'B' : 'A') + state.at(-1);
    const refused = await modern(base, 5, 'tools/call', {
      name: 'test_input_required_result_tampered_state',
      arguments: {},
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: tampered,
    });
    expect(refused.answer?.error?.code, refused.text).toBe(-32602);
    expect((await served()).filter((n) => n >= 1).length, 'rounds answered by three replicas').toBe(3);
  });

  it('a subscriptions/listen stream hears changes made on every replica, exactly once each', async () => {
    const listener = await modernClient();
    const subscription = await listener.client.listen({
      resourceSubscriptions: ['test://watched-resource'],
      toolsListChanged: true,
      promptsListChanged: true,
    });
    const caller = await modernClient();
    const served = await counting();
    const N = 6;
    for (let i = 0; i < N; i++) {
      expect(textOf(await caller.client.callTool({ name: 'test_update_watched_resource' }))).toBe('update published');
      expect(textOf(await caller.client.callTool({ name: 'test_trigger_tool_change' }))).toBe(
        'tool list change published',
      );
      expect(textOf(await caller.client.callTool({ name: 'test_trigger_prompt_change' }))).toBe(
        'prompt list change published',
      );
    }
    const { heard } = listener;
    await waitFor(
      `${N} of each notification`,
      () => heard.updated.length >= N && heard.tools >= N && heard.prompts >= N,
      5_000,
    ).catch(() => {});
    await sleep(500);
    expect({ updated: heard.updated.length, tools: heard.tools, prompts: heard.prompts }).toEqual({
      updated: N,
      tools: N,
      prompts: N,
    });
    expect((await served()).filter((n) => n >= N).length, 'the calls ran on every replica').toBe(3);
    await subscription.close();
    await listener.client.close();
    await caller.client.close();
  });
});

describe('resumption across replicas', () => {
  it('test_reconnection: the server closes the stream, the client resumes (Last-Event-ID) and gets the result', async () => {
    const { client, transport } = await legacyClient();
    const served = await counting();
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      expect(textOf(await client.callTool({ name: 'test_reconnection', arguments: {} }))).toBe(
        'Reconnection test completed',
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    expect((await served()).filter((n) => n >= 1).length).toBe(3);
    await transport.terminateSession();
    await client.close();
  });

  it('raw: a POST stream cut after its first event is resumed with GET Last-Event-ID, on whichever replica', async () => {
    const served = await counting();
    for (let round = 0; round < 3; round++) {
      const session = await rawSession();
      try {
        const controller = new AbortController();
        const post = await fetch(mcpUrl, {
          method: 'POST',
          headers: session.headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p' } },
          }),
          signal: controller.signal,
        });
        expect(post.headers.get('content-type')).toContain('text/event-stream');
        const reader = post.body!.getReader();
        let seen = '';
        const deadline = Date.now() + 5_000;
        while (!/\n\n/.test(seen) && Date.now() < deadline) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += new TextDecoder().decode(value);
        }
        controller.abort();
        const first = seen.split(/\n\n/)[0]!;
        const lastId = /^id: ?(.+)$/m.exec(first)?.[1]?.trim();
        expect(lastId, `no event id in ${seen}`).toBeTruthy();
        // The first event is the priming event (no data) or the first progress notification.
        const before = messagesOf(first).filter((m) => m.method === 'notifications/progress').length;
        const resumed = await fetch(mcpUrl, {
          method: 'GET',
          headers: {
            Accept: 'text/event-stream',
            'mcp-session-id': session.id,
            'mcp-protocol-version': LEGACY,
            'last-event-id': lastId!,
          },
          signal: AbortSignal.timeout(5_000),
        });
        expect(resumed.status).toBe(200);
        const messages = messagesOf(await resumed.text());
        const answer = messages.find((m) => m.id === 7);
        expect(answer && textOf(answer.result!), JSON.stringify(messages)).toBe('Tool with progress completed');
        // Exactly what came after the event given: nothing twice, nothing missing.
        const progress = messages
          .filter((m) => m.method === 'notifications/progress')
          .map((m) => (m as { params?: { progress?: number } }).params?.progress);
        expect(progress, `first event: ${first}`).toEqual([0, 50, 100].slice(before));
      } finally {
        expect((await fetch(mcpUrl, { method: 'DELETE', headers: session.headers })).status).toBe(200);
      }
    }
    expect((await served()).filter((n) => n >= 3).length).toBe(3);
  });
});

describe('DELETE and unknown sessions', () => {
  it('after DELETE only the replicas’ heartbeat keys remain, and the session is 404 on every replica', async () => {
    const { client, transport } = await legacyClient();
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await client.callTool({ name: 'test_simple_text', arguments: {} });
    const id = transport.sessionId!;
    expect((await sessionKeys()).some((k) => k.includes(id))).toBe(true);
    await transport.terminateSession();
    await client.close();
    await waitFor('no session keys left', async () => (await sessionKeys()).length === 0, 3_000).catch(() => {});
    const left = await sessionKeys();
    const records = await Promise.all(
      left
        .filter((k) => /session:[^:]+$/.test(k))
        .map(async (k) => ({ k, ttl: await keys.pttl(k), ...(await keys.hgetall(k)) })),
    );
    expect(left, `left behind: ${JSON.stringify(records)}`).toEqual([]);
    expect((await keys.keys(`${PREFIX}replica:*`)).length).toBeGreaterThanOrEqual(3);
    for (const replica of replicas) {
      for (const sid of [id, '00000000-0000-4000-8000-000000000000']) {
        const headers = { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
        const post = await fetch(replica.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        expect(post.status, `POST ${sid} on ${replica.port}`).toBe(404);
        const get = await fetch(replica.url, { method: 'GET', headers });
        expect(get.status, `GET ${sid} on ${replica.port}`).toBe(404);
        await get.body?.cancel();
      }
    }
  });
});

describe('faults', () => {
  it('SIGKILL of a replica mid-run: the 2025 session goes on, retried 2026 calls succeed, the replica rejoins', async () => {
    const { client, transport, heard } = await legacyClient();
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'test_simple_text', arguments: {} });
    const victim = replicas[1]!;
    // 2026 calls in flight while the replica dies: each retried once on failure.
    let stop = false;
    let firstFailures = 0;
    let id = 1000;
    const modernLoop = (async () => {
      let ok = 0;
      while (!stop) {
        for (let attempt = 0; ; attempt++) {
          const r = await modern(
            balancer.url,
            id++,
            'tools/call',
            { name: 'test_simple_text', arguments: {} },
            5_000,
          ).catch((e: Error) => ({ status: 0, text: e.message, answer: undefined }));
          if (r.status === 200 && r.answer?.result) break;
          firstFailures += attempt === 0 ? 1 : 0;
          if (attempt >= 2) throw new Error(`2026 call failed three times: ${r.status} ${r.text}`);
        }
        ok++;
      }
      return ok;
    })();
    await sleep(200);
    await victim.kill();
    const afterKill: string[] = [];
    for (let i = 0; i < 15; i++) {
      const result = await client
        .callTool({ name: 'test_simple_text', arguments: {} })
        .catch((e: Error) => ({ content: [{ type: 'text', text: `FAILED ${e.message}` }] }));
      afterKill.push(textOf(result));
    }
    stop = true;
    expect(await modernLoop).toBeGreaterThan(5);
    expect(
      afterKill.filter((t) => t !== 'This is a simple text response for testing.'),
      'failed 2025 calls after the kill',
    ).toEqual([]);
    await balancer.waitUp(2);
    await victim.restart();
    await balancer.waitUp(3);
    const served = await counting();
    for (let i = 0; i < 6; i++)
      expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
        'This is a simple text response for testing.',
      );
    const counts = await served();
    expect(counts[1], `the restarted replica serves the session again: ${counts.join(', ')}`).toBeGreaterThan(0);
    // Notifications still reach the session (its GET stream reopened elsewhere if it was on the victim).
    await client.subscribeResource({ uri: 'test://watched-resource' });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    await waitFor('three updates after the kill', () => heard.updated.length >= 3, 5_000).catch(() => {});
    await sleep(300);
    expect(heard.updated.length).toBe(3);
    console.error(`scale-e2e: 2026 first attempts that failed around the kill: ${firstFailures}`);
    await transport.terminateSession();
    await client.close();
  });

  it('Redis down: 2025 answers 503 quickly, /health says degraded, 2026 calls work; Redis back: the session continues', async () => {
    const { client, transport, heard } = await legacyClient();
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toContain('simple text');
    const session = { ...JSON_HEADERS, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': LEGACY };
    await redis.stop();
    try {
      for (const replica of replicas) {
        await waitFor(
          `replica ${replica.port} degraded`,
          async () => (await health(replica)).body.status === 'degraded',
          5_000,
        );
        expect(await health(replica)).toEqual({
          status: 200,
          body: expect.objectContaining({ status: 'degraded', redis: 'down' }),
        });
      }
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const res = await fetch(mcpUrl, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', id: 50 + i, method: 'tools/list' }),
          signal: AbortSignal.timeout(5_000),
        });
        const elapsed = Date.now() - started;
        const body = (await res.json()) as Rpc;
        expect(res.status, JSON.stringify(body)).toBe(503);
        expect(body).toMatchObject({
          jsonrpc: '2.0',
          error: { code: expect.any(Number), message: expect.stringContaining('Redis') },
        });
        expect(elapsed).toBeLessThan(2_000);
      }
      const init = await fetch(mcpUrl, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '0' } },
        }),
        signal: AbortSignal.timeout(5_000),
      });
      expect(init.status).toBe(503);
      await init.body?.cancel();
      for (let i = 0; i < 6; i++) {
        const r = await modern(balancer.url, 60 + i, 'tools/call', { name: 'test_simple_text', arguments: {} });
        expect(r.status, r.text).toBe(200);
        expect(textOf(r.answer!.result!)).toBe('This is a simple text response for testing.');
      }
    } finally {
      await redis.restart();
    }
    const back = Date.now();
    for (const replica of replicas) {
      await waitFor(
        `replica ${replica.port} ok again`,
        async () => (await health(replica)).body.status === 'ok',
        6_000,
      );
    }
    console.error(`scale-e2e: replicas healthy ${Date.now() - back} ms after Redis restarted`);
    // Append-only Redis kept the record: the session goes on, on every replica.
    for (let i = 0; i < 4; i++)
      expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toContain('simple text');
    // Pub/sub is back too: a change made now reaches a 2026 listener and the 2025 session.
    await client.subscribeResource({ uri: 'test://watched-resource' });
    const listener = await modernClient();
    const subscription = await listener.client.listen({ resourceSubscriptions: ['test://watched-resource'] });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
    await waitFor(
      'updates after Redis came back',
      () => heard.updated.length >= 3 && listener.heard.updated.length >= 3,
      5_000,
    ).catch(() => {});
    await sleep(300);
    expect({ legacy: heard.updated.length, modern: listener.heard.updated.length }).toEqual({ legacy: 3, modern: 3 });
    await subscription.close();
    const fresh = await legacyClient();
    expect(
      textOf(await fresh.client.callTool({ name: 'test_elicitation', arguments: { message: 'again' } })),
    ).toContain('action=accept');
    await fresh.transport.terminateSession();
    await transport.terminateSession();
  });

  /** A 2026 test_slow_operation (10 s) sent straight to `replica`, then SIGTERM once it is in flight. */
  async function slowCallThenSigterm(replica: Replica) {
    const started = Date.now();
    const slow = modern(
      `http://127.0.0.1:${replica.port}`,
      90,
      'tools/call',
      { name: 'test_slow_operation', arguments: {} },
      20_000,
    );
    slow.catch(() => {}); // awaited by the caller, or cut by a kill
    await sleep(300);
    const exited = waitFor(`replica ${replica.port} exiting`, () => !replica.running, 15_000, 50);
    process.kill(replica.pid, 'SIGTERM');
    return { started, slow, exited };
  }

  it('SIGTERM drains: a slow call in flight finishes, the replica leaves rotation, the balancer keeps answering', async () => {
    const victim = replicas[2]!;
    const { started, slow, exited } = await slowCallThenSigterm(victim);
    await balancer.waitUp(2, 5_000);
    for (let i = 0; i < 6; i++) {
      const r = await modern(balancer.url, 100 + i, 'tools/call', { name: 'test_simple_text', arguments: {} });
      expect(r.status, r.text).toBe(200);
    }
    const result = await slow;
    expect(result.status, result.text).toBe(200);
    expect(textOf(result.answer!.result!)).toBe('finished without being cancelled');
    expect(Date.now() - started).toBeGreaterThan(9_000);
    await exited;
  }, 30_000);

  it('/health of a draining replica answers 503 draining', async () => {
    const victim = replicas[2]!;
    await victim.restart();
    await balancer.waitUp(3);
    await slowCallThenSigterm(victim);
    await sleep(200);
    // A probe during the drain (a balancer's health check opens a new connection).
    const probe = await health(victim).catch((e: Error) => e);
    await victim.kill();
    expect(
      probe instanceof Error ? `no answer: ${probe.message} (${String((probe as { cause?: unknown }).cause)})` : probe,
    ).toEqual({
      status: 503,
      body: expect.objectContaining({ status: 'draining' }),
    });
  });
});
