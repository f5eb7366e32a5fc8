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

/** Thrown by `create` when the store is full of tasks still running. */
export class TaskStoreFullError extends Error {
  override name = 'TaskStoreFullError';
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'cancelled', 'failed']);

/** Whether a task has reached a final status. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * The default store: in memory, bounded. Expired tasks are dropped when read and by a sweep;
 * when `maxTasks` are stored, a new task first evicts the oldest finished one, and is refused
 * when every stored task is still running.
 */
export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order: the first finished entry is the oldest one.
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly maxTasks = 10_000,
    sweepMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.sweep(), sweepMs);
    // The sweep never keeps the process alive.
    this.timer.unref();
  }

  async create(task: TaskRecord): Promise<void> {
    this.sweep();
    if (this.tasks.size >= this.maxTasks) {
      const oldest = [...this.tasks.values()].find((t) => isTerminal(t.status));
      if (!oldest) {
        throw new TaskStoreFullError(`too many tasks running (at most ${this.maxTasks})`);
      }
      this.tasks.delete(oldest.taskId);
    }
    this.tasks.set(task.taskId, { ...task });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(taskId);
    if (!task) return undefined;
    if (task.expiresAt <= this.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return { ...task };
  }

  async update(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    const task = await this.get(taskId);
    if (!task || isTerminal(task.status)) return task;
    const next = { ...task, ...patch };
    this.tasks.set(taskId, next);
    return { ...next };
  }

  async delete(taskId: string): Promise<void> {
    this.tasks.delete(taskId);
  }

  /** Drops expired tasks. */
  sweep(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.tasks.delete(id);
  }

  /** Stops the sweep (tests that make many stores). */
  close(): void {
    clearInterval(this.timer);
  }
}
