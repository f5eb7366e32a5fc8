/**
 * What one caller may hold of the task store: a quota per principal in MemoryTaskStore (its own
 * finished tasks make room, never another's), the refusal a client gets for it (-32000 naming the
 * limit, not an internal error), the bound on a result kept, and what a running task keeps of the
 * request that created it (not its instance, not its HTTP request).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { McpServer, type McpRequestContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ServerApp } from '../src/app.js';
import { speakEra } from '../src/era.js';
import type { HandlerContext, ToolContent } from '../src/handlers.js';
import { type HttpConfig, type HttpServerHandle, startHttp } from '../src/http.js';
import { installInput } from '../src/input.js';
import { verifyRequestState } from '../src/request-state.js';
import { lazy, reachable, register, type Register } from '../src/runtime.js';
import { installHandlers } from '../src/sdk-handlers.js';
import {
  DEFAULT_MAX_TASKS_PER_PRINCIPAL,
  MemoryTaskStore,
  type TaskRecord,
  TaskStoreFullError,
} from '../src/task-store.js';
import { installTasks, setTaskLimits, setTaskStore, type TaskPolicy, taskTransport } from '../src/tasks.js';
import { contentTool } from '../src/tools.js';

function record(taskId: string, owner: string, lifeMs = 60_000, now = Date.now()): TaskRecord {
  const stamp = new Date(now).toISOString();
  return {
    taskId,
    owner,
    tool: 'wait',
    status: 'working',
    createdAt: stamp,
    lastUpdatedAt: stamp,
    ttlMs: lifeMs,
    pollIntervalMs: 1000,
    expiresAt: now + lifeMs,
  };
}

describe('MemoryTaskStore: a quota per principal', () => {
  it('refuses a principal holding its quota of running tasks, naming the limit; another principal still creates', async () => {
    const store = new MemoryTaskStore({ maxTasks: 10, maxTasksPerPrincipal: 2 });
    await store.create(record('a1', 'alice'));
    await store.create(record('a2', 'alice'));
    const refused = store.create(record('a3', 'alice'));
    await expect(refused).rejects.toBeInstanceOf(TaskStoreFullError);
    await expect(refused).rejects.toMatchObject({
      scope: 'principal',
      limit: 2,
      message: expect.stringContaining('at most 2 at once'),
    });
    expect(await store.get('a3')).toBeUndefined();
    await store.create(record('b1', 'bob'));
    expect(await store.get('b1')).toMatchObject({ owner: 'bob', status: 'working' });
    // Without authentication every caller is the principal ''.
    await store.create(record('n1', ''));
    await store.create(record('n2', ''));
    await expect(store.create(record('n3', ''))).rejects.toMatchObject({ scope: 'principal' });
    store.close();
  });

  it("at its quota a principal's own oldest finished task makes room, never another's", async () => {
    const store = new MemoryTaskStore({ maxTasks: 10, maxTasksPerPrincipal: 2 });
    await store.create(record('b1', 'bob'));
    await store.update('b1', { status: 'completed', result: { content: [] } });
    await store.create(record('a1', 'alice'));
    await store.create(record('a2', 'alice'));
    await store.update('a2', { status: 'completed', result: { content: [] } });
    await store.create(record('a3', 'alice'));
    expect(await store.get('a2')).toBeUndefined();
    expect(await store.get('a1')).toMatchObject({ status: 'working' });
    expect(await store.get('b1')).toMatchObject({ status: 'completed' });
    await expect(store.create(record('a4', 'alice'))).rejects.toMatchObject({ scope: 'principal', limit: 2 });
    // A patch never moves a task to another principal's quota.
    await store.update('a1', { owner: 'bob' });
    expect(await store.get('a1')).toMatchObject({ owner: 'alice' });
    store.close();
  });

  it('a quota of one: each finished task makes room for the next, and a running one still counts', async () => {
    const store = new MemoryTaskStore({ maxTasks: 10, maxTasksPerPrincipal: 1 });
    for (const id of ['a1', 'a2', 'a3']) {
      await store.create(record(id, 'alice'));
      await expect(store.create(record(`${id}-more`, 'alice'))).rejects.toMatchObject({ scope: 'principal', limit: 1 });
      await store.update(id, { status: 'completed', result: { content: [] } });
    }
    expect(await store.get('a2')).toBeUndefined();
    expect(await store.get('a3')).toMatchObject({ status: 'completed' });
    store.close();
  });

  it('expired, deleted and cancelled-then-evicted tasks give the quota back', async () => {
    let now = 1_000_000;
    const store = new MemoryTaskStore({ maxTasks: 10, maxTasksPerPrincipal: 2 }, 60_000, () => now);
    await store.create(record('a1', 'alice', 1000, now));
    await store.create(record('a2', 'alice', 60_000, now));
    await expect(store.create(record('a3', 'alice', 60_000, now))).rejects.toMatchObject({ scope: 'principal' });
    now += 1001;
    await store.create(record('a3', 'alice', 60_000, now));
    await store.delete('a2');
    await store.create(record('a4', 'alice', 60_000, now));
    await store.update('a3', { status: 'cancelled' });
    await store.create(record('a5', 'alice', 60_000, now));
    expect(await store.get('a3')).toBeUndefined();
    store.close();
  });

  it('the store total still bounds every principal together (scope server)', async () => {
    const store = new MemoryTaskStore({ maxTasks: 3, maxTasksPerPrincipal: 2 });
    await store.create(record('a1', 'alice'));
    await store.create(record('a2', 'alice'));
    await store.create(record('b1', 'bob'));
    await expect(store.create(record('c1', 'carol'))).rejects.toMatchObject({
      scope: 'server',
      limit: 3,
      message: 'too many tasks running (at most 3)',
    });
    // A finished task of anyone makes room in a full store, as before.
    await store.update('b1', { status: 'failed', error: { code: -32603, message: 'x' } });
    await store.create(record('c1', 'carol'));
    expect(await store.get('b1')).toBeUndefined();
    store.close();
  });

  it('defaults to a quota well below the total; a number alone is the total', () => {
    const byDefault = new MemoryTaskStore();
    expect([byDefault.maxTasks, byDefault.maxTasksPerPrincipal]).toEqual([10_000, DEFAULT_MAX_TASKS_PER_PRINCIPAL]);
    expect(DEFAULT_MAX_TASKS_PER_PRINCIPAL).toBeLessThanOrEqual(byDefault.maxTasks / 10);
    const total = new MemoryTaskStore(50);
    expect([total.maxTasks, total.maxTasksPerPrincipal]).toEqual([50, DEFAULT_MAX_TASKS_PER_PRINCIPAL]);
    byDefault.close();
    total.close();
  });
});

// ---- Through the extension, over HTTP, to two authenticated callers -----------------------------

const TOKENS_ENV = 'MCPGEN_TASK_LIMITS_TEST_TOKENS';
const EXT = 'io.modelcontextprotocol/tasks';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'task-limits-test', version: '0.0.0' },
};

/** What the `wait` handler saw of the request in its task. */
const seen: { httpRequest: boolean; authInfo: string | undefined }[] = [];
const module = (handler: (input: unknown, ctx: HandlerContext) => ToolContent | Promise<ToolContent>) =>
  lazy(async () => ({ handler }));
