/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): a tool declared with
 * `execution.taskSupport` answers `tools/call` with a task handle (`resultType: "task"`) when the
 * client declares the extension (on the request, or at initialize on 2025 sessions), and runs its
 * handler in the background. `tasks/get` reports it, `tasks/update` answers its input requests,
 * `tasks/cancel` aborts it through `ctx.signal`. The handler is the one a synchronous call runs.
 * @see https://modelcontextprotocol.io/seps/2663-tasks-extension
 */
import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';

import {
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  isInputRequiredResult,
  type JSONRPCMessage,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type RegisteredTool,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';

import type { TaskContext } from './handlers.js';
import { elicitedContentProblem, requestedSchemas } from './input.js';
import { addListenTopic } from './listen-topics.js';
import { principalOf, verifyRequestState } from './request-state.js';
import { log } from './request-log.js';
import { TASK_CONTEXT } from './runtime.js';
import { compiledOnFirstUse } from './schemas.js';
import { decorate } from './sdk-handlers.js';
import { MAX_TASK_RESULT_BYTES, MAX_TASKS, MAX_TASKS_PER_PRINCIPAL, numberSetting } from './settings.js';
import {
  DEFAULT_MAX_TASK_RESULT_BYTES,
  DEFAULT_MAX_TASKS,
  DEFAULT_MAX_TASKS_PER_PRINCIPAL,
  isTerminal,
  MemoryTaskStore,
  type TaskLimits,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
  TaskStoreFullError,
} from './task-store.js';

export {
  MemoryTaskStore,
  type TaskLimits,
  type TaskRecord,
  type TaskStore,
  TaskStoreFullError,
} from './task-store.js';
export { type TaskTransport, taskTransport } from './listen-topics.js';
import { registeredTool } from './tools.js';

/** The extension's identifier, under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The environment variable bounding the default store (tasks kept at once; default 10000). */
export const MAX_TASKS_ENV = MAX_TASKS.name;
/** The environment variable bounding the tasks one principal keeps at once (default 100). */
export const MAX_TASKS_PER_PRINCIPAL_ENV = MAX_TASKS_PER_PRINCIPAL.name;
/** The environment variable bounding the bytes of a task's result (default 4 MiB). */
export const MAX_TASK_RESULT_BYTES_ENV = MAX_TASK_RESULT_BYTES.name;

/** How one tool runs as a task: the manifest's `execution`, defaults resolved. */
export interface TaskPolicy {
  taskSupport: 'optional' | 'required';
  ttlMs: number;
  pollIntervalMs: number;
  inputBeforeTask: boolean;
}

let store: TaskStore | undefined;
let defaultStore: MemoryTaskStore | undefined;
let configured: TaskLimits = {};

/** The task store: the in-memory default unless `setTaskStore()` gave another. */
export function taskStore(): TaskStore {
  return (store ??= defaultStore = new MemoryTaskStore(taskLimits()));
}

/** Replaces the task store (before the server serves: tasks are not moved); undefined: the default. */
export function setTaskStore(next: TaskStore | undefined): void {
  store = next;
}

/**
 * Sets the limits of the tasks extension over the environment's (before the server serves): the
 * default store and, with `REDIS_URL`, the shared one are made with them.
 */
export function setTaskLimits(limits: TaskLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new TypeError(`setTaskLimits: ${name} must be a positive integer, not ${value}`);
  }
  configured = { ...limits };
  // A default store made before has the old limits: the next use makes another.
  if (defaultStore && store === defaultStore) {
    defaultStore.close();
    store = defaultStore = undefined;
  }
}

/** The limits in force: `setTaskLimits()`, else the environment, else the defaults. */
export function taskLimits(): Required<TaskLimits> {
  return {
    maxTasks: configured.maxTasks ?? numberSetting(MAX_TASKS) ?? DEFAULT_MAX_TASKS,
    maxTasksPerPrincipal:
      configured.maxTasksPerPrincipal ?? numberSetting(MAX_TASKS_PER_PRINCIPAL) ?? DEFAULT_MAX_TASKS_PER_PRINCIPAL,
    maxResultBytes: configured.maxResultBytes ?? numberSetting(MAX_TASK_RESULT_BYTES) ?? DEFAULT_MAX_TASK_RESULT_BYTES,
  };
}

