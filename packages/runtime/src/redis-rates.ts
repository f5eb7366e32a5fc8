// Rate limits shared by replicas: one token bucket per limiter, caller and rate in Redis, taken
// by a script so two replicas never spend the same token. While Redis is unreachable the buckets
// fail open (the call goes on), with one log line per outage: a limit is a guard against abuse,
// and an outage of it must not take the server down with it.

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type Rate, setRateStore } from './limits.js';
import type { RedisHub } from './redis.js';
import { log } from './request-log.js';

// Redis's clock, so every replica refills the same way; the bucket lives two windows untouched.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local perMs = capacity / window
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or capacity
local at = tonumber(b[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / perMs) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], window * 2)
return wait
`;

interface RateCommands {
  mcpRateTake(key: string, capacity: number, windowMs: number): Promise<number>;
}

/** Makes every limiter of this process take its tokens from Redis; returns the undo. */
export function shareRates(hub: RedisHub): () => void {
  hub.client.defineCommand('mcpRateTake', { numberOfKeys: 1, lua: TAKE });
  let failing = false;
  setRateStore({
    async take(key: string, rate: Rate): Promise<number> {
      // Hashed: a principal (issuer, subject, client) may be long.
      const bucket = hub.key(
        'rate',
        createHash('sha1').update(`${key}\0${rate.requests}/${rate.windowMs}`).digest('hex'),
      );
      try {
        const wait = await hub.run((client: Redis) =>
          (client as unknown as RateCommands).mcpRateTake(bucket, rate.requests, rate.windowMs),
        );
        failing = false;
        return Number(wait);
      } catch (error) {
        if (!failing)
          log('warn', 'rate limits not enforced while Redis is unreachable', { error: (error as Error).message });
        failing = true;
        return 0;
      }
    },
  });
  return () => setRateStore(undefined);
}
