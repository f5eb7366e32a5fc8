/**
 * The tasks extension (SEP-2663) end to end: the manifest of test/cases/tasks plus a few
 * tools, real handlers, compiled with tsc and run as a process; raw JSON-RPC over stdio (2026-07-28
 * with the `_meta` envelope, and a 2025-11-25 initialize) and Streamable HTTP (2026-07-28 requests
 * with their headers, 2025 sessions). Create, poll, complete, tool error, failure, cancel, input
 * through tasks/update, input before the task, expiry, many at once, clients without the extension;
 * and, with bearer tokens, one caller at its quota of tasks (MCP_MAX_TASKS_PER_PRINCIPAL) while
 * another still creates them, through the SDK's client.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, scratch, startHttpServer } from './helpers/project.js';
import { buildTasksProject, cancelTask, getTask, startTask, tasksClient } from './helpers/tasks-project.js';
import { answerOf, sseMessages, type Message } from './helpers/wire.js';

type Send = (message: Omit<Message, 'jsonrpc'>) => Promise<Message>;

const EXT = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';
const envelope = (extension: boolean) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-e2e', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    ...(extension ? { extensions: { [EXT]: {} } } : {}),
  },
});

let dir: string;
let log: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = scratch('tasks-e2e');
  log = path.join(dir, 'tasks.log');
  writeFileSync(log, '');
  await buildTasksProject(dir);
  http = await startHttpServer(dir, { TASKS_LOG: log });
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await http?.stop();
});

// ---- Transports ---------------------------------------------------------------------------------

class Stdio {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #seen: Message[] = [];
  #buffer = '';

  constructor() {
    this.#child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', TASKS_LOG: log },
    });
    children.push(this.#child);
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        if (line.trim()) this.#seen.push(JSON.parse(line) as Message);
      }
    });
    this.#child.stderr.resume();
  }

  send: Send = async (message) => {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.#seen.find((m) => m.id === message.id && m.method === undefined);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${JSON.stringify(message)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  /** The first message (notifications included) matching `found`, waited for (bounded). */
  async seen(found: (m: Message) => boolean): Promise<Message> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const message = this.#seen.find(found);
      if (message) return message;
      if (Date.now() > deadline) throw new Error('no such message');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  messages(): Message[] {
    return [...this.#seen];
  }

  write(message: Omit<Message, 'jsonrpc'>): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  close(): void {
    this.#child.kill('SIGTERM');
  }
}

const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** 2026-07-28 over HTTP: the envelope in the body, Mcp-Method and Mcp-Name (name or taskId) as headers. */
const modernHttp =
  (extension = true): Send =>
  async (message) => {
    const params = message.params ?? {};
    const name =
      typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
    const res = await fetch(http.url, {
      method: 'POST',
      headers: {
        ...ACCEPT,
        'MCP-Protocol-Version': MODERN,
        'Mcp-Method': message.method!,
        ...(name ? { 'Mcp-Name': name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        ...message,
        params: { ...params, _meta: { ...envelope(extension), ...(params._meta as object) } },
      }),
    });
    return answerOf(res, message.id);
  };

/** 2026-07-28 over stdio: the envelope on every request. */
const modernStdio =
  (wire: Stdio, extension = true): Send =>
  (message) =>
    wire.send({ ...message, params: { ...message.params, _meta: envelope(extension) } });

/** A 2025-11-25 session over HTTP; the extension is declared at initialize. */
async function legacyHttp(
  extension = true,
): Promise<{ headers: Record<string, string>; send: Send; close(): Promise<void> }> {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: ACCEPT,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: extension ? { extensions: { [EXT]: {} } } : {},
        clientInfo: { name: 'tasks-e2e', version: '0.0.0' },
      },
    }),
  });
  const session = res.headers.get('mcp-session-id')!;
  await answerOf(res, 0);
  const headers = { ...ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await (
    await fetch(http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).body?.cancel();
  return {
    headers,
    send: async (message) =>
      answerOf(
        await fetch(http.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) }),
        message.id,
      ),
    close: async () => void (await fetch(http.url, { method: 'DELETE', headers })).body?.cancel(),
  };
}

