/**
 * Tasks across replicas: two (and for the kill run three) processes of the generated
 * tasks project sharing a real redis-server, raw JSON-RPC 2026-07-28 over HTTP. A task created on
 * one replica is read, answered, cancelled and listened to on another; a killed runner's task
 * fails; expired tasks leave no keys; MCP_MAX_TASKS bounds the shared store; a caller at its
 * quota (MCP_MAX_TASKS_PER_PRINCIPAL) is refused on every replica, racing or not, while another
 * caller still creates tasks. Plus RedisTaskStore on its own against the same Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, scratch, startHttpServer } from './helpers/project.js';
import { buildTasksProject, cancelTask, getTask, startTask, tasksClient } from './helpers/tasks-project.js';
import { answerOf, sseMessages, type Message } from './helpers/wire.js';

type Send = (message: Omit<Message, 'jsonrpc'>) => Promise<Message>;
type Replica = Awaited<ReturnType<typeof startHttpServer>>;

const EXT = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';
const PREFIX = 'rtasks:';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'redis-tasks-e2e', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [EXT]: {} } },
};

let dir: string;
let log: string;
let port: number;
let redisServer: ChildProcess | undefined;
let redis: Redis;
let env: NodeJS.ProcessEnv;
let a: Replica;
let b: Replica;
const extra: Replica[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<void> {
  port = await freePort();
  redisServer = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  redis.on('error', () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await redis.connect();
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start within 10 s`);
      redis.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

beforeAll(async () => {
  dir = scratch('redis-tasks-e2e');
  log = path.join(dir, 'tasks.log');
  writeFileSync(log, '');
  await Promise.all([buildTasksProject(dir), startRedis()]);
  env = {
    REDIS_URL: `redis://127.0.0.1:${port}`,
    MCP_REDIS_PREFIX: PREFIX,
    MCP_REQUEST_STATE_KEY: 'redis-tasks-e2e-request-state-key-0123456789',
    MCP_MAX_TASKS: '3',
    TASKS_LOG: log,
  };
  [a, b] = await Promise.all([startHttpServer(dir, env), startHttpServer(dir, env)]);
}, 180_000);

/** Stops a replica (SIGTERM, then SIGKILL after 5 s); one already gone resolves at once. */
async function stopReplica(replica: Replica | undefined): Promise<void> {
  const child = replica?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  clearTimeout(timer);
}

afterAll(async () => {
  try {
    await Promise.all([a, b, ...extra].map(stopReplica));
  } finally {
    redis?.disconnect();
    if (redisServer && redisServer.exitCode === null && redisServer.signalCode === null) {
      const exited = new Promise((resolve) => redisServer!.once('exit', resolve));
      redisServer.kill('SIGTERM');
      await exited;
    }
  }
});

// ---- Raw JSON-RPC over HTTP ---------------------------------------------------------------------

