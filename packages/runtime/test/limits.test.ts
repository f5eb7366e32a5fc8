// The limiter on its own: slots handed over in order, a wait that gives up at queueMs or when the
// request is cancelled, token buckets per caller and for everyone, refilled evenly.
import { describe, expect, it } from 'vitest';
import { LimitError, limiter } from '../src/limits.js';

describe('concurrency', () => {
  it('hands a freed slot to the first waiter, and refuses one that waited queueMs', async () => {
    const l = limiter('tool t', { concurrency: 1, queueMs: 100 });
    const first = await l.admit(undefined);
    const order: string[] = [];
    const second = l.admit(undefined).then((release) => (order.push('second'), release));
    const third = l.admit(undefined).then(
      (release) => (order.push('third'), release()),
      (e: LimitError) => order.push(`third refused ${JSON.stringify(e.data)}`),
    );
    setTimeout(first, 20);
    (await second)();
    await third;
    // The third waited behind the second and got the slot once it was free, within its 100 ms.
    expect(order).toEqual(['second', 'third']);
    const holder = await l.admit(undefined);
    await expect(l.admit(undefined)).rejects.toMatchObject({
      code: -32000,
      data: { limit: 'concurrency', scope: 'tool t', retryAfterMs: 100 },
    });
    holder();
  });

  it('gives up a wait when the request is cancelled, and frees nothing twice', async () => {
    const l = limiter('server', { concurrency: 1, queueMs: 100 });
    const held = await l.admit(undefined);
    const abort = new AbortController();
    const waiting = l.admit(undefined, abort.signal);
    abort.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    held();
    const a = await l.admit(undefined);
    await expect(l.admit(undefined)).rejects.toBeInstanceOf(LimitError);
    a();
  });
});

describe('rates', () => {
  it('a bucket per principal, refilled evenly; unauthenticated callers share one', async () => {
    const l = limiter('tool r', { perPrincipal: { requests: 2, windowMs: 200 } });
    await l.admit('alice');
    await l.admit('alice');
    await expect(l.admit('alice')).rejects.toMatchObject({ data: { limit: 'rate', scope: 'tool r' } });
    await l.admit('bob');
    await l.admit(undefined);
    await l.admit(undefined);
    await expect(l.admit(undefined)).rejects.toThrow('from unauthenticated callers');
    // One token every 100 ms.
    await new Promise((r) => setTimeout(r, 120));
    await l.admit('alice');
  });

  it('a global bucket for everyone, with the wait until the next token', async () => {
    const l = limiter('server', { global: { requests: 1, windowMs: 1000 } });
    await l.admit('alice');
    const refused = await l.admit('bob').catch((e: LimitError) => e);
    expect(refused).toBeInstanceOf(LimitError);
    const { retryAfterMs } = (refused as LimitError).data as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(900);
    expect(retryAfterMs).toBeLessThanOrEqual(1000);
  });
});