/**
 * The refusal of a task the store has no room for: -32000, naming the limit (in `data` too).
 * Neither the tasks extension (SEP-2663) nor MCP defines a code for a resource limit, and the
 * SDK has none: -32602 would blame the request's params and -32603 report a fault of the server,
 * where JSON-RPC keeps -32000 to -32099 for errors a server defines (this runtime answers its
 * 503s with -32000 too).
 */
export const TASK_LIMIT_ERROR = -32000;

function refusal(error: TaskStoreFullError): ProtocolError {
  return new ProtocolError(TASK_LIMIT_ERROR, error.message, {
    ...(error.limit !== undefined ? { limit: error.limit } : {}),
    scope: error.scope,
  });
}

/** Why the extension does not keep `value` (a result, an error, input requests), if it does not. */
function unkept(value: unknown, what: string): string | undefined {
  const max = taskLimits().maxResultBytes;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return `the task's ${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most values need no count.
  if (json === undefined || json.length <= max / 3) return undefined;
  const bytes = Buffer.byteLength(json);
  return bytes > max ? `the task's ${what} is ${bytes} bytes, more than the ${max} a task keeps` : undefined;
}

/**
 * How tasks reach the other replicas of this server (redis-tasks.ts); unset in one process. The
 * handler of a task runs on the replica that created it (its `runner`): status changes are
 * published to every replica, and tasks/update and tasks/cancel are forwarded to the runner.
 */
export interface TaskReplicas {
  /** This replica's id, stored as the runner of the tasks it creates. */
  readonly replica: string;
  /** Hands a status change to `deliverStatus` on every replica, this one included. */
  publish(task: DetailedTask, owner: string): Promise<void>;
  /** Runs `updateOnRunner` / `cancelOnRunner` on `runner` and returns when it has (its error rethrown). */
  forward(runner: string, request: ForwardedRequest): Promise<void>;
  /** Whether `runner` is still running (a killed replica's tasks never finish). */
  isAlive(runner: string): Promise<boolean>;
}

/** What a replica forwards to a task's runner. */
export type ForwardedRequest =
  | { method: 'tasks/update'; taskId: string; inputResponses: Record<string, unknown> }
  | { method: 'tasks/cancel'; taskId: string };

let replicas: TaskReplicas | undefined;

/** Shares tasks with other replicas (before the server serves); undefined: this process only. */
export function setTaskReplicas(next: TaskReplicas | undefined): void {
  replicas = next;
}