/** 2026-07-28 requests to one replica (as the caller of `token`): the envelope in the body, Mcp-Method and Mcp-Name as headers. */
const to =
  (replica: Replica, token?: string): Send =>
  async (message) => {
    const params = message.params ?? {};
    const name =
      typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const res = await fetch(replica.url, {
      method: 'POST',
      headers: {
        ...ACCEPT,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        'MCP-Protocol-Version': MODERN,
        'Mcp-Method': message.method!,
        ...(name ? { 'Mcp-Name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...message, params: { ...params, _meta: envelope } }),
    });
    return answerOf(res, message.id);
  };

let ids = 1000;
const next = () => ++ids;

async function call(send: Send, name: string, args: Record<string, unknown> = {}): Promise<Message> {
  return send({ id: next(), method: 'tools/call', params: { name, arguments: args } });
}

async function create(send: Send, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const created = await call(send, name, args);
  expect(created.result, JSON.stringify(created)).toMatchObject({ resultType: 'task' });
  return created.result!.taskId as string;
}

async function get(send: Send, taskId: string): Promise<Record<string, unknown>> {
  const answer = await send({ id: next(), method: 'tasks/get', params: { taskId } });
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer.result!;
}

async function until(
  send: Send,
  taskId: string,
  statuses: string[],
  waitMs = 10_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const task = await get(send, taskId);
    if (statuses.includes(task.status as string)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${String(task.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cancel(send: Send, taskId: string): Promise<Message> {
  return send({ id: next(), method: 'tasks/cancel', params: { taskId } });
}

async function aborted(taskId: string): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (!readFileSync(log, 'utf8').includes(`aborted ${taskId}`) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  return readFileSync(log, 'utf8').includes(`aborted ${taskId}`);
}

// ---- Across replicas ----------------------------------------------------------------------------

describe('tasks across two replicas sharing Redis', () => {
  it('both replicas share through Redis: each has its own heartbeat key', async () => {
    expect(a.stderr()).toContain('sharing state through Redis');
    const replicas = await redis.keys(`${PREFIX}replica:*`);
    expect(replicas).toHaveLength(2);
  });

  it('created on A, tasks/get on B shows it working, then completed with the result', async () => {
    const waiting = await create(to(a), 'wait');
    const working = await get(to(b), waiting);
    expect(working).toMatchObject({ taskId: waiting, status: 'working' });
    expect(working).not.toHaveProperty('runner');
    expect(await get(to(a), waiting)).toEqual(working);
    await cancel(to(a), waiting);
    const taskId = await create(to(a), 'build', { project: 'app' });
    const done = await until(to(b), taskId, ['completed']);
    // ctx.progress() on A set the status message B shows.
    expect(done).toMatchObject({ statusMessage: 'compiling', ttlMs: 600000 });
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: `built app in task ${taskId}` }] });
    expect(await get(to(a), taskId)).toEqual(done);
    // The record expires with the task.
    const ttl = await redis.pttl(`${PREFIX}task:${taskId}`);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('tasks/update on B answers the input requests of a task running on A, with the same checks', async () => {
    const taskId = await create(to(a), 'confirm');
    const asking = await until(to(b), taskId, ['input_required']);
    expect(Object.keys(asking.inputRequests as object).sort()).toEqual(['a', 'b']);
    expect(asking.statusMessage).toBe('waiting for names');
    const wrong = await to(b)({
      id: next(),
      method: 'tasks/update',
      params: { taskId, inputResponses: { a: { action: 'accept', content: { name: 5 } } } },
    });
    expect(wrong.error).toEqual({
      code: -32602,
      message: 'inputResponses.a: the accepted content does not match the requested schema: name must be a string',
    });
    expect(Object.keys((await get(to(a), taskId)).inputRequests as object).sort()).toEqual(['a', 'b']);
    const first = await to(b)({
      id: next(),
      method: 'tasks/update',
      params: {
        taskId,
        inputResponses: { a: { action: 'accept', content: { name: 'Ann' } }, nope: { action: 'accept' } },
      },
    });
    expect(first.error).toBeUndefined();
    expect(first.result).toMatchObject({ resultType: 'complete' });
    const partial = await get(to(a), taskId);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual(['b']);
    await to(b)({
      id: next(),
      method: 'tasks/update',
      params: { taskId, inputResponses: { b: { action: 'accept', content: { name: 'Bob' } } } },
    });
    const done = await until(to(b), taskId, ['completed']);
    expect(done.result).toMatchObject({ content: [{ text: 'Ann+Bob state={"round":1}' }] });
  });

  it('tasks/cancel on B aborts the handler on A; the task stays cancelled everywhere', async () => {
    const taskId = await create(to(a), 'wait');
    await until(to(b), taskId, ['working']);
    const ack = await cancel(to(b), taskId);
    expect(ack.error).toBeUndefined();
    expect(ack.result).not.toHaveProperty('status');
    // The reply comes once the runner has cancelled it.
    expect(await get(to(b), taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
    expect(await aborted(taskId)).toBe(true);
    expect((await cancel(to(a), taskId)).error).toBeUndefined();
    expect(await get(to(a), taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('a listen stream on B hears notifications/tasks of a task running on A', async () => {
    const taskId = await create(to(a), 'wait');
    const id = next();
    const abort = new AbortController();
    const res = await fetch(b.url, {
      method: 'POST',
      signal: abort.signal,
      headers: { ...ACCEPT, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [taskId] }, _meta: envelope },
      }),
    });
    const stream = sseMessages(res);
    expect((await stream.next()).params).toEqual({
      notifications: { taskIds: [taskId] },
      _meta: { [SUBSCRIPTION]: id },
    });
    await cancel(to(a), taskId);
    const note = await stream.next();
    const { resultType, ...view } = await get(to(a), taskId);
    void resultType;
    expect(note).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...view, _meta: { [SUBSCRIPTION]: id } },
    });
    expect(note.params).toMatchObject({ taskId, status: 'cancelled' });
    abort.abort();
  });

  it('a 2025 session on A that created a task hears its cancellation made on B', async () => {
    const init = await fetch(a.url, {
      method: 'POST',
      headers: ACCEPT,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { extensions: { [EXT]: {} } },
          clientInfo: { name: 'redis-tasks-e2e', version: '0.0.0' },
        },
      }),
    });
    const headers = {
      ...ACCEPT,
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    };
    await answerOf(init, 0);
    await (
      await fetch(a.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).body?.cancel();
    const session: Send = async (message) =>
      answerOf(
        await fetch(a.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) }),
        message.id,
      );
    const get = await fetch(a.url, { method: 'GET', headers: { ...headers, Accept: 'text/event-stream' } });
    expect(get.status).toBe(200);
    const stream = sseMessages(get);
    const taskId = await create(session, 'wait');
    await cancel(to(b), taskId);
    const note = await stream.next();
    expect(note).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'cancelled' } });
    await (await fetch(a.url, { method: 'DELETE', headers })).body?.cancel();
  });

  it('an expired task leaves no keys: its record expires and the next create drops its index entries', async () => {
    const taskId = await create(to(a), 'short');
    expect(await until(to(b), taskId, ['completed'])).toMatchObject({ ttlMs: 800 });
    expect(await redis.zscore(`${PREFIX}tasks`, taskId)).not.toBeNull();
    expect(await redis.zscore(`${PREFIX}tasks:finished`, taskId)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await to(b)({ id: next(), method: 'tasks/get', params: { taskId } })).error?.code).toBe(-32602);
    expect(await redis.exists(`${PREFIX}task:${taskId}`)).toBe(0);
    const other = await create(to(b), 'build', { project: 'prune' });
    expect(await redis.zscore(`${PREFIX}tasks`, taskId)).toBeNull();
    expect(await redis.zscore(`${PREFIX}tasks:finished`, taskId)).toBeNull();
    await until(to(a), other, ['completed']);
    const keys = await scan(`${PREFIX}task*`);
    expect(keys.filter((key) => key.includes(taskId))).toEqual([]);
    // The indexes live as long as their longest-lived task, no longer.
    const [, latest] = await redis.zrange(`${PREFIX}tasks`, '-1', '-1', 'WITHSCORES');
    const longest = Number(latest) - Date.now();
    expect(Math.abs((await redis.pttl(`${PREFIX}tasks`)) - longest)).toBeLessThan(2000);
    const finishedTtl = await redis.pttl(`${PREFIX}tasks:finished`);
    expect(finishedTtl).toBeGreaterThan(0);
    expect(finishedTtl).toBeLessThan(longest + 1000);
  });

  it('a task whose runner was killed (SIGKILL) is failed: a listener hears it unasked, tasks/get shows it, it stays failed', async () => {
    const c = await startHttpServer(dir, env);
    extra.push(c);
    const taskId = await create(to(c), 'wait');
    const polled = await create(to(c), 'wait');
    await until(to(b), taskId, ['working']);
    const id = next();
    const abort = new AbortController();
    const res = await fetch(a.url, {
      method: 'POST',
      signal: abort.signal,
      headers: { ...ACCEPT, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [taskId] }, _meta: envelope },
      }),
    });
    const stream = sseMessages(res);
    expect((await stream.next()).params).toMatchObject({ notifications: { taskIds: [taskId] } });
    const gone = new Promise((resolve) => c.child.once('exit', resolve));
    c.child.kill('SIGKILL');
    await gone;
    // Alive until its heartbeat key expires (10 s); the replicas' sweep (5 s) then fails its tasks.
    const note = await stream.next(25_000);
    expect(note).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId, status: 'failed', error: { code: -32603 } },
    });
    abort.abort();
    const failed = await until(to(b), polled, ['failed', 'completed', 'cancelled'], 10_000);
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: -32603,
        message: expect.stringMatching(/replica running this task \(\w{8}\) stopped before it finished/),
      },
    });
    expect((await cancel(to(a), taskId)).error).toBeUndefined();
    expect(await get(to(a), taskId)).toMatchObject({ status: 'failed' });
    expect(await get(to(b), polled)).toMatchObject({ status: 'failed' });
  }, 60_000);

  it('MCP_MAX_TASKS=3 bounds the shared store: finished tasks are evicted, a fourth running one is refused', async () => {
    const running = [await create(to(a), 'wait'), await create(to(b), 'wait'), await create(to(a), 'wait')];
    expect(await redis.zcard(`${PREFIX}tasks`)).toBe(3);
    const refused = await call(to(b), 'wait');
    expect(refused.error, JSON.stringify(refused)).toEqual({
      code: -32000,
      message: 'too many tasks running (at most 3)',
      data: { limit: 3, scope: 'server' },
    });
    await cancel(to(b), running[0]!);
    const taskId = await create(to(b), 'wait');
    // The cancelled one made room and is gone.
    expect((await to(a)({ id: next(), method: 'tasks/get', params: { taskId: running[0] } })).error?.code).toBe(-32602);
    expect(await redis.exists(`${PREFIX}task:${running[0]}`)).toBe(0);
    for (const id of [...running.slice(1), taskId]) await cancel(to(a), id);
    expect(await redis.zcard(`${PREFIX}tasks`)).toBe(3);
    expect(await redis.zcard(`${PREFIX}tasks:finished`)).toBe(3);
  });
});

