/**
 * Real components for scale-out tests: Debian's redis-server and haproxy (installed with apt-get
 * when missing), replicas of a generated HTTP server, and a round-robin balancer in front of them.
 * Everything listens on 127.0.0.1 on free ports; every wait is bounded; only processes started
 * here are stopped, by their own PID. Call `stopAll()` in afterAll. The implementation is
 * services.mjs (plain JavaScript, so bench/scale.mjs runs the same code with Node alone); this
 * module gives it its types.
 */
import * as impl from './services.mjs';

export interface RedisProcess {
  port: number;
  /** redis://127.0.0.1:<port> */
  url: string;
  /** PID of the current redis-server process (changes on restart). */
  readonly pid: number;
  /** SIGTERM, wait for exit. */
  stop(): Promise<void>;
  /** Stops (when running) and starts a new process on the same port: empty unless `appendonly`. */
  restart(): Promise<void>;
  /** SIGKILL, wait for exit. */
  kill(): Promise<void>;
  /** Whether it answers PING now. */
  ping(): Promise<boolean>;
}

export interface Replica {
  /** Its MCP endpoint, e.g. http://127.0.0.1:P/mcp */
  readonly url: URL;
  port: number;
  readonly pid: number;
  /** Everything it wrote to stderr since it last started. */
  stderr(): string;
  /** SIGTERM (graceful shutdown), wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL, wait for exit. */
  kill(): Promise<void>;
  /** Stops (when running) and starts a new process on the same port with the same env. */
  restart(): Promise<void>;
  readonly running: boolean;
}

export interface BackendStats {
  /** Server name in the config: r0, r1, … in the order of the ports given. */
  name: string;
  port: number;
  /** UP, DOWN, "UP 1/2" (going down), … as haproxy's health check sees it. */
  status: string;
  /** HTTP requests sent to this server since the balancer started. */
  requests: number;
}

export interface Balancer {
  /** Base URL, http://127.0.0.1:<port> (append the server's path, e.g. /mcp). */
  url: string;
  port: number;
  readonly pid: number;
  /** haproxy's view of every backend server, from its stats socket. */
  stats(): Promise<BackendStats[]>;
  /** Waits (bounded) until haproxy counts `up` servers UP and the rest DOWN (default: all UP). */
  waitUp(up?: number, timeoutMs?: number): Promise<void>;
  /** SIGTERM, wait for exit. */
  stop(): Promise<void>;
}

export interface BalancerOptions {
  /** Health check interval (ms, default 500); a dead server leaves rotation after `fall` failed checks. */
  checkIntervalMs?: number;
  /** Failed checks before a server is DOWN (default 2). */
  fall?: number;
  /** Passed checks before a server is UP again (default 1). */
  rise?: number;
}

/** The absolute path of `name` on PATH or in /usr/sbin, /usr/bin, …, or undefined. */
export const which: (name: string) => string | undefined = impl.which;
/** Installs missing commands (one apt-get update + install, sudo when not root); returns their paths. */
export const ensurePackages: (commands: string[]) => Record<string, string> = impl.ensurePackages;
/** A TCP port free on 127.0.0.1 right now. */
export const freePort: () => Promise<number> = impl.freePort;
/** Polls `probe` until true, or throws naming `what` after `timeoutMs`. */
export const waitFor: (
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs?: number,
  everyMs?: number,
) => Promise<void> = impl.waitFor;
/** SIGKILLs every process started here that still runs and removes the temp folders. For afterAll. */
export const stopAll: () => Promise<void> = impl.stopAll;
/** One inline Redis command (e.g. 'PING'); resolves with the first reply line ('+PONG'). */
export const redisCommand: (port: number, command: string, timeoutMs?: number) => Promise<string> = impl.redisCommand;
export interface RedisOptions {
  /** Persist in an append-only file (fsync always) in a temp folder, so restart() keeps the data. */
  appendonly?: boolean;
}
/** redis-server on a free port (no persistence unless `appendonly`), once it answers PING. */
export const startRedis: (options?: RedisOptions) => Promise<RedisProcess> = impl.startRedis;
/** A 32-byte-plus MCP_REQUEST_STATE_KEY shared by the replicas of a test. */
export const TEST_REQUEST_STATE_KEY: string = impl.TEST_REQUEST_STATE_KEY;
/** `node dist/src/main.js --http --port <port>` (0: a free one, kept on restart) in a built project. */
export const startReplica: (projectDir: string, env?: NodeJS.ProcessEnv, port?: number) => Promise<Replica> =
  impl.startReplica;
/** `n` replicas of the built project, one after another, each on its own port. */
export const startReplicas: (projectDir: string, n: number, env?: NodeJS.ProcessEnv) => Promise<Replica[]> =
  impl.startReplicas;
/** haproxy round robin (no stickiness, /health checks, retries) over the ports; resolves once all are UP. */
export const startBalancer: (backendPorts: number[], options?: BalancerOptions) => Promise<Balancer> =
  impl.startBalancer;
/** Copies examples/<example> to `into` (inside the repo, for node_modules) and compiles it; returns `into`. */
export const buildExampleCopy: (repo: string, example: string, into: string) => string = impl.buildExampleCopy;