async function legacyStdio(wire: Stdio): Promise<Send> {
  const init = await wire.send({
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { extensions: { [EXT]: {} } },
      clientInfo: { name: 'tasks-e2e', version: '0.0.0' },
    },
  });
  expect(init.result?.capabilities).toMatchObject({ extensions: { [EXT]: {} } });
  return wire.send;
}

// ---- The checks, for any transport and era ---------------------------------------------------------

let ids = 1000;
const next = () => ++ids;

async function call(
  send: Send,
  name: string,
  args: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Promise<Message> {
  return send({ id: next(), method: 'tools/call', params: { name, arguments: args, ...extra } });
}

async function get(send: Send, taskId: string): Promise<Record<string, unknown>> {
  const answer = await send({ id: next(), method: 'tasks/get', params: { taskId } });
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer.result!;
}

/** Polls tasks/get (bounded) until the task's status is one of `statuses`. */
async function until(send: Send, taskId: string, ...statuses: string[]): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = await get(send, taskId);
    if (statuses.includes(task.status as string)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${String(task.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function taskChecks(name: string, connect: () => Promise<Send>) {
  describe(name, () => {
    let send: Send;
    beforeAll(async () => {
      send = await connect();
    });

    it('a task tool answers with a flat task handle; tasks/get shows it working, then completed with the result', async () => {
      const created = await call(send, 'build', { project: 'app' });
      const handle = created.result!;
      expect(handle).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600000, pollIntervalMs: 2000 });
      expect(handle).not.toHaveProperty('task');
      expect(handle).not.toHaveProperty('content');
      expect(handle).not.toHaveProperty('result');
      expect(Date.parse(handle.createdAt as string)).not.toBeNaN();
      const taskId = handle.taskId as string;
      // ctx.progress() sets the status message (the handler module may still be loading at first).
      let working = await get(send, taskId);
      for (let i = 0; i < 100 && working.statusMessage === undefined; i++) working = await get(send, taskId);
      expect(working).toMatchObject({ taskId, status: 'working', statusMessage: 'compiling' });
      expect(working).not.toHaveProperty('result');
      const done = await until(send, taskId, 'completed');
      expect(done.result).toMatchObject({ content: [{ type: 'text', text: `built app in task ${taskId}` }] });
      expect(done).not.toHaveProperty('requestState');
    });

    it('a sync tool stays sync; structured output is inlined in the completed task', async () => {
      const quick = await call(send, 'quick');
      expect(quick.result).toMatchObject({ content: [{ type: 'text', text: 'quick sync' }] });
      expect(quick.result).not.toHaveProperty('taskId');
      const report = await call(send, 'report');
      const done = await until(send, report.result!.taskId as string, 'completed');
      expect(done.result).toMatchObject({ structuredContent: { pages: 3 } });
    });

    it('a tool error completes the task with isError; a protocol error fails it with the JSON-RPC error', async () => {
      const broken = await until(send, (await call(send, 'broken')).result!.taskId as string, 'completed', 'failed');
      expect(broken).toMatchObject({
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: 'broken tool' }] },
      });
      const crash = await until(send, (await call(send, 'crash')).result!.taskId as string, 'completed', 'failed');
      expect(crash).toMatchObject({ status: 'failed', error: { code: -32603, message: 'crashed' } });
      expect(crash).not.toHaveProperty('result');
    });

    it('tasks/cancel acknowledges, aborts ctx.signal, and the task stays cancelled; cancelling again is the same ack', async () => {
      const taskId = (await call(send, 'wait')).result!.taskId as string;
      await until(send, taskId, 'working');
      const ack = await send({ id: next(), method: 'tasks/cancel', params: { taskId } });
      expect(ack.error).toBeUndefined();
      expect(ack.result).not.toHaveProperty('taskId');
      expect(ack.result).not.toHaveProperty('status');
      expect(await get(send, taskId)).toMatchObject({ status: 'cancelled' });
      const deadline = Date.now() + 5000;
      while (!readFileSync(log, 'utf8').includes(`aborted ${taskId}`) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(readFileSync(log, 'utf8')).toContain(`aborted ${taskId}`);
      const again = await send({ id: next(), method: 'tasks/cancel', params: { taskId } });
      expect(again.error).toBeUndefined();
      expect(await get(send, taskId)).toMatchObject({ status: 'cancelled' });
    });

    it('input: tasks/get shows input_required with the requests; tasks/update answers them, one at a time', async () => {
      const taskId = (await call(send, 'confirm')).result!.taskId as string;
      const asking = await until(send, taskId, 'input_required');
      expect(Object.keys(asking.inputRequests as object).sort()).toEqual(['a', 'b']);
      expect(asking).toMatchObject({
        statusMessage: 'waiting for names',
        inputRequests: { a: { method: 'elicitation/create' } },
      });
      expect(asking).not.toHaveProperty('requestState');
      // Content that does not match the form is refused, and nothing of that update is kept.
      const wrong = await send({
        id: next(),
        method: 'tasks/update',
        params: { taskId, inputResponses: { a: { action: 'accept', content: { name: 5 } } } },
      });
      expect(wrong.error).toEqual({
        code: -32602,
        message: 'inputResponses.a: the accepted content does not match the requested schema: name must be a string',
      });
      expect(Object.keys((await get(send, taskId)).inputRequests as object).sort()).toEqual(['a', 'b']);
      const first = await send({
        id: next(),
        method: 'tasks/update',
        params: {
          taskId,
          inputResponses: { a: { action: 'accept', content: { name: 'Ann' } }, nope: { action: 'accept' } },
        },
      });
      expect(first.error).toBeUndefined();
      const partial = await get(send, taskId);
      expect(partial.status).toBe('input_required');
      expect(Object.keys(partial.inputRequests as object)).toEqual(['b']);
      await send({
        id: next(),
        method: 'tasks/update',
        params: { taskId, inputResponses: { b: { action: 'accept', content: { name: 'Bob' } } } },
      });
      const done = await until(send, taskId, 'completed');
      expect(done.result).toMatchObject({ content: [{ text: 'Ann+Bob state={"round":1}' }] });
    });

    it('an expired task is gone: tasks/get answers -32602', async () => {
      const taskId = (await call(send, 'short')).result!.taskId as string;
      expect(await until(send, taskId, 'completed')).toMatchObject({ ttlMs: 800 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const gone = await send({ id: next(), method: 'tasks/get', params: { taskId } });
      expect(gone.error?.code).toBe(-32602);
    });

    it('an unknown task is -32602; tasks/result and tasks/list do not exist', async () => {
      expect((await send({ id: next(), method: 'tasks/get', params: { taskId: 'no-such-task' } })).error?.code).toBe(
        -32602,
      );
      expect((await send({ id: next(), method: 'tasks/cancel', params: { taskId: 'no-such-task' } })).error?.code).toBe(
        -32602,
      );
      expect((await send({ id: next(), method: 'tasks/list', params: {} })).error?.code).toBe(-32601);
    });

    it('many tasks at once all complete, each with its own id and result', async () => {
      const handles = await Promise.all(
        Array.from({ length: 40 }, (_, i) => call(send, 'build', { project: `p${i}` })),
      );
      const taskIds = handles.map((h) => h.result!.taskId as string);
      expect(new Set(taskIds).size).toBe(40);
      const done = await Promise.all(taskIds.map((id) => until(send, id, 'completed')));
      done.forEach((task, i) =>
        expect(task.result).toMatchObject({ content: [{ text: `built p${i} in task ${taskIds[i]}` }] }),
      );
    });
  });
}

it("the generated project's own tests pass (contract test included)", async () => {
  const tests = await run(
    process.execPath,
    ['--test', 'test/generated/contract.test.js'],
    path.join(dir, 'dist'),
    120_000,
    { ...process.env, TASKS_LOG: log },
  );
  expect(tests.code, tests.stdout + tests.stderr).toBe(0);
}, 150_000);

describe('2026-07-28', () => {
  taskChecks('over HTTP', async () => modernHttp());
  let wire: Stdio;
  taskChecks('over stdio', async () => {
    wire = new Stdio();
    return modernStdio(wire);
  });
  afterAll(() => wire?.close());

  it('server/discover advertises the extension under capabilities.extensions', async () => {
    const discover = await modernHttp()({ id: next(), method: 'server/discover', params: {} });
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [EXT]: {} } });
    expect(discover.result?.capabilities).not.toHaveProperty('tasks');
  });

  it('input before the task: the first round answers input_required, the answer round returns the task', async () => {
    const send = modernHttp();
    const first = await call(send, 'deploy');
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { sure: { method: 'elicitation/create' } },
    });
    expect(first.result).not.toHaveProperty('taskId');
    const second = await call(
      send,
      'deploy',
      {},
      { inputResponses: { sure: { action: 'accept', content: { ok: true } } } },
    );
    expect(second.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(second.result).not.toHaveProperty('requestState');
    const done = await until(send, second.result!.taskId as string, 'completed');
    expect(done.result).toMatchObject({ content: [{ text: 'deployed=true task=yes' }] });
  });

  it('without the extension: optional tools answer synchronously, required ones and tasks/* are -32021', async () => {
    const send = modernHttp(false);
    const sync = await call(send, 'build', { project: 'plain' });
    expect(sync.result).toMatchObject({ content: [{ text: 'built plain synchronously' }] });
    expect(sync.result?.resultType).toBe('complete');
    const required = await call(send, 'deploy');
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect((await send({ id: next(), method, params: { taskId: 'x', inputResponses: {} } })).error?.code).toBe(
        -32021,
      );
    }
    // Declared on one request only: that call is a task.
    const optIn = await call(send, 'build', { project: 'one' }, { _meta: envelope(true) });
    expect(optIn.result).toMatchObject({ resultType: 'task' });
  });
});

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