describe('a quota of tasks per principal across two replicas (MCP_MAX_TASKS_PER_PRINCIPAL=2)', () => {
  const QUOTA_PREFIX = 'rquota:';
  const TOKENS = {
    alice: 'token-of-alice-0123456789',
    bob: 'token-of-bob-0123456789',
    carol: 'token-of-carol-0123456789',
  };
  let qa: Replica;
  let qb: Replica;

  beforeAll(async () => {
    const quotaDir = scratch('redis-tasks-e2e-quota');
    await buildTasksProject(quotaDir, { tokensEnv: 'TASKS_TOKENS' });
    const quotaEnv = {
      ...env,
      MCP_REDIS_PREFIX: QUOTA_PREFIX,
      MCP_MAX_TASKS: '100',
      MCP_MAX_TASKS_PER_PRINCIPAL: '2',
      TASKS_TOKENS: Object.entries(TOKENS)
        .map(([who, token]) => `${who}:${token}`)
        .join(','),
    };
    [qa, qb] = await Promise.all([startHttpServer(quotaDir, quotaEnv), startHttpServer(quotaDir, quotaEnv)]);
    extra.push(qa, qb);
  }, 180_000);

  /** A 2026-07-28 tools/call of `wait` on `replica` as `token`. */
  const modernCall = async (replica: Replica, token: string): Promise<Message> => {
    const id = next();
    const res = await fetch(replica.url, {
      method: 'POST',
      headers: {
        ...ACCEPT,
        Authorization: `Bearer ${token}`,
        'MCP-Protocol-Version': MODERN,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'wait',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'wait', arguments: {}, _meta: envelope },
      }),
    });
    return answerOf(res, id);
  };

  it('through the SDK client: tasks on either replica count; at its quota a caller is refused (-32000) on both, while another still creates one', async () => {
    const aliceOnA = await tasksClient(qa.url, TOKENS.alice);
    const aliceOnB = await tasksClient(qb.url, TOKENS.alice);
    const bobOnB = await tasksClient(qb.url, TOKENS.bob);
    try {
      const mine = [await startTask(aliceOnA, 'wait'), await startTask(aliceOnB, 'wait')];
      for (const client of [aliceOnA, aliceOnB]) {
        await expect(client.callTool({ name: 'wait', arguments: {} })).rejects.toMatchObject({
          code: -32000,
          message: 'too many tasks running for this caller (at most 2 at once): wait for one to finish, or cancel one',
          data: { limit: 2, scope: 'principal' },
        });
      }
      const theirs = await startTask(bobOnB, 'wait');
      expect(await getTask(bobOnB, theirs)).toMatchObject({ status: 'working' });
      // Cancelled on B, Alice's task on A makes room for her next one, on A.
      await cancelTask(aliceOnB, mine[0]!);
      const third = await startTask(aliceOnA, 'wait');
      await expect(getTask(aliceOnA, mine[0]!)).rejects.toMatchObject({ code: -32602 });
      for (const taskId of [mine[1]!, third]) await cancelTask(aliceOnA, taskId);
      await cancelTask(bobOnB, theirs);
    } finally {
      await Promise.all([aliceOnA.close(), aliceOnB.close(), bobOnB.close()]);
    }
  });

  it('racing on both replicas at once, a caller gets exactly its quota of tasks (Redis counts atomically)', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => modernCall(i % 2 ? qa : qb, TOKENS.carol)));
    const created = answers.filter((answer) => answer.result?.resultType === 'task');
    const refused = answers.filter((answer) => answer.error?.code === -32000);
    expect([created.length, refused.length], JSON.stringify(answers)).toEqual([2, 8]);
    expect(await redis.zcard(`${QUOTA_PREFIX}tasks:owner:${sha1('carol')}`)).toBe(2);
    for (const answer of created) await cancel(to(qa, TOKENS.carol), answer.result!.taskId as string);
  });
});

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

