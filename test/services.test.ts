/**
 * The real-components harness of the scale-out tests (test/helpers/services.ts): redis-server on a
 * free port (PING, restart on the same port), three replicas of examples/conformance sharing it,
 * and haproxy round-robin in front — /health through the balancer, requests spread over every
 * replica (haproxy's own counters), and requests still answered after one replica is SIGKILLed.
 */
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SCRATCH } from './helpers/project.js';
import {
  buildExampleCopy,
  ensurePackages,
  freePort,
  redisCommand,
  startBalancer,
  startRedis,
  startReplicas,
  stopAll,
  TEST_REQUEST_STATE_KEY,
  type Balancer,
  type RedisProcess,
  type Replica,
} from './helpers/services.js';

const MODERN = '2026-07-28';
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A 2026-07-28 tools/call of test_simple_text, raw JSON-RPC with its `_meta` envelope and headers. */
async function callSimpleText(base: string, id: number): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'test_simple_text' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'test_simple_text',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'services-test', version: '0.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, text: await res.text() };
}

let project: string;
let redis: RedisProcess;
let replicas: Replica[];
let balancer: Balancer;

beforeAll(async () => {
  ensurePackages(['redis-server', 'haproxy']);
  project = buildExampleCopy(REPO, 'conformance', path.join(SCRATCH, 'services'));
  redis = await startRedis();
  replicas = await startReplicas(project, 3, { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY });
  balancer = await startBalancer(replicas.map((r) => r.port));
}, 240_000);

afterAll(stopAll);

describe('services', () => {
  it('freePort gives a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('redis answers PING and restart() keeps its port with a new process', async () => {
    expect(await redisCommand(redis.port, 'PING')).toBe('+PONG');
    expect(await redisCommand(redis.port, 'SET harness:probe 1')).toBe('+OK');
    const before = redis.pid;
    await redis.restart();
    expect(redis.pid).not.toBe(before);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await redisCommand(redis.port, 'PING')).toBe('+PONG');
    // --save '' --appendonly no: a restarted Redis is empty.
    expect(await redisCommand(redis.port, 'GET harness:probe')).toBe('$-1');
  });

  it('each replica listens on its own port and reports Redis up on /health', async () => {
    expect(new Set(replicas.map((r) => r.port)).size).toBe(3);
    for (const r of replicas) {
      // The replicas reconnect by themselves after the restart above.
      let body: Record<string, unknown> = {};
      for (let i = 0; i < 50 && body.redis !== 'up'; i++) {
        body = (await (await fetch(`http://127.0.0.1:${r.port}/health`)).json()) as Record<string, unknown>;
        if (body.redis !== 'up') await new Promise((res) => setTimeout(res, 100));
      }
      expect(body).toMatchObject({ status: 'ok', redis: 'up', name: 'mcpgen-conformance' });
    }
  });

  it('/health answers through the balancer', async () => {
    const res = await fetch(`${balancer.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', redis: 'up', name: 'mcpgen-conformance' });
  });

  it('round robin spreads requests over all three replicas (haproxy counters)', async () => {
    const before = await balancer.stats();
    expect(before.map((s) => s.status)).toEqual(['UP', 'UP', 'UP']);
    for (let i = 0; i < 30; i++) {
      const { status, text } = await callSimpleText(balancer.url, i);
      expect(status, text).toBe(200);
      expect(text).toContain('This is a simple text response for testing.');
    }
    const after = await balancer.stats();
    const served = after.map((s, i) => s.requests - before[i]!.requests);
    expect(served.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    for (const n of served) expect(n).toBeGreaterThanOrEqual(8);
  });

  it('after SIGKILL of one replica, every request through the balancer still succeeds', async () => {
    const victim = replicas[1]!;
    await victim.kill();
    expect(victim.running).toBe(false);
    // Right away: requests that hit the dead server before the health check notices are retried.
    for (let i = 0; i < 30; i++) {
      const { status, text } = await callSimpleText(balancer.url, 100 + i);
      expect(status, text).toBe(200);
    }
    await balancer.waitUp(2);
    const stats = await balancer.stats();
    expect(stats.find((s) => s.port === victim.port)!.status).toMatch(/^DOWN/);
    await victim.restart();
    expect(victim.running).toBe(true);
    await balancer.waitUp(3);
  });
});
