// Limits on tool calls, as the manifest declares them: how many run at once (the rest wait a
// bounded time for a slot, then are refused) and how many a caller, or everyone, may make per
// window (token buckets). A refusal is a JSON-RPC error the caller can act on: -32000 with the
// limit and `retryAfterMs` in its data, never an internal error.

import { ProtocolError } from '@modelcontextprotocol/server';

/** A rate: `requests` per `windowMs`, refilled evenly (a token bucket of `requests`). */
export interface Rate {
  requests: number;
  windowMs: number;
}

/** What a limiter enforces; each part optional. */
export interface LimitSpec {
  /** At most this many calls run at once. */
  concurrency?: number;
  /** How long a call waits for a free slot before it is refused (default 1000 ms). */
  queueMs?: number;
  /** Per caller (the token's principal; callers without one share a bucket). */
  perPrincipal?: Rate;
  /** For every caller together. */
  global?: Rate;
}

/** Where the buckets are when replicas share them (./redis-rates.ts): a token, or the ms until one. */
export interface RateStore {
  take(key: string, rate: Rate): Promise<number>;
}

let store: RateStore | undefined;

/** Makes every limiter take its tokens from `shared` (undefined: back to this process's own buckets). */
export function setRateStore(shared: RateStore | undefined): void {
  store = shared;
}

/** JSON-RPC's range for errors a server defines: neither MCP nor the SDK has a code for a limit. */
export const LIMIT_ERROR = -32000;

export class LimitError extends ProtocolError {
  constructor(message: string, data: { limit: 'concurrency' | 'rate'; scope: string; retryAfterMs: number }) {
    super(LIMIT_ERROR, message, data);
  }
}

const DEFAULT_QUEUE_MS = 1000;
// A bucket untouched this long is full again and can go: its map does not grow with callers.
const SWEEP_EVERY = 1024;

class Bucket {
  tokens: number;
  at: number;
  constructor(
    readonly rate: Rate,
    now: number,
  ) {
    this.tokens = rate.requests;
    this.at = now;
  }

  /** Takes a token, or says in how many ms one is there. */
  take(now: number): number {
    const perMs = this.rate.requests / this.rate.windowMs;
    this.tokens = Math.min(this.rate.requests, this.tokens + (now - this.at) * perMs);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) / perMs);
  }

  full(now: number): boolean {
    return this.tokens + (now - this.at) * (this.rate.requests / this.rate.windowMs) >= this.rate.requests;
  }
}

/** The limits of one tool, or of the whole server: made once per process and shared by its instances. */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private global: Bucket | undefined;
  private takes = 0;

  constructor(
    readonly scope: string,
    private readonly spec: LimitSpec,
  ) {}

  /**
   * Admits a call: refuses it at once past a rate, or once it has waited `queueMs` for a slot;
   * resolves with the slot's release. `signal` (the request's) gives up the wait.
   */
  async admit(principal: string | undefined, signal?: AbortSignal): Promise<() => void> {
    if (this.spec.perPrincipal || this.spec.global) await this.rate(principal);
    const max = this.spec.concurrency;
    if (max === undefined) return () => {};
    if (this.running >= max) await this.slot(signal);
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.();
    };
  }

  private async rate(principal: string | undefined): Promise<void> {
    const now = performance.now();
    const { perPrincipal, global } = this.spec;
    if (global) {
      let wait: number;
      if (store) wait = await store.take(`${this.scope}\0global`, global);
      else {
        this.global ??= new Bucket(global, now);
        wait = this.global.take(now);
      }
      if (wait)
        throw this.refused('rate', `${this.scope}: more than ${global.requests} calls in ${global.windowMs} ms`, wait);
    }
    if (perPrincipal) {
      const key = principal ?? '';
      let wait: number;
      if (store) wait = await store.take(`${this.scope}\0principal\0${key}`, perPrincipal);
      else {
        let bucket = this.buckets.get(key);
        if (!bucket) this.buckets.set(key, (bucket = new Bucket(perPrincipal, now)));
        wait = bucket.take(now);
      }
      if (wait)
        throw this.refused(
          'rate',
          `${this.scope}: more than ${perPrincipal.requests} calls in ${perPrincipal.windowMs} ms from ${principal === undefined ? 'unauthenticated callers' : `"${principal}"`}`,
          wait,
        );
      if (++this.takes % SWEEP_EVERY === 0) for (const [k, b] of this.buckets) if (b.full(now)) this.buckets.delete(k);
    }
  }

  private slot(signal?: AbortSignal): Promise<void> {
    const queueMs = this.spec.queueMs ?? DEFAULT_QUEUE_MS;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const admit = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        resolve();
      };
      const leave = () => {
        const i = this.waiting.indexOf(admit);
        if (i >= 0) this.waiting.splice(i, 1);
        signal?.removeEventListener('abort', cancel);
      };
      const cancel = () => {
        clearTimeout(timer);
        leave();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        leave();
        reject(
          this.refused(
            'concurrency',
            `${this.scope}: ${this.spec.concurrency} calls already running, none finished within ${queueMs} ms`,
            queueMs,
          ),
        );
      }, queueMs);
      signal?.addEventListener('abort', cancel, { once: true });
      this.waiting.push(admit);
    });
  }

  private refused(limit: 'concurrency' | 'rate', message: string, retryAfterMs: number): LimitError {
    return new LimitError(`Too many requests: ${message}; retry after ${retryAfterMs} ms`, {
      limit,
      scope: this.scope,
      retryAfterMs,
    });
  }
}

/** A limiter for a tool (`tool <name>`) or the server (`server`), from the manifest's settings. */
export function limiter(scope: string, spec: LimitSpec): Limiter {
  return new Limiter(scope, spec);
}