/** The runner of `task` when it is another replica (tasks/update and tasks/cancel go there). */
function elsewhere(task: TaskRecord): string | undefined {
  return replicas && task.runner && task.runner !== replicas.replica ? task.runner : undefined;
}

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** Whether the request's client declared the extension: on the request (2026-07-28) or at initialize. */
export function declaresTasks(sdk: ServerContext, server: McpServer): boolean {
  const modern = sdk.mcpReq.envelope?.[CLIENT_CAPABILITIES as never] as ClientCapabilities | undefined;
  const capabilities = modern ?? server.server.getClientCapabilities();
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension (SEP-2575 "Missing Required Capabilities"). */
function missingExtension(what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"]`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
}

// ---- subscriptions/listen: `notifications.taskIds` ---------------------------------------------

/**
 * A listen request naming `taskIds` (and declaring the extension, else -32021) is agreed for those
 * of the caller's tasks that exist; the acknowledgement lists them, and each status change of
 * one is pushed as `notifications/tasks` with the task as tasks/get shows it.
 */
addListenTopic(async (params, principal) => {
  const filter = params.notifications as Record<string, unknown> | undefined;
  const asked: unknown = filter?.taskIds;
  if (!Array.isArray(asked)) return undefined;
  const meta = params._meta as Record<string, ClientCapabilities | undefined> | undefined;
  if (meta?.[CLIENT_CAPABILITIES]?.extensions?.[TASKS_EXTENSION] === undefined) {
    const error = missingExtension('subscriptions/listen with taskIds');
    return { error: { code: error.code, message: error.message, data: error.data } };
  }
  const agreed = new Set<string>();
  for (const taskId of new Set(asked)) {
    if (typeof taskId !== 'string') continue;
    const task = await taskStore().get(taskId);
    if (task && task.owner === principal) agreed.add(taskId);
  }
  return {
    ack: { taskIds: [...agreed] },
    subscribe: (send) =>
      onTaskStatus((task, owner) => {
        if (owner === principal && agreed.has(task.taskId)) send('notifications/tasks', task);
      }),
  };
});

// ---- Runs (process-local: the handler, its abort signal, the answers of its round) ------------

interface Run {
  taskId: string;
  /** The instance and the tool the rounds run on (`runnerOf`). */
  server: McpServer;
  tool: RegisteredTool;
  name: string;
  args: unknown;
  /** What the task keeps of the request that created it (`detach`). */
  sdk: ServerContext;
  controller: AbortController;
  /** This round's answers so far, and the keys still waiting for one. */
  responses: Record<string, unknown>;
  pending: Set<string>;
  /** The signed state the last round asked with, echoed into the next round. */
  requestState: string | undefined;
  rounds: number;
  expiry?: NodeJS.Timeout;
}

const runs = new Map<string, Run>();
const MAX_ROUNDS = 100;

/** The instance a task's rounds run on, and its tool. */
interface Runner {
  server: McpServer;
  tool: RegisteredTool;
}

/** Per server (its policies): the first 2026-07-28 instance that created a task of each tool. */
const modernRunners = new WeakMap<object, Map<string, Runner>>();

/**
 * Where the rounds of a new task run. A 2026-07-28 request has an instance of its own, which a task
 * would keep (with its handlers, tools and closures) for as long as it runs: the instances of one
 * server register the same handler for a tool, so the tasks of a tool run on the first instance
 * that created one. A 2025 connection's instance is the connection's, shared by its tasks.
 */
function runnerOf(era: 'legacy' | 'modern', policies: object, name: string, request: Runner): Runner {
  if (era !== 'modern') return request;
  const runners = modernRunners.get(policies) ?? new Map<string, Runner>();
  modernRunners.set(policies, runners);
  const known = runners.get(name);
  if (known) return known;
  runners.set(name, request);
  return request;
}

// Shared by every task: a closure per task is memory per task.
const nothing = async (): Promise<void> => {};
const noState = (): undefined => undefined;
const answered = async (): Promise<never> => {
  throw new Error('the request was answered with a task: a task asks the client with ctx.ask()');
};

/**
 * What a task keeps of the request that created it: who asked, with what metadata and client
 * capabilities. Not the request (its HTTP request, its transport, the closures of the instance
 * that served it), answered once the task's handle is sent: nothing can be sent on it any more.
 */
function detach(sdk: ServerContext, signal: AbortSignal): ServerContext {
  const { id, method, _meta, envelope } = sdk.mcpReq;
  const mcpReq = {
    id,
    method,
    _meta,
    ...(envelope !== undefined ? { envelope } : {}),
    requestState: noState,
    signal,
    send: answered,
    notify: nothing,
    log: nothing,
    elicitInput: answered,
    requestSampling: answered,
  };
  const authInfo = sdk.http?.authInfo;
  return {
    ...(sdk.sessionId !== undefined ? { sessionId: sdk.sessionId } : {}),
    mcpReq,
    ...(authInfo ? { http: { authInfo } } : {}),
  } as unknown as ServerContext;
}

/** Status changes of tasks, for `notifications/tasks` (subscriptions and 2025 sessions); `owner` is the task's principal. */
export type TaskListener = (task: DetailedTask, owner: string) => void;
const listeners = new Set<TaskListener>();

/** 2025 instances serving the extension: a task they create reports to them (the session or stdio connection). */
const legacyInstances = new WeakSet<McpServer>();
const creators = new Map<string, McpServer>();

/** Pushes `notifications/tasks` to the 2025 connection that created the task, while it is connected (on the replica that holds it). */
function toCreator(task: DetailedTask): void {
  const creator = creators.get(task.taskId);
  if (isTerminal(task.status)) creators.delete(task.taskId);
  if (!creator?.isConnected()) return;
  const notification = { method: 'notifications/tasks', params: task } as unknown as Parameters<
    McpServer['server']['notification']
  >[0];
  void creator.server.notification(notification).catch(() => {});
}

/** Hands a status change (made here or on another replica) to this process's listeners and creator connections. */
export function deliverStatus(task: DetailedTask, owner: string): void {
  toCreator(task);
  for (const listener of listeners) listener(task, owner);
}

/** Calls `listener` on every status change of a task; returns its removal. */
export function onTaskStatus(listener: TaskListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A task as `tasks/get` answers it: the status and what belongs to it (result, error, input requests). */
export type DetailedTask = Record<string, unknown> & { taskId: string; status: TaskStatus };

function detailed(task: TaskRecord): DetailedTask {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    ...(task.status === 'input_required' ? { inputRequests: task.inputRequests ?? {} } : {}),
    ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
    ...(task.status === 'failed' && task.error ? { error: task.error } : {}),
  };
}

/** Updates the task; a status change is announced (not when the task had finished already). */
async function change(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
  const lastUpdatedAt = new Date().toISOString();
  const task = await taskStore().update(taskId, { ...patch, lastUpdatedAt });
  if (task && patch.status !== undefined && task.lastUpdatedAt === lastUpdatedAt) {
    const view = detailed(task);
    if (!replicas) deliverStatus(view, task.owner);
    else {
      // Redis away: this replica's listeners still hear it.
      await replicas.publish(view, task.owner).catch(() => deliverStatus(view, task.owner));
    }
  }
  return task;
}

/** The handler's context in a task: the task's signal and answers; nothing is sent on the finished request. */
function taskContext(taskId: string): TaskContext {
  return {
    id: taskId,
    status: async (message) => void (await change(taskId, { statusMessage: message })),
    progress: async (progress, total, message) =>
      void (await change(taskId, {
        statusMessage: message ?? (total ? `${progress}/${total}` : String(progress)),
      })),
  };
}

function roundContext(run: Run, inputResponses: Record<string, unknown> | undefined, state: unknown): ServerContext {
  const task = taskContext(run.taskId);
  const mcpReq = {
    ...run.sdk.mcpReq,
    signal: run.controller.signal,
    inputResponses,
    requestState: () => state,
    notify: nothing,
    log: nothing,
  };
  return { ...run.sdk, mcpReq, [TASK_CONTEXT]: task } as unknown as ServerContext;
}

/** The state the last round asked with, verified as the SDK verifies an echoed one (-32602 if tampered). */
async function verifiedState(run: Run): Promise<unknown> {
  return run.requestState === undefined ? undefined : verifyRequestState(run.requestState, run.sdk);
}

/** Calls the tool once, as McpServer would (output checked, errors shaped), in the task's context. */
async function callTool(run: Run, sdk: ServerContext): Promise<CallToolResult | InputRequiredResult> {
  const result = await run.tool.executor(run.args, sdk);
  if (isInputRequiredResult(result) || result.isError || !run.tool.outputSchema) return result;
  const checked = await run.tool.outputSchema['~standard'].validate(result.structuredContent);
  if (result.structuredContent === undefined || checked.issues) {
    return errorResult(
      `Output validation error: ${checked.issues?.map((i) => i.message).join('; ') ?? 'no structured content'}`,
    );
  }
  return run.server.server.projectCallToolResult(result, run.tool.outputSchemaJson);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs rounds until the handler returns, fails, asks the client, or the task is cancelled. */
async function runRounds(run: Run, first?: Promise<CallToolResult | InputRequiredResult>): Promise<void> {
  let pending = first;
  while (!run.controller.signal.aborted) {
    let outcome: CallToolResult | InputRequiredResult;
    try {
      if (!pending) {
        const responses = run.rounds > 0 ? run.responses : undefined;
        pending = callTool(run, roundContext(run, responses, await verifiedState(run)));
      }
      outcome = await pending;
    } catch (error) {
      if (run.controller.signal.aborted) return;
      // A protocol error fails the task; any other error is the tool's, as in a synchronous call.
      if (error instanceof ProtocolError) {
        await finish(run, 'failed', {
          error: {
            code: error.code,
            message: error.message,
            ...(error.data !== undefined ? { data: error.data } : {}),
          },
          statusMessage: error.message,
        });
      } else {
        await finish(run, 'completed', {
          result: errorResult(error instanceof Error ? error.message : String(error)) as Record<string, unknown>,
        });
      }
      return;
    }
    pending = undefined;
    if (run.controller.signal.aborted) return;
    if (!isInputRequiredResult(outcome)) {
      await finish(run, 'completed', { result: outcome as Record<string, unknown> });
      return;
    }
    run.rounds += 1;
    if (run.rounds > MAX_ROUNDS) {
      await finish(run, 'failed', {
        error: {
          code: ProtocolErrorCode.InternalError,
          message: `more than ${MAX_ROUNDS} rounds of input`,
        },
      });
      return;
    }
    run.requestState = outcome.requestState;
    run.responses = {};
    const requests = outcome.inputRequests ?? {};
    run.pending = new Set(Object.keys(requests));
    // Only state, nothing to ask: the next round runs at once (as a retry would).
    if (run.pending.size === 0) continue;
    const problem = unkept(requests, 'input requests');
    if (problem) {
      await finish(run, 'failed', tooLarge(problem));
      return;
    }
    await change(run.taskId, { status: 'input_required', inputRequests: { ...requests } });
    return;
  }
}

/** A store that fails while a task runs leaves it as it was; the server goes on. */
function storeFailed(error: unknown): void {
  log('error', `task store: ${(error as Error)?.message ?? String(error)}`);
}

async function finish(run: Run, status: TaskStatus, patch: Partial<TaskRecord>): Promise<void> {
  clearTimeout(run.expiry);
  runs.delete(run.taskId);
  const problem =
    status === 'completed'
      ? unkept(patch.result, 'result')
      : status === 'failed'
        ? unkept(patch.error, 'error')
        : undefined;
  if (problem) {
    log('warn', `task ${run.taskId} of tool ${run.name}: ${problem}`);
    await change(run.taskId, tooLarge(problem));
    return;
  }
  await change(run.taskId, { ...patch, status, inputRequests: undefined });
}

/** A task whose result (or error, or input requests) the extension does not keep fails: the server's fault. */
function tooLarge(problem: string): Partial<TaskRecord> {
  return {
    status: 'failed',
    error: { code: ProtocolErrorCode.InternalError, message: problem },
    statusMessage: problem,
    inputRequests: undefined,
  };
}

/**
 * Creates the task (stored before its handle is returned, so tasks/get finds it at once); a store
 * without room for it refuses with the limit (-32000). `server` served the request; the rounds
 * run on `runner`.
 */
async function createTask(
  server: McpServer,
  runner: Runner,
  name: string,
  args: unknown,
  sdk: ServerContext,
  policy: TaskPolicy,
  controller: AbortController,
): Promise<{ run: Run; task: TaskRecord }> {
  const now = Date.now();
  const stamp = new Date(now).toISOString();
  const task: TaskRecord = {
    taskId: randomUUID(),
    owner: principalOf(sdk.http?.authInfo) ?? '',
    tool: name,
    status: 'working',
    createdAt: stamp,
    lastUpdatedAt: stamp,
    ttlMs: policy.ttlMs,
    pollIntervalMs: policy.pollIntervalMs,
    expiresAt: now + policy.ttlMs,
    ...(replicas ? { runner: replicas.replica } : {}),
  };
  try {
    await taskStore().create(task);
  } catch (error) {
    if (error instanceof TaskStoreFullError) throw refusal(error);
    throw error;
  }
  if (legacyInstances.has(server) && declaresTasks(sdk, server)) creators.set(task.taskId, server);
  const run: Run = {
    taskId: task.taskId,
    server: runner.server,
    tool: runner.tool,
    name,
    args,
    sdk: detach(sdk, controller.signal),
    controller,
    responses: {},
    pending: new Set(),
    requestState: undefined,
    rounds: 0,
    // Past its lifetime the task is gone: a handler still running is stopped.
    expiry: setTimeout(() => {
      runs.delete(task.taskId);
      creators.delete(task.taskId);
      controller.abort(new Error('task expired'));
    }, policy.ttlMs).unref(),
  };
  runs.set(task.taskId, run);
  return { run, task };
}

function taskHandle(task: TaskRecord): Record<string, unknown> {
  return {
    resultType: 'task',
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

// ---- The requests ----------------------------------------------------------------------------

const taskIdParams = compiledOnFirstUse<{ taskId: string }>({
  type: 'object',
  properties: { taskId: { type: 'string' } },
  required: ['taskId'],
});

/** The caller's task, or -32602 as for an unknown one (another caller's task is not theirs to see). */
async function ownTask(taskId: string, sdk: ServerContext): Promise<TaskRecord> {
  const task = await taskStore().get(taskId);
  if (!task || task.owner !== (principalOf(sdk.http?.authInfo) ?? '')) throw unknownTask(taskId);
  return orphaned(task);
}

/** A task whose runner stopped (killed replica) never finishes: it is failed, for every replica to see. */
async function orphaned(task: TaskRecord): Promise<TaskRecord> {
  const runner = elsewhere(task);
  if (!runner || isTerminal(task.status) || (await replicas!.isAlive(runner))) return task;
  const message = `the server replica running this task (${runner.slice(0, 8)}) stopped before it finished`;
  const failed = await change(task.taskId, {
    status: 'failed',
    error: { code: ProtocolErrorCode.InternalError, message },
    statusMessage: message,
    inputRequests: undefined,
  });
  return failed ?? task;
}

/** Fails the task if its runner stopped (a sweep of replicas: listeners hear it without a poll). */
export async function failIfOrphaned(taskId: string): Promise<void> {
  const task = await taskStore().get(taskId);
  if (task) await orphaned(task);
}

/** tasks/update on the task's runner: checks the answers, keeps them, runs the next round once all are in. */
export async function updateOnRunner(taskId: string, responses: Record<string, unknown>): Promise<void> {
  const task = await taskStore().get(taskId);
  if (task) await applyUpdate(task, responses);
}

/** tasks/cancel on the task's runner: aborts the handler's ctx.signal and marks the task cancelled. */
export async function cancelOnRunner(taskId: string): Promise<void> {
  const task = await taskStore().get(taskId);
  if (task) await applyCancel(task);
}

async function applyUpdate(task: TaskRecord, responses: Record<string, unknown>): Promise<void> {
  const run = runs.get(task.taskId);
  if (task.status !== 'input_required' || !run) return;
  // Elicited content is checked against the form it answers before anything is kept.
  const schemas = requestedSchemas(task.inputRequests as InputRequiredResult['inputRequests']);
  for (const [key, schema] of Object.entries(schemas)) {
    const response = responses[key] as { action?: unknown; content?: unknown } | undefined;
    if (!run.pending.has(key) || response?.action !== 'accept' || response.content === undefined) continue;
    const problem = elicitedContentProblem(schema, response.content);
    if (problem)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `inputResponses.${key}: the accepted content does not match the requested schema: ${problem}`,
      );
  }
  // Answers to keys the task is not waiting for are ignored; the rest wait for the round.
  let answered = false;
  for (const [key, response] of Object.entries(responses)) {
    if (!run.pending.delete(key)) continue;
    run.responses[key] = response;
    answered = true;
  }
  if (!answered) return;
  if (run.pending.size > 0) {
    const left = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => run.pending.has(key)));
    await change(task.taskId, { inputRequests: left });
    return;
  }
  await change(task.taskId, { status: 'working', inputRequests: undefined });
  runRounds(run).catch(storeFailed);
}

async function applyCancel(task: TaskRecord): Promise<void> {
  // Cancelling a finished task changes nothing, and is acknowledged the same way.
  if (isTerminal(task.status)) return;
  const run = runs.get(task.taskId);
  if (run) {
    clearTimeout(run.expiry);
    runs.delete(task.taskId);
    run.controller.abort(new Error('task cancelled'));
  }
  await change(task.taskId, {
    status: 'cancelled',
    inputRequests: undefined,
    statusMessage: 'Cancelled by the client',
  });
}

/**
 * Serves the extension on one instance: advertises it, answers tasks/get, tasks/update and
 * tasks/cancel, and runs the tools in `policies` as tasks. Called before the tools are registered
 * (sdk-handlers.ts).
 */
export function installTasks(
  server: McpServer,
  era: 'legacy' | 'modern',
  policies: Readonly<Record<string, TaskPolicy>>,
  modules: Readonly<Record<string, () => unknown>> = {},
): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  if (era === 'legacy') legacyInstances.add(server);

  server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async (params, sdk) => {
    if (!declaresTasks(sdk, server)) throw missingExtension('tasks/get');
    return detailed(await ownTask(params.taskId, sdk)) as never;
  });

  // The SDK lifts `inputResponses` out of the params (as for any request) into ctx.mcpReq.
  server.server.setRequestHandler('tasks/update', { params: taskIdParams }, async (params, sdk) => {
    if (!declaresTasks(sdk, server)) throw missingExtension('tasks/update');
    const task = await ownTask(params.taskId, sdk);
    const inputResponses = sdk.mcpReq.inputResponses ?? {};
    const runner = elsewhere(task);
    if (runner && task.status === 'input_required') {
      await replicas!.forward(runner, {
        method: 'tasks/update',
        taskId: task.taskId,
        inputResponses,
      });
    } else await applyUpdate(task, inputResponses);
    return {};
  });

  server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, sdk) => {
    if (!declaresTasks(sdk, server)) throw missingExtension('tasks/cancel');
    const task = await ownTask(params.taskId, sdk);
    const runner = elsewhere(task);
    if (runner && !isTerminal(task.status)) {
      await replicas!.forward(runner, { method: 'tasks/cancel', taskId: task.taskId });
    } else await applyCancel(task);
    return {};
  });

  // tools/call: a task tool's call answers with the task's handle; every other call goes on to
  // the SDK's handler. The SDK gives a tools/call result without content an empty one, which
  // comes off the handle on its way out (a handle is not a CallToolResult).
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(handleOnly(message), options);
    await connect(transport);
  };
  decorate(server, 'tools/call', (sdkToolsCall) => async (request, sdk) => {
    const name = request.params?.name;
    const policy = typeof name === 'string' && Object.hasOwn(policies, name) ? policies[name] : undefined;
    const tool = policy ? registeredTool(server, name as string) : undefined;
    if (!policy || !tool?.enabled) return sdkToolsCall(request, sdk);
    if (!declaresTasks(sdk, server)) {
      if (policy.taskSupport === 'required') throw missingExtension(`Tool ${name}`);
      return sdkToolsCall(request, sdk);
    }
    // Invalid arguments are answered at once, as for a synchronous call.
    const checked = tool.inputSchema
      ? await tool.inputSchema['~standard'].validate(request.params?.arguments ?? {})
      : { value: request.params?.arguments };
    if (checked.issues) return sdkToolsCall(request, sdk);
    const args = checked.value;
    const controller = new AbortController();
    if (policy.inputBeforeTask && era === 'modern') {
      // Loading the handler's module is no wait of the handler's own.
      await modules[name as string]?.();
      const runner = runnerOf(era, policies, name as string, { server, tool });
      return beforeTask(server, tool, runner, name as string, args, sdk, policy, controller);
    }
    const runner = runnerOf(era, policies, name as string, { server, tool });
    const { run, task } = await createTask(server, runner, name as string, args, sdk, policy, controller);
    runRounds(run).catch(storeFailed);
    return taskHandle(task);
  });
}