/** The task as tasks/get shows it (less its result's `resultType`): what notifications/tasks carries. */
async function view(send: Send, taskId: string): Promise<Record<string, unknown>> {
  const { resultType, ...task } = await get(send, taskId);
  void resultType;
  return task;
}

function listenRequest(id: number, taskIds: unknown[], extension = true): Omit<Message, 'jsonrpc'> {
  return { id, method: 'subscriptions/listen', params: { notifications: { taskIds }, _meta: envelope(extension) } };
}

async function httpListen(id: number, taskIds: unknown[], extension = true) {
  const abort = new AbortController();
  const res = await fetch(http.url, {
    method: 'POST',
    signal: abort.signal,
    headers: { ...ACCEPT, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', ...listenRequest(id, taskIds, extension) }),
  });
  return { res, abort };
}

describe('2026-07-28 status notifications (subscriptions/listen with taskIds)', () => {
  it("over HTTP: the ack lists the caller's tasks it agreed to; each status change is pushed as notifications/tasks", async () => {
    const send = modernHttp();
    const taskId = (await call(send, 'wait')).result!.taskId as string;
    const id = next();
    const { res, abort } = await httpListen(id, [taskId, 'no-such-task']);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = sseMessages(res);
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: id } },
    });
    expect((await send({ id: next(), method: 'tasks/cancel', params: { taskId } })).result).toMatchObject({
      resultType: 'complete',
    });
    const note = await stream.next();
    expect(note).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...(await view(send, taskId)), _meta: { [SUBSCRIPTION]: id } },
    });
    expect(note.params).toMatchObject({ taskId, status: 'cancelled' });
    abort.abort();
  });

  it('over HTTP: completion is pushed with the result inlined', async () => {
    const send = modernHttp();
    await call(send, 'deploy');
    const second = await call(
      send,
      'deploy',
      {},
      { inputResponses: { sure: { action: 'accept', content: { ok: true } } } },
    );
    const taskId = second.result!.taskId as string;
    const id = next();
    const { res, abort } = await httpListen(id, [taskId]);
    const stream = sseMessages(res);
    expect((await stream.next()).params).toEqual({
      notifications: { taskIds: [taskId] },
      _meta: { [SUBSCRIPTION]: id },
    });
    const done = await stream.next();
    expect(done).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...(await view(send, taskId)), _meta: { [SUBSCRIPTION]: id } },
    });
    expect(done.params).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'deployed=true task=yes' }] },
    });
    abort.abort();
  });

  it('over HTTP: taskIds without the extension declared is -32021 naming it; no stream', async () => {
    const id = next();
    const { res } = await httpListen(id, ['x'], false);
    expect(await answerOf(res, id)).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32021,
        message: expect.stringContaining(EXT),
        data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
      },
    });
  });

  it('over stdio: the same ack and notifications, stamped with the subscription id; a cancel of the listen stops them', async () => {
    const wire = new Stdio();
    try {
      const send = modernStdio(wire);
      const taskId = (await call(send, 'wait')).result!.taskId as string;
      const id = next();
      wire.write(listenRequest(id, [taskId, 'no-such-task']));
      const ack = await wire.seen((m) => m.method === 'notifications/subscriptions/acknowledged');
      expect(ack).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: id } },
      });
      await send({ id: next(), method: 'tasks/cancel', params: { taskId } });
      const note = await wire.seen((m) => m.method === 'notifications/tasks');
      expect(note).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tasks',
        params: { ...(await view(send, taskId)), _meta: { [SUBSCRIPTION]: id } },
      });
      // Cancelled listen: a later task's change is not pushed.
      wire.write({ method: 'notifications/cancelled', params: { requestId: id } });
      const other = (await call(send, 'wait')).result!.taskId as string;
      await send({ id: next(), method: 'tasks/cancel', params: { taskId: other } });
      await until(send, other, 'cancelled');
      const refused = next();
      wire.write(listenRequest(refused, ['x'], false));
      expect((await wire.seen((m) => m.id === refused)).error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
      });
      // Answered after the other task's change: had it been pushed, it would be here.
      expect(
        wire
          .messages()
          .filter((m) => m.method === 'notifications/tasks')
          .map((m) => m.params?.taskId),
      ).toEqual([taskId]);
    } finally {
      wire.close();
    }
  });
});