const tools: Record<string, Register> = {
  wait: (server) =>
    contentTool(
      server,
      'wait',
      undefined,
      undefined,
      module(async (_input, ctx) => {
        seen.push({ httpRequest: ctx.sdk.http?.req !== undefined, authInfo: ctx.authInfo?.clientId });
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return 'stopped';
      }),
    ),
  big: (server) =>
    contentTool(
      server,
      'big',
      undefined,
      undefined,
      module(async () => 'x'.repeat(5000)),
    ),
};
const policy: TaskPolicy = { taskSupport: 'optional', ttlMs: 60_000, pollIntervalMs: 1000, inputBeforeTask: false };
const policies: Record<string, TaskPolicy> = { wait: policy, big: policy };

/** Every instance made, weakly: which ones tasks keep alive. */
const instances: WeakRef<McpServer>[] = [];

function createServer(ctx: McpRequestContext = { era: 'legacy' }): McpServer {
  const server = new McpServer(
    { name: 'task-limits-test', version: '1.0.0' },
    { capabilities: {}, requestState: { verify: verifyRequestState } },
  );
  installInput(server, ctx.era);
  speakEra(server, ctx.era);
  installTasks(server, ctx.era, policies);
  installHandlers(server, { tools: {} });
  register(server, tools, reachable(ctx.requestInfo).tools);
  instances.push(new WeakRef(server));
  return server;
}

const app: ServerApp = {
  info: { name: 'task-limits-test', version: '1.0.0' },
  createServer,
  subscribable: new Set(),
  tasks: taskTransport,
};
const config: HttpConfig = {
  host: '127.0.0.1',
  port: 0,
  path: '/mcp',
  allowedHosts: [],
  allowedOrigins: [],
  maxBodyBytes: 1024 * 1024,
  bearer: { tokensEnv: TOKENS_ENV, requiredScopes: [], scopes: [] },
};

