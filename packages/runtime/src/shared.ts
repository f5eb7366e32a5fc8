// Replicas of this server sharing one Redis (REDIS_URL): what each shares, wired in one place.
import { type ServerApp, sayAtStart } from './app.js';
import { shareRates } from './redis-rates.js';
import { RedisServerEventBus } from './redis-bus.js';
import { connectHub, REDIS_PREFIX_ENV, type RedisHub, redactedUrl } from './redis.js';
import { type RedisSessionOptions, redisSessions } from './redis-sessions.js';
import { shareTasks } from './redis-tasks.js';
import { REQUEST_STATE_KEY_ENV } from './request-state.js';
import type { LegacySessions } from './sessions.js';

export interface SharedState {
  readonly hub: RedisHub;
  /** Change notifications of every replica (`ctx.notify`). */
  readonly bus: RedisServerEventBus;
  /** 2025 sessions any replica serves. */
  sessions(options: RedisSessionOptions): LegacySessions;
  /**
   * For `GET /health`: degraded while Redis does not answer a PING within a second (the server
   * reconnects by itself), as this replica cannot serve sessions then.
   */
  health(): Promise<{ status: 'ok'; redis: 'up' } | { status: 'degraded'; redis: 'down'; reason: string }>;
  close(): Promise<void>;
}

/**
 * Connects to the Redis at `url` and shares through it what replicas must agree on. Every replica
 * must sign requestState with the same key, so one is required here.
 */
export async function shareState(app: ServerApp, url: string, onerror: (error: Error) => void): Promise<SharedState> {
  if (!process.env[REQUEST_STATE_KEY_ENV]) {
    throw new Error(
      `${REQUEST_STATE_KEY_ENV} is not set: with REDIS_URL, every replica must sign requestState with the same key (at least 32 bytes)`,
    );
  }
  const prefix = process.env[REDIS_PREFIX_ENV] || `mcp:${app.info.name}:`;
  const hub = await connectHub({ url, prefix, onerror });
  const bus = new RedisServerEventBus(hub, onerror);
  const stopTasks = app.tasks ? shareTasks(hub) : () => {};
  const stopRates = shareRates(hub);
  sayAtStart(`sharing state through Redis at ${redactedUrl(url)}`);
  return {
    hub,
    bus,
    sessions: (options) => redisSessions(hub, options),
    async health() {
      const reason = await hub.unavailable();
      return reason === undefined ? { status: 'ok', redis: 'up' } : { status: 'degraded', redis: 'down', reason };
    },
    async close() {
      stopTasks();
      stopRates();
      bus.close();
      await hub.close();
    },
  };
}
