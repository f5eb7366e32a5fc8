/** A task's state (tasks extension, SEP-2663). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** What the store keeps of a task: everything `tasks/get` answers, plus its owner and expiry. */
export interface TaskRecord {
  taskId: string;
  /** The principal that created it (`principalOf`), '' without authentication. */
  owner: string;
  /** The tool it runs. */
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** When the task is deleted (epoch milliseconds): createdAt + ttlMs. */
  expiresAt: number;
  /** The input requests still unanswered (status `input_required`). */
  inputRequests?: Record<string, unknown>;
  /** The tool's result (status `completed`). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error (status `failed`). */
  error?: { code: number; message: string; data?: unknown };
  /** The replica whose process runs the handler (replicas sharing a store; unset in one process). */
  runner?: string;
}

/**
 * Where tasks live. Tasks outlive the request and the connection that created them, so the
 * store is per process (or shared by replicas): an implementation backed by a shared database
 * plugs in with `setTaskStore()` without touching handlers. `get` must not return a task past
 * its `expiresAt`.
 */
export interface TaskStore {
  create(task: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `patch` and returns the task as it is now, or undefined when it is gone. A finished
   * task (`isTerminal`) is returned unchanged: its status never changes back.
   */
  update(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined>;
  delete(taskId: string): Promise<void>;
}

/**
 * Thrown by `create` when the store (`scope: 'server'`) or the task's principal
 * (`scope: 'principal'`) holds as many tasks as it may and none of them has finished.
 */
export class TaskStoreFullError extends Error {
  override name = 'TaskStoreFullError';

  constructor(
    message: string,
    /** The limit reached. */
    readonly limit?: number,
    readonly scope: 'server' | 'principal' = 'server',
  ) {
    super(message);
  }
}

/** The store holds `limit` tasks, all still running. */
export function storeFull(limit: number): TaskStoreFullError {
  return new TaskStoreFullError(`too many tasks running (at most ${limit})`, limit, 'server');
}

/** The caller holds `limit` tasks, all still running. */
export function principalFull(limit: number): TaskStoreFullError {
  return new TaskStoreFullError(
    `too many tasks running for this caller (at most ${limit} at once): wait for one to finish, or cancel one`,
    limit,
    'principal',
  );
}

/** Tasks kept at once (`MCP_MAX_TASKS`). */
export const DEFAULT_MAX_TASKS = 10_000;
/** Tasks one principal keeps at once (`MCP_MAX_TASKS_PER_PRINCIPAL`): one caller fills 1% of the store. */
export const DEFAULT_MAX_TASKS_PER_PRINCIPAL = 100;

/** Bytes of a task's result (or error, or input requests) kept (`MCP_MAX_TASK_RESULT_BYTES`). */
export const DEFAULT_MAX_TASK_RESULT_BYTES = 4 * 1024 * 1024;

/** How much the tasks extension keeps. */
export interface TaskLimits {
  /** Tasks in all; default 10000. */
  maxTasks?: number;
  /**
   * Tasks of one principal (the `owner` of a task: one authenticated caller; every caller without
   * authentication is the same one); default 100.
   */
  maxTasksPerPrincipal?: number;
  /**
   * Bytes of one task's result as JSON (or its error, or its input requests); default 4 MiB. A
   * larger one fails the task. Enforced by the extension, whatever the store.
   */
  maxResultBytes?: number;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'cancelled', 'failed']);

/** Whether a task has reached a final status. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * The default store: in memory, bounded. Expired tasks are dropped when read and by a sweep.
 * A principal holding `maxTasksPerPrincipal` tasks makes room for a new one by evicting its own
 * oldest finished task, and is refused when all of its tasks are still running: it never evicts
 * another caller's. A full store (`maxTasks`) evicts the oldest finished task, or refuses.
 */
export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order: the first finished entry is the oldest one.
  private readonly tasks = new Map<string, TaskRecord>();
  // The ids of each principal's tasks, in creation order.
  private readonly owned = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout;
  readonly maxTasks: number;
  readonly maxTasksPerPrincipal: number;

  /** `limits`: the limits, or `maxTasks` alone. */
  constructor(
    limits: TaskLimits | number = {},
    sweepMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    const { maxTasks, maxTasksPerPrincipal } =
      typeof limits === 'number' ? { maxTasks: limits, maxTasksPerPrincipal: undefined } : limits;
    this.maxTasks = maxTasks ?? DEFAULT_MAX_TASKS;
    this.maxTasksPerPrincipal = maxTasksPerPrincipal ?? DEFAULT_MAX_TASKS_PER_PRINCIPAL;
    this.timer = setInterval(() => this.sweep(), sweepMs);
    // The sweep never keeps the process alive.
    this.timer.unref();
  }

  async create(task: TaskRecord): Promise<void> {
    this.sweep();
    const mine = this.owned.get(task.owner);
    let room: string | undefined;
    if (mine && mine.size >= this.maxTasksPerPrincipal) {
      room = this.oldestFinished(mine);
      if (room === undefined) throw principalFull(this.maxTasksPerPrincipal);
    }
    // Room the caller makes among its own tasks is room in the store too.
    if (room === undefined && this.tasks.size >= this.maxTasks) {
      room = this.oldestFinished(this.tasks.keys());
      if (room === undefined) throw storeFull(this.maxTasks);
    }
    if (room !== undefined) this.remove(room);
    this.tasks.set(task.taskId, { ...task });
    // Looked up again: the eviction may have emptied (and dropped) the caller's set.
    const owned = this.owned.get(task.owner);
    if (owned) owned.add(task.taskId);
    else this.owned.set(task.owner, new Set([task.taskId]));
  }

  private oldestFinished(ids: Iterable<string>): string | undefined {
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (task && isTerminal(task.status)) return id;
    }
    return undefined;
  }

  private remove(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    this.tasks.delete(taskId);
    const mine = this.owned.get(task.owner);
    mine?.delete(taskId);
    if (mine?.size === 0) this.owned.delete(task.owner);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(taskId);
    if (!task) return undefined;
    if (task.expiresAt <= this.now()) {
      this.remove(taskId);
      return undefined;
    }
    return { ...task };
  }

  async update(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    const task = await this.get(taskId);
    if (!task || isTerminal(task.status)) return task;
    // The owner is who created the task, whatever the patch says.
    const next = { ...task, ...patch, owner: task.owner };
    this.tasks.set(taskId, next);
    return { ...next };
  }

  async delete(taskId: string): Promise<void> {
    this.remove(taskId);
  }

  /** Drops expired tasks. */
  sweep(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.remove(id);
  }

  /** Stops the sweep (tests that make many stores). */
  close(): void {
    clearInterval(this.timer);
  }
}