async function scan(pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [nextCursor, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = nextCursor;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

// ---- RedisTaskStore on its own ------------------------------------------------------------------

describe('RedisTaskStore against the real Redis', () => {
  const prefix = 'rtasks-unit:';
  let hub: { close(): Promise<void>; key(...parts: string[]): string };
  let store: {
    create(task: Record<string, unknown>): Promise<void>;
    get(id: string): Promise<Record<string, unknown> | undefined>;
    update(id: string, patch: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
    delete(id: string): Promise<void>;
  };
  let RedisTaskStore: new (
    hub: unknown,
    limits: number | { maxTasks?: number; maxTasksPerPrincipal?: number },
  ) => typeof store;
  const record = (taskId: string, lifeMs: number, extra: Record<string, unknown> = {}) => {
    const now = Date.now();
    return {
      taskId,
      owner: '',
      tool: 'wait',
      status: 'working',
      createdAt: new Date(now).toISOString(),
      lastUpdatedAt: new Date(now).toISOString(),
      ttlMs: lifeMs,
      pollIntervalMs: 1000,
      expiresAt: now + lifeMs,
      ...extra,
    };
  };

  beforeAll(async () => {
    const { connectHub } = (await import(path.join(REPO, 'packages/runtime/dist/redis.js'))) as {
      connectHub(o: object): Promise<typeof hub>;
    };
    ({ RedisTaskStore } = (await import(path.join(REPO, 'packages/runtime/dist/redis-tasks.js'))) as {
      RedisTaskStore: typeof RedisTaskStore;
    });
    hub = await connectHub({ url: `redis://127.0.0.1:${port}`, prefix });
    store = new RedisTaskStore(hub, 2);
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('keeps JSON exactly (empty arrays, floats), never changes a finished task, and bounds itself', async () => {
    await store.create(record('one', 60_000));
    const result = { content: [], structuredContent: { ratio: 0.1 + 0.2, big: 2 ** 53 - 1, list: [] } };
    expect(await store.update('one', { status: 'completed', result })).toMatchObject({ status: 'completed', result });
    expect((await store.get('one'))?.result).toEqual(result);
    expect(await store.update('one', { status: 'working', result: undefined })).toMatchObject({
      status: 'completed',
      result,
    });
    expect(await store.get('one')).toMatchObject({ status: 'completed' });
    await store.create(record('two', 60_000));
    // Full (2): the finished one makes room; then both running: refused.
    await store.create(record('three', 60_000));
    expect(await store.get('one')).toBeUndefined();
    await expect(store.create(record('four', 60_000))).rejects.toMatchObject({ name: 'TaskStoreFullError' });
    expect(await store.update('gone', { status: 'failed' })).toBeUndefined();
    await store.delete('two');
    await store.delete('three');
    expect(await scan(`${prefix}task*`)).toEqual([]);
  });

  it('MemoryTaskStore never changes a finished task either', async () => {
    const { MemoryTaskStore } = (await import(path.join(REPO, 'packages/runtime/dist/task-store.js'))) as {
      MemoryTaskStore: new () => typeof store & { close(): void };
    };
    const memory = new MemoryTaskStore();
    await memory.create(record('m', 60_000));
    expect(await memory.update('m', { status: 'input_required', statusMessage: 'asking' })).toMatchObject({
      status: 'input_required',
      statusMessage: 'asking',
    });
    await memory.update('m', { status: 'cancelled' });
    expect(await memory.update('m', { status: 'working', statusMessage: 'again' })).toMatchObject({
      status: 'cancelled',
      statusMessage: 'asking',
    });
    expect(await memory.get('m')).toMatchObject({ status: 'cancelled' });
    memory.close();
  });

  it('concurrent updates of one task all land (compare-and-set)', async () => {
    await store.create(record('busy', 60_000));
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.update('busy', { [`field${i}`]: i })));
    const task = (await store.get('busy'))!;
    for (let i = 0; i < 10; i++) expect(task[`field${i}`]).toBe(i);
    await store.delete('busy');
  });

  it('after expiry nothing is left: records, and the indexes with them', async () => {
    await store.create(record('brief', 300));
    await store.create(record('brief2', 400));
    await store.update('brief', { status: 'completed', result: { content: [] } });
    expect((await scan(`${prefix}task*`)).sort()).toEqual([
      `${prefix}task:brief`,
      `${prefix}task:brief2`,
      `${prefix}tasks`,
      `${prefix}tasks:finished`,
      `${prefix}tasks:owner:${sha1('')}`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store.get('brief')).toBeUndefined();
    expect(await scan(`${prefix}task*`)).toEqual([]);
  });

  it("bounds each principal atomically: its own finished or deleted task makes room, never another's; racing creates get exactly the quota", async () => {
    const quota = new RedisTaskStore(hub, { maxTasks: 20, maxTasksPerPrincipal: 2 });
    await quota.create(record('q-a1', 60_000, { owner: 'alice' }));
    await quota.create(record('q-a2', 60_000, { owner: 'alice' }));
    await expect(quota.create(record('q-a3', 60_000, { owner: 'alice' }))).rejects.toMatchObject({
      name: 'TaskStoreFullError',
      scope: 'principal',
      limit: 2,
    });
    await quota.create(record('q-b1', 60_000, { owner: 'bob' }));
    await quota.update('q-b1', { status: 'completed', result: { content: [] } });
    await quota.update('q-a1', { status: 'completed', result: { content: [] } });
    await quota.create(record('q-a3', 60_000, { owner: 'alice' }));
    expect(await quota.get('q-a1')).toBeUndefined();
    expect(await quota.get('q-b1')).toMatchObject({ status: 'completed' });
    // A deleted task leaves its principal's index.
    await quota.delete('q-a2');
    await quota.create(record('q-a4', 60_000, { owner: 'alice' }));
    expect(await redis.zrange(`${prefix}tasks:owner:${sha1('alice')}`, 0, -1)).toEqual(['q-a3', 'q-a4']);
    const race = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => quota.create(record(`q-c${i}`, 60_000, { owner: 'carol' }))),
    );
    expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(
      race.filter((r) => r.status === 'rejected' && (r.reason as { scope?: string }).scope === 'principal'),
    ).toHaveLength(8);
    for (const id of ['q-a3', 'q-a4', 'q-b1', ...Array.from({ length: 10 }, (_, i) => `q-c${i}`)])
      await quota.delete(id);
    expect(await scan(`${prefix}task*`)).toEqual([]);
  });
});
