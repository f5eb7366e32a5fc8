// Shared state for replicas of this server (REDIS_URL): one command connection that fails fast
// while Redis is away (no request waits on a queue), one subscriber connection for pub/sub, and
// this process's identity, so a message can be addressed to the replica that holds a stream.
import { randomUUID } from 'node:crypto';

import { Redis } from 'ioredis';

import { numberSetting, REDIS_START_TIMEOUT } from './settings.js';

/** Prefixes every key and channel (default `mcp:<server name>:`), so servers can share a Redis. */
export const REDIS_PREFIX_ENV = 'MCP_REDIS_PREFIX';

/** Redis cannot be reached: the request is answered 503 instead of waiting. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export interface HubOptions {
  url: string;
  /** Key and channel prefix. */
  prefix: string;
  /** How long a replica counts as alive after its last heartbeat. Default 10 s. */
  aliveMs?: number;
  onerror?: (error: Error) => void;
}

type Listener = (message: unknown) => void;
type Answerer = (payload: unknown) => unknown;

/** What a replica shares through Redis: keys, pub/sub channels and messages between replicas. */
export class RedisHub {
  /** This process's id (a fresh UUID per start: a restarted replica is a new one). */
  readonly replica = randomUUID();
  readonly client: Redis;
  readonly #subscriber: Redis;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #answerers = new Map<string, Answerer>();
  readonly #waiting = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #reconnected = new Set<() => void>();
  readonly #aliveMs: number;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #onerror: (error: Error) => void;
  #everReady = false;
  #closed = false;
  #starting: ((error: Error) => void) | undefined;