let http: HttpServerHandle;
let store: MemoryTaskStore;
let ids = 0;

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** One 2026-07-28 request as `who` (a static bearer token: the principal is the client id). */
async function send(who: 'alice' | 'bob', method: string, params: Record<string, unknown>): Promise<Answer> {
  const name = (params.taskId ?? params.name) as string | undefined;
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer token-of-${who}`,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(name ? { 'Mcp-Name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: ENVELOPE } }),
    signal: AbortSignal.timeout(5000),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
}

const call = (who: 'alice' | 'bob', tool: string) => send(who, 'tools/call', { name: tool, arguments: {} });

async function until(who: 'alice' | 'bob', taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const task = (await send(who, 'tasks/get', { taskId })).result!;
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never became ${status}`);
}

beforeAll(async () => {
  process.env[TOKENS_ENV] = 'alice:token-of-alice,bob:token-of-bob';
  store = new MemoryTaskStore({ maxTasks: 100, maxTasksPerPrincipal: 2 });
  setTaskStore(store);
  http = await startHttp(app, config, { port: 0, redisUrl: false });
});

afterAll(async () => {
  await http?.close();
  store?.close();
  setTaskStore(undefined);
  delete process.env[TOKENS_ENV];
});

describe('the tasks extension at a quota', () => {
  it('a caller at its quota gets -32000 naming the limit (not -32603); another caller still gets a task', async () => {
    const first = await call('alice', 'wait');
    const second = await call('alice', 'wait');
    expect([first.result?.resultType, second.result?.resultType]).toEqual(['task', 'task']);
    const refused = await call('alice', 'wait');
    expect(refused.result).toBeUndefined();
    expect(refused.error).toEqual({
      code: -32000,
      message: 'too many tasks running for this caller (at most 2 at once): wait for one to finish, or cancel one',
      data: { limit: 2, scope: 'principal' },
    });
    const other = await call('bob', 'wait');
    expect(other.result).toMatchObject({ resultType: 'task', status: 'working' });
    // Cancelled, a task makes room for its caller's next one.
    await send('alice', 'tasks/cancel', { taskId: first.result!.taskId });
    const third = await call('alice', 'wait');
    expect(third.result).toMatchObject({ resultType: 'task' });
    for (const answer of [second, third]) await send('alice', 'tasks/cancel', { taskId: answer.result!.taskId });
    await send('bob', 'tasks/cancel', { taskId: other.result!.taskId });
  });

  it('a result over the bytes a task keeps fails the task with -32603 naming both sizes', async () => {
    setTaskLimits({ maxResultBytes: 1000 });
    try {
      const taskId = (await call('bob', 'big')).result!.taskId as string;
      const failed = await until('bob', taskId, 'failed');
      expect(failed.error).toEqual({
        code: -32603,
        message: expect.stringMatching(/^the task's result is 50\d\d bytes, more than the 1000 a task keeps$/),
      });
      expect(failed).not.toHaveProperty('result');
    } finally {
      setTaskLimits({});
    }
  });
});

describe('what a running task keeps of the request that created it', () => {
  it('neither the instance that served the request nor its HTTP request: only the caller', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // The first task of a tool makes the instance that runs every task of it.
    const warm = (await call('bob', 'wait')).result!.taskId as string;
    await send('bob', 'tasks/cancel', { taskId: warm });
    seen.length = 0;
    const before = instances.length;
    const taskIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await call(i % 2 ? 'alice' : 'bob', 'wait');
      taskIds.push(answer.result!.taskId as string);
    }
    for (let i = 0; i < 4; i++) await until(i % 2 ? 'alice' : 'bob', taskIds[i]!, 'working');
    for (let i = 0; i < 50 && seen.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([
      { httpRequest: false, authInfo: 'bob' },
      { httpRequest: false, authInfo: 'alice' },
      { httpRequest: false, authInfo: 'bob' },
      { httpRequest: false, authInfo: 'alice' },
    ]);
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The four handlers are still running; the instances of their requests are gone.
    const alive = instances.slice(before).filter((ref) => ref.deref() !== undefined).length;
    expect(alive).toBe(0);
    for (let i = 0; i < 4; i++) await send(i % 2 ? 'alice' : 'bob', 'tasks/cancel', { taskId: taskIds[i] });
  });
});
