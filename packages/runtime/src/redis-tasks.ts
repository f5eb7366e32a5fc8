// Tasks of replicas sharing one Redis (REDIS_URL): the store in Redis, status changes published
// to every replica, and tasks/update and tasks/cancel forwarded to the replica running the handler.
import { createHash } from 'node:crypto';

import { ProtocolError } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';

import type { RedisHub } from './redis.js';
import {
  DEFAULT_MAX_TASKS,
  DEFAULT_MAX_TASKS_PER_PRINCIPAL,
  isTerminal,
  principalFull,
  storeFull,
  type TaskLimits,
  type TaskRecord,
  type TaskStore,
} from './task-store.js';
import {
  cancelOnRunner,
  type DetailedTask,
  deliverStatus,
  failIfOrphaned,
  type ForwardedRequest,
  setTaskReplicas,
  setTaskStore,
  taskLimits,
  updateOnRunner,
} from './tasks.js';

const TOPIC = 'tasks';
const FORWARD = 'tasks.forward';
/** How long a forwarded tasks/update or tasks/cancel waits for the runner. */
const FORWARD_TIMEOUT_MS = 5000;
/** How often a replica looks for tasks whose runner stopped. */
const ORPHAN_SWEEP_MS = 5000;

// KEYS: the task, the index of all tasks (score: expiresAt), the index of finished ones (score:
// createdAt), the index of the principal's tasks (score: expiresAt). Expired entries leave the
// indexes first. A principal at its quota evicts its own oldest finished task, or is refused (-1);
// entries of its index whose task another create evicted are pruned then. A full store evicts the
// oldest finished task, or refuses (0). Index keys live as long as their longest-lived task.
const CREATE = `
local function drop(id)
  redis.call('DEL', ARGV[7] .. id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[6])) do drop(id) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[6])
local room = false
if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[8]) then
  local oldest, oldestAt
  for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
    if redis.call('EXISTS', ARGV[7] .. id) == 0 then
      redis.call('ZREM', KEYS[4], id)
    else
      local at = tonumber(redis.call('ZSCORE', KEYS[3], id))
      if at and (not oldestAt or at < oldestAt) then oldest, oldestAt = id, at end
    end
  end
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[8]) then
    if not oldest then return -1 end
    drop(oldest)
    room = true
  end
end
if not room and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
  if not oldest then return 0 end
  drop(oldest)
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
for i = 2, 4, 2 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return 1
`;

// Compare-and-set: the record is replaced only if it is still the one the update was made from
// (JSON merged in JavaScript, so results keep their exact shape); 0: changed meanwhile, -1: gone.
const UPDATE = `
local current = redis.call('GET', KEYS[1])
if not current then return -1 end
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
  local left = redis.call('PTTL', KEYS[1])
  if redis.call('PTTL', KEYS[3]) < left then redis.call('PEXPIRE', KEYS[3], left) end
end
return 1
`;

interface TaskCommands {
  mcpTaskCreate(...args: (string | number)[]): Promise<number>;
  mcpTaskUpdate(...args: (string | number)[]): Promise<number>;
}

/**
 * Tasks in Redis, for every replica to see: `task:<id>` holds the record (JSON) and expires with
 * the task; `tasks`, `tasks:finished` and `tasks:owner:<sha1 of the principal>` index them to bound
 * the store as MemoryTaskStore does, atomically for every replica.
 */
export class RedisTaskStore implements TaskStore {
  readonly maxTasks: number;
  readonly maxTasksPerPrincipal: number;

  /** `limits`: the limits, or `maxTasks` alone. */
  constructor(
    private readonly hub: RedisHub,
    limits: TaskLimits | number = {},
    private readonly now: () => number = Date.now,
  ) {
    const { maxTasks, maxTasksPerPrincipal } =
      typeof limits === 'number' ? { maxTasks: limits, maxTasksPerPrincipal: undefined } : limits;
    this.maxTasks = maxTasks ?? DEFAULT_MAX_TASKS;
    this.maxTasksPerPrincipal = maxTasksPerPrincipal ?? DEFAULT_MAX_TASKS_PER_PRINCIPAL;
    hub.client.defineCommand('mcpTaskCreate', { numberOfKeys: 4, lua: CREATE });
    hub.client.defineCommand('mcpTaskUpdate', { numberOfKeys: 3, lua: UPDATE });
  }