  constructor(readonly options: HubOptions) {
    this.#aliveMs = options.aliveMs ?? 10_000;
    this.#onerror = options.onerror ?? ((error) => console.error(error.message));
    const common = {
      // Reconnects for ever, at most 2 s apart.
      retryStrategy: (times: number) => Math.min(100 * times, 2000),
      connectTimeout: 2000,
      lazyConnect: true,
    };
    this.client = new Redis(options.url, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
    });
    this.#subscriber = new Redis(options.url, { ...common, maxRetriesPerRequest: null });
    const quiet = new Set<Redis>();
    for (const connection of [this.client, this.#subscriber]) {
      connection.on('error', (error: Error) => {
        // While starting, the start's own failure names the error (./redis.ts connect).
        if (this.#starting) return this.#starting(error);
        // One line per outage, not one per retry.
        if (quiet.has(connection)) return;
        quiet.add(connection);
        this.#onerror(new Error(`Redis: ${error.message}`));
      });
      connection.on('ready', () => quiet.delete(connection));
    }
    this.#subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) =>
      this.#deliver(channel.toString(), payload.toString()),
    );
    // Messages published while the subscriber was away are lost: whoever caches state drops it.
    this.#subscriber.on('ready', () => {
      if (this.#everReady) for (const fn of this.#reconnected) fn();
      this.#everReady = true;
    });
    this.#heartbeat = setInterval(() => this.#beat(), Math.max(250, this.#aliveMs / 3));
    this.#heartbeat.unref();
  }

  /**
   * Connects both connections within `waitMs`, else closes them and throws StartError naming the
   * last error seen: a replica that never reached its Redis does not serve. A reply error (a wrong
   * password, a database index the server lacks) fails at once, as retrying cannot mend it.
   */
  async connect(waitMs = 10_000): Promise<void> {
    let last: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      this.#starting = (error) => {
        last = error;
        if ((error as { name?: string }).name === 'ReplyError') reject(new RedisStartError('refused', error));
      };
      timer = setTimeout(() => reject(new RedisStartError('timeout', last)), waitMs);
    });
    const connections = [this.client, this.#subscriber];
    const ready = Promise.all(
      connections.map(
        (connection) =>
          new Promise<void>((resolve) => {
            connection.once('ready', resolve);
            connection.connect().catch(() => {}); // retried by retryStrategy; errors arrive as events
          }),
      ),
    );
    try {
      await Promise.race([ready, failed]);
      await Promise.race([
        this.#subscriber.subscribe(this.#channel('broadcast'), this.#channel(`replica:${this.replica}`)),
        failed,
      ]);
      // SELECT runs as a connection is made ready: its refusal may come with the ready event.
      if (last && (last as { name?: string }).name === 'ReplyError') throw new RedisStartError('refused', last);
    } catch (error) {
      await this.close();
      throw error instanceof RedisStartError ? error : new RedisStartError('refused', error as Error);
    } finally {
      clearTimeout(timer);
      this.#starting = undefined;
      failed.catch(() => {});
    }
    this.#beat();
  }

  /** Whether both connections are up. */
  get up(): boolean {
    return this.client.status === 'ready' && this.#subscriber.status === 'ready';
  }

  /**
   * Why this replica cannot use Redis now, or undefined when both connections are up and a PING
   * is answered within `timeoutMs` (a Redis that hangs keeps its connections "ready").
   */
  async unavailable(timeoutMs = 1000): Promise<string | undefined> {
    if (!this.up) {
      return `Redis is not reachable (connections: ${this.client.status}, subscriber ${this.#subscriber.status})`;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer to PING within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return undefined;
    } catch (error) {
      return `Redis is not answering: ${(error as Error).message}`;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A key of this server: the prefix, then `parts` joined by `:`. */
  key(...parts: string[]): string {
    return this.options.prefix + parts.join(':');
  }

  #channel(name: string): string {
    return this.options.prefix + name;
  }

  /** Runs a command (or pipeline) on the command connection; RedisUnavailableError when it fails. */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.client.status !== 'ready') {
      throw new RedisUnavailableError(`Redis is not reachable (${this.client.status})`);
    }
    try {
      return await command(this.client);
    } catch (error) {
      if (error instanceof RedisUnavailableError) throw error;
      const message = (error as Error).message;
      // A reply error (wrong type, script error) is a bug, not an outage.
      if ((error as { name?: string }).name === 'ReplyError') throw error;
      throw new RedisUnavailableError(`Redis is not reachable: ${message}`);
    }
  }

  /** Publishes `message` (JSON) to every replica's listeners of `topic`, this one's included. */
  async publish(topic: string, message: unknown): Promise<void> {
    await this.run((client) => client.publish(this.#channel('broadcast'), JSON.stringify({ topic, message })));
  }

  /** Listens to `topic` on every replica's publications; returns the removal. */
  subscribe(topic: string, listener: (message: unknown) => void): () => void {
    let set = this.#listeners.get(topic);
    if (!set) this.#listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** Calls `fn` when the subscriber reconnects: what was published meanwhile did not arrive. */
  onReconnect(fn: () => void): () => void {
    this.#reconnected.add(fn);
    return () => void this.#reconnected.delete(fn);
  }

  /** Sends `payload` to `kind` on one replica, not waiting for an answer. */
  async tell(replica: string, kind: string, payload: unknown): Promise<void> {
    if (replica === this.replica) return void this.#answer(kind, payload, undefined, undefined);
    await this.run((client) => client.publish(this.#channel(`replica:${replica}`), JSON.stringify({ kind, payload })));
  }

  /**
   * Asks `kind` on one replica and waits for its answer (what its answerer returned, or its error
   * rethrown); RedisUnavailableError when the replica does not answer within `timeoutMs`.
   */
  async ask<T>(replica: string, kind: string, payload: unknown, timeoutMs = 5000): Promise<T> {
    if (replica === this.replica) {
      const answerer = this.#answerers.get(kind);
      if (!answerer) throw new Error(`no answerer for ${kind}`);
      return (await answerer(payload)) as T;
    }
    const id = randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      setTimeout(() => {
        if (!this.#waiting.delete(id)) return;
        reject(new RedisUnavailableError(`replica ${replica.slice(0, 8)} did not answer ${kind}`));
      }, timeoutMs).unref();
    });
    const message = { kind, payload, ask: id, from: this.replica };
    try {
      await this.run((client) => client.publish(this.#channel(`replica:${replica}`), JSON.stringify(message)));
    } catch (error) {
      this.#waiting.delete(id);
      throw error;
    }
    return (await answer) as T;
  }

  /** Serves `tell` and `ask` messages of `kind` sent to this replica. */
  answer(kind: string, answerer: (payload: unknown) => unknown): void {
    this.#answerers.set(kind, answerer);
  }

  /** Whether `replica` has sent a heartbeat lately (false when Redis cannot tell). */
  async isAlive(replica: string): Promise<boolean> {
    if (replica === this.replica) return true;
    const seen = await this.run((client) => client.exists(this.key('replica', replica)));
    return seen === 1;
  }

  #beat(): void {
    if (this.client.status !== 'ready') return;
    this.client.set(this.key('replica', this.replica), '1', 'PX', this.#aliveMs).catch(() => {});
  }

  #deliver(channel: string, raw: string): void {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    if (channel === this.#channel('broadcast')) {
      for (const listener of this.#listeners.get(String(parsed.topic)) ?? []) {
        try {
          listener(parsed.message);
        } catch (error) {
          this.#onerror(error as Error);
        }
      }
      return;
    }
    if (typeof parsed.answer === 'string') {
      const waiting = this.#waiting.get(parsed.answer);
      if (!waiting) return;
      this.#waiting.delete(parsed.answer);
      if (typeof parsed.error === 'object' && parsed.error !== null) {
        const { name, message, code, data } = parsed.error as Record<string, unknown>;
        waiting.reject(Object.assign(new Error(String(message)), { name, code, data }));
      } else waiting.resolve(parsed.value);
      return;
    }
    this.#answer(
      String(parsed.kind),
      parsed.payload,
      typeof parsed.ask === 'string' ? parsed.ask : undefined,
      typeof parsed.from === 'string' ? parsed.from : undefined,
    );
  }

  #answer(kind: string, payload: unknown, ask: string | undefined, from: string | undefined): void {
    const answerer = this.#answerers.get(kind);
    const reply = (body: Record<string, unknown>) => {
      if (ask === undefined || from === undefined) return;
      const message = JSON.stringify({ answer: ask, ...body });
      this.client.publish(this.#channel(`replica:${from}`), message).catch(() => {});
    };
    if (!answerer) {
      reply({ error: { message: `no answerer for ${kind}` } });
      return;
    }
    Promise.resolve()
      .then(() => answerer(payload))
      .then(
        (value) => reply({ value: value ?? null }),
        (error: Error & { code?: unknown; data?: unknown }) =>
          reply({
            error: { name: error.name, message: error.message, code: error.code, data: error.data },
          }),
      );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const { reject } of this.#waiting.values()) reject(new Error('closed'));
    this.#waiting.clear();
    if (this.client.status === 'ready') await this.client.del(this.key('replica', this.replica)).catch(() => {});
    this.client.disconnect();
    this.#subscriber.disconnect();
  }
}

/** Why the hub did not connect at start: no answer in time, or Redis refused what the URL asks. */
export class RedisStartError extends Error {
  override name = 'RedisStartError';
  constructor(
    readonly kind: 'timeout' | 'refused',
    readonly last: Error | undefined,
  ) {
    super(last?.message ?? kind);
  }
}

/** The environment variable bounding the wait for Redis at start, in seconds (default 10). */
export const REDIS_START_TIMEOUT_ENV = REDIS_START_TIMEOUT.name;

const URL_FORMS =
  'use redis://[user:password@]host[:port][/db], rediss://… for TLS, or the absolute path of a unix socket (/run/redis.sock?db=N)';

/**
 * Checks `url` as ioredis reads it (redis:// or rediss://, or a unix socket's path), so a typo
 * stops the start with its reason instead of a connection retried for ever. Throws naming
 * `source` (the variable) and never the password.
 */
export function checkRedisUrl(url: string, source = 'REDIS_URL'): void {
  const db = (value: string | null, where: string) => {
    if (value !== null && value !== '' && !/^\d+$/.test(value)) {
      throw new Error(
        `${source} ${redactedUrl(url)} names database ${JSON.stringify(value)} ${where}: a database is a number (0 to 15 on a default Redis)`,
      );
    }
  };
  if (url.startsWith('/') && !url.startsWith('//')) {
    const query = url.indexOf('?');
    if (query >= 0) db(new URLSearchParams(url.slice(query + 1)).get('db'), 'in ?db=');
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${source} is not a URL: ${URL_FORMS}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`${source} ${redactedUrl(url)} has the scheme ${parsed.protocol.slice(0, -1)}: ${URL_FORMS}`);
  }
  if (!parsed.hostname) throw new Error(`${source} ${redactedUrl(url)} names no host: ${URL_FORMS}`);
  db(parsed.pathname.length > 1 ? parsed.pathname.slice(1) : null, 'in its path');
  db(parsed.searchParams.get('db'), 'in ?db=');
}

/** How long to wait for Redis at start (`MCP_REDIS_START_TIMEOUT`, seconds), in ms. */
export function redisStartTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.round((numberSetting(REDIS_START_TIMEOUT, env) ?? 10) * 1000);
}