describe('2025-11-25 (extension declared at initialize)', () => {
  taskChecks('over an HTTP session', async () => (await legacyHttp()).send);
  let wire: Stdio;
  taskChecks('over stdio', async () => {
    wire = new Stdio();
    return legacyStdio(wire);
  });
  afterAll(() => wire?.close());

  it('tools/list shows execution.taskSupport', async () => {
    const { send } = await legacyHttp();
    const tools = (await send({ id: next(), method: 'tools/list', params: {} })).result!.tools as {
      name: string;
      execution?: unknown;
    }[];
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.execution]));
    expect(byName).toMatchObject({
      build: { taskSupport: 'optional' },
      deploy: { taskSupport: 'required' },
      quick: undefined,
    });
  });

  it('a task outlives the session that created it', async () => {
    const first = await legacyHttp();
    const taskId = (await call(first.send, 'build', { project: 'kept' })).result!.taskId as string;
    await first.close();
    const second = await legacyHttp();
    expect((await until(second.send, taskId, 'completed')).result).toMatchObject({
      content: [{ text: `built kept in task ${taskId}` }],
    });
  });

  it('over an HTTP session: status changes go to the session that created the task (its GET stream), not to others', async () => {
    const owner = await legacyHttp();
    const stranger = await legacyHttp();
    const streamOf = async (headers: Record<string, string>) => {
      const res = await fetch(http.url, { method: 'GET', headers: { ...headers, Accept: 'text/event-stream' } });
      expect(res.status).toBe(200);
      return sseMessages(res);
    };
    const mine = await streamOf(owner.headers);
    const theirs = await streamOf(stranger.headers);
    const taskId = (await call(owner.send, 'wait')).result!.taskId as string;
    await owner.send({ id: next(), method: 'tasks/cancel', params: { taskId } });
    expect(await mine.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: await view(owner.send, taskId),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(theirs.pending()).toEqual([]);
    await owner.close();
    await stranger.close();
  });

  it('over stdio: status changes are pushed to the connection that created the task', async () => {
    const wire = new Stdio();
    try {
      const send = await legacyStdio(wire);
      const taskId = (await call(send, 'wait')).result!.taskId as string;
      await send({ id: next(), method: 'tasks/cancel', params: { taskId } });
      const note = await wire.seen((m) => m.method === 'notifications/tasks');
      expect(note).toEqual({ jsonrpc: '2.0', method: 'notifications/tasks', params: await view(send, taskId) });
    } finally {
      wire.close();
    }
  });

  it('a session without the extension gets plain results and -32021', async () => {
    const { send } = await legacyHttp(false);
    expect((await call(send, 'build', { project: 'plain' })).result).toMatchObject({
      content: [{ text: 'built plain synchronously' }],
    });
    expect((await call(send, 'deploy')).error?.code).toBe(-32021);
    expect((await send({ id: next(), method: 'tasks/get', params: { taskId: 'x' } })).error?.code).toBe(-32021);
  });
});