  #keys(taskId: string): [string, string, string] {
    return [this.hub.key('task', taskId), this.hub.key('tasks'), this.hub.key('tasks', 'finished')];
  }

  /** The index of one principal's tasks; hashed, as a principal (issuer, subject, client) may be long. */
  #ownerKey(owner: string): string {
    return this.hub.key('tasks', 'owner', createHash('sha1').update(owner).digest('hex'));
  }

  #commands(client: Redis): TaskCommands {
    return client as unknown as TaskCommands;
  }

  async create(task: TaskRecord): Promise<void> {
    const now = this.now();
    const lifetime = Math.max(1, task.expiresAt - now);
    const owner = this.#ownerKey(task.owner);
    const stored = await this.hub.run((client) =>
      this.#commands(client).mcpTaskCreate(
        ...this.#keys(task.taskId),
        owner,
        task.taskId,
        JSON.stringify(task),
        lifetime,
        task.expiresAt,
        this.maxTasks,
        now,
        this.hub.key('task', ''),
        this.maxTasksPerPrincipal,
      ),
    );
    if (stored === -1) throw principalFull(this.maxTasksPerPrincipal);
    if (stored !== 1) throw storeFull(this.maxTasks);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return (await this.#read(taskId))?.task;
  }

  async #read(taskId: string): Promise<{ raw: string; task: TaskRecord } | undefined> {
    const raw = await this.hub.run((client) => client.get(this.hub.key('task', taskId)));
    if (raw === null) return undefined;
    const task = JSON.parse(raw) as TaskRecord;
    return task.expiresAt <= this.now() ? undefined : { raw, task };
  }

  async update(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    // Another replica may change the task between the read and the write: read again and retry.
    for (let attempt = 0; attempt < 20; attempt++) {
      const read = await this.#read(taskId);
      if (!read || isTerminal(read.task.status)) return read?.task;
      // The owner is who created the task, whatever the patch says.
      const next = JSON.stringify({ ...read.task, ...patch, owner: read.task.owner });
      const done = await this.hub.run((client) =>
        this.#commands(client).mcpTaskUpdate(
          ...this.#keys(taskId),
          read.raw,
          next,
          isTerminal(JSON.parse(next).status) ? '1' : '0',
          Date.parse(read.task.createdAt),
          taskId,
        ),
      );
      if (done === 1) return JSON.parse(next) as TaskRecord;
      if (done === -1) return undefined;
    }
    throw new Error(`task ${taskId}: too many concurrent updates`);
  }

  /** The tasks not finished yet. */
  async unfinished(): Promise<TaskRecord[]> {
    const [, all, finished] = this.#keys('');
    const ids = await this.hub.run((client) => client.zdiff(2, all, finished));
    const stored = await Promise.all(ids.map((id) => this.get(id)));
    return stored.filter((task): task is TaskRecord => task !== undefined);
  }

  async delete(taskId: string): Promise<void> {
    const [task, all, finished] = this.#keys(taskId);
    const raw = await this.hub.run((client) => client.get(task));
    const owner = raw === null ? undefined : (JSON.parse(raw) as TaskRecord).owner;
    await this.hub.run((client) => {
      const batch = client.multi().del(task).zrem(all, taskId).zrem(finished, taskId);
      return (owner === undefined ? batch : batch.zrem(this.#ownerKey(owner), taskId)).exec();
    });
  }
}

/** The runner's error as the client would get it on one process (a ProtocolError keeps its code). */
function asProtocolError(error: unknown): unknown {
  const { name, code, message, data } = error as Error & { code?: unknown; data?: unknown };
  if (name !== 'ProtocolError' || typeof code !== 'number') return error;
  return ProtocolError.fromError(code, message, data ?? undefined);
}

/**
 * Shares the tasks of this replica with the others through `hub`: the Redis store, status changes
 * to every replica's listeners and creator sessions, and the runner side of forwarded requests.
 * Returns the removal (this process's tasks only again).
 */
export function shareTasks(hub: RedisHub): () => void {
  const store = new RedisTaskStore(hub, taskLimits());
  setTaskStore(store);
  const unsubscribe = hub.subscribe(TOPIC, (message) => {
    const { task, owner } = message as { task: DetailedTask; owner: string };
    deliverStatus(task, owner);
  });
  let serving = true;
  hub.answer(FORWARD, async (payload) => {
    if (!serving) throw new Error('this replica no longer runs tasks');
    const request = payload as ForwardedRequest;
    if (request.method === 'tasks/update') {
      await updateOnRunner(request.taskId, request.inputResponses);
    } else await cancelOnRunner(request.taskId);
    return null;
  });
  setTaskReplicas({
    replica: hub.replica,
    publish: (task, owner) => hub.publish(TOPIC, { task, owner }),
    async forward(runner, request) {
      try {
        await hub.ask(runner, FORWARD, request, FORWARD_TIMEOUT_MS);
      } catch (error) {
        throw asProtocolError(error);
      }
    },
    isAlive: (runner) => hub.isAlive(runner),
  });
  // A killed replica's tasks are failed even if no client asks about them (Redis away: next time).
  const sweep = setInterval(() => void failOrphans(hub, store).catch(() => {}), ORPHAN_SWEEP_MS).unref();
  return () => {
    clearInterval(sweep);
    serving = false;
    unsubscribe();
    setTaskReplicas(undefined);
    setTaskStore(undefined);
  };
}

async function failOrphans(hub: RedisHub, store: RedisTaskStore): Promise<void> {
  const alive = new Map<string, boolean>();
  for (const { taskId, runner } of await store.unfinished()) {
    if (!runner || runner === hub.replica) continue;
    if (!alive.has(runner)) alive.set(runner, await hub.isAlive(runner));
    if (!alive.get(runner)) await failIfOrphaned(taskId);
  }
}