/** A task handle as it goes out: without the empty `content` the SDK gives it. */
function handleOnly(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result?.resultType !== 'task' || !Array.isArray(result.content) || result.content.length) return message;
  const { content: _empty, ...handle } = result;
  return { ...message, result: handle } as JSONRPCMessage;
}

/**
 * `inputBeforeTask`: the round runs in the request until it first waits on something (a timer,
 * I/O). Asking before that answers the request (input_required, as any multi-round call);
 * otherwise the task is created then, and the round goes on as the task.
 */
async function beforeTask(
  server: McpServer,
  tool: RegisteredTool,
  runner: Runner,
  name: string,
  args: unknown,
  sdk: ServerContext,
  policy: TaskPolicy,
  controller: AbortController,
): Promise<unknown> {
  // Decoded: the SDK verified it (ServerOptions.requestState.verify) before the handler ran.
  const state = sdk.mcpReq.requestState();
  // The task's id is only known once the round goes on as a task: until then, no ctx.task.
  let task: TaskContext | undefined;
  const probe: Run = {
    taskId: '',
    server,
    tool,
    name,
    args,
    sdk,
    controller,
    responses: {},
    pending: new Set(),
    requestState: undefined,
    rounds: 0,
  };
  // Once the request is answered, nothing more is sent on it.
  const { notify, log } = sdk.mcpReq;
  const mcpReq = {
    ...sdk.mcpReq,
    signal: controller.signal,
    requestState: () => state,
    notify: (...a: Parameters<typeof notify>) => (task ? Promise.resolve() : notify(...a)),
    log: (...a: Parameters<typeof log>) => (task ? Promise.resolve() : log(...a)),
  };
  const context = { ...sdk, mcpReq };
  Object.defineProperty(context, TASK_CONTEXT, { get: () => task });
  const round = callTool(probe, context as ServerContext);
  // Settled before the event loop turns: the round never waited.
  const early = await Promise.race([
    round.then(
      (value) => ({ value }),
      () => undefined,
    ),
    new Promise<undefined>((resolve) => setImmediate(resolve, undefined)),
  ]);
  if (early && isInputRequiredResult(early.value)) return early.value;
  let created: { run: Run; task: TaskRecord };
  try {
    created = await createTask(server, runner, name, args, sdk, policy, controller);
  } catch (error) {
    // No task to go on as: the round stops.
    controller.abort(error);
    throw error;
  }
  task = taskContext(created.task.taskId);
  runRounds(created.run, round).catch(storeFailed);
  return taskHandle(created.task);
}