describe('a quota of tasks per principal (MCP_MAX_TASKS_PER_PRINCIPAL=2), in memory', () => {
  const TOKENS = { alice: 'token-of-alice-0123456789', bob: 'token-of-bob-0123456789' };
  let quota: Awaited<ReturnType<typeof startHttpServer>>;

  beforeAll(async () => {
    const quotaDir = scratch('tasks-e2e-quota');
    await buildTasksProject(quotaDir, { tokensEnv: 'TASKS_TOKENS' });
    quota = await startHttpServer(quotaDir, {
      TASKS_TOKENS: `alice:${TOKENS.alice},bob:${TOKENS.bob}`,
      MCP_MAX_TASKS_PER_PRINCIPAL: '2',
      TASKS_LOG: log,
    });
  }, 180_000);
  afterAll(() => quota?.stop());

  /** A 2026-07-28 tools/call of `wait` as `token`. */
  const modernCall = async (token: string): Promise<Message> => {
    const id = next();
    const res = await fetch(quota.url, {
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
        params: { name: 'wait', arguments: {}, _meta: envelope(true) },
      }),
    });
    return answerOf(res, id);
  };

  it('through the SDK client: a caller holding its quota of running tasks is refused with -32000 naming it; another caller still creates tasks', async () => {
    const alice = await tasksClient(quota.url, TOKENS.alice);
    const bob = await tasksClient(quota.url, TOKENS.bob);
    try {
      const mine = [await startTask(alice, 'wait'), await startTask(alice, 'wait')];
      const refused = alice.callTool({ name: 'wait', arguments: {} });
      await expect(refused).rejects.toMatchObject({
        code: -32000,
        message: expect.stringContaining('too many tasks running for this caller (at most 2 at once)'),
        data: { limit: 2, scope: 'principal' },
      });
      // Refused on 2026-07-28 too, with the same error.
      expect((await modernCall(TOKENS.alice)).error).toEqual({
        code: -32000,
        message: 'too many tasks running for this caller (at most 2 at once): wait for one to finish, or cancel one',
        data: { limit: 2, scope: 'principal' },
      });
      const theirs = await startTask(bob, 'wait');
      expect(await getTask(bob, theirs)).toMatchObject({ taskId: theirs, status: 'working' });
      const modern = await modernCall(TOKENS.bob);
      expect(modern.result).toMatchObject({ resultType: 'task', status: 'working' });
      // Alice's tasks run on; a cancelled one makes room again, evicted for her next one.
      expect(await getTask(alice, mine[0]!)).toMatchObject({ status: 'working' });
      await cancelTask(alice, mine[0]!);
      const third = await startTask(alice, 'wait');
      await expect(getTask(alice, mine[0]!)).rejects.toMatchObject({ code: -32602 });
      for (const taskId of [mine[1]!, third]) await cancelTask(alice, taskId);
      for (const taskId of [theirs, modern.result!.taskId as string]) await cancelTask(bob, taskId);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