/**
 * The hub for `REDIS_URL`, connected: a URL ioredis cannot use, a Redis that does not answer
 * within `waitMs` or one that refuses the connection (password, database) stops the start with
 * one message naming REDIS_URL (its password hidden), what failed and what to check.
 */
export async function connectHub(options: HubOptions, waitMs = redisStartTimeoutMs()): Promise<RedisHub> {
  checkRedisUrl(options.url);
  const hub = new RedisHub(options);
  try {
    await hub.connect(waitMs);
  } catch (error) {
    const { kind, last } = error as RedisStartError;
    const at = `REDIS_URL ${redactedUrl(options.url)}`;
    if (kind === 'refused') {
      const hint = /DB index/i.test(last?.message ?? '')
        ? 'the database index in the URL is above what this Redis has (its `databases` setting)'
        : /AUTH|WRONGPASS|NOPERM|password/i.test(last?.message ?? '')
          ? 'check the user and password in the URL'
          : 'check the URL against the Redis it names';
      throw new Error(`${at}: Redis refused the connection (${last?.message}); ${hint}`);
    }
    const seconds = waitMs / 1000;
    throw new Error(
      `${at}: no connection to Redis within ${seconds} s${last ? ` (${last.message})` : ''}; check that Redis runs there and this host can reach it (${REDIS_START_TIMEOUT_ENV} sets the wait, in seconds)`,
    );
  }
  return hub;
}
/** The URL without its password (in the authority or `?password=`), for messages. */
export function redactedUrl(url: string): string {
  const socket = url.startsWith('/') && !url.startsWith('//');
  try {
    const parsed = new URL(socket ? `unix://${url}` : url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return socket ? parsed.pathname + parsed.search : parsed.toString();
  } catch {
    return 'the REDIS_URL given';
  }
}
