import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, startHttpServer } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: limited, version: 0.1.0 }
transports:
  stdio: {}
  http: { auth: { bearer: { tokensEnv: LIMIT_TEST_TOKENS } } }
limits:
  timeoutMs: 400
  queueMs: 200
tools:
  slow:
    description: Takes 600 ms, one call at a time
    timeoutMs: 5000
    concurrency: 1
  counted:
    description: Three calls a minute per caller
    rateLimit: { perPrincipal: { requests: 3, windowMs: 60000 } }
  sleepy:
    description: Never answers; the server-wide time limit stops it
`;
const HANDLERS: Record<string, string> = {
  'src/handlers/tools/slow.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['slow'] = () => new Promise((resolve) => setTimeout(() => resolve('done'), 600));
`,
  'src/handlers/tools/counted.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['counted'] = async () => 'counted';
`,
  'src/handlers/tools/sleepy.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['sleepy'] = () => new Promise(() => {});
`,
};

let dir: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  dir = await builtProject('limits', MANIFEST, HANDLERS);
  http = await startHttpServer(dir, { LIMIT_TEST_TOKENS: 'alice:tok-alice,bob:tok-bob' });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
});

async function overHttp(token: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: 'limits-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

/** The JSON-RPC error a call ends with, or its result. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (result) => ({ result }),
    (error: { code?: number; message: string; data?: unknown }) => ({ error }),
  );

describe.each([false, true])('over HTTP (2026-07-28 client: %s)', (modern) => {
  it('concurrency 1 under load: one of eight calls runs, the others wait queueMs, then are refused with -32000', async () => {
    const client = await overHttp('tok-alice', modern);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => outcome(client.callTool({ name: 'slow', arguments: {} }))),
    );
    expect(results.filter((r) => 'result' in r)).toEqual([
      { result: expect.objectContaining({ content: [{ type: 'text', text: 'done' }] }) },
    ]);
    const refused = results.filter((r) => 'error' in r) as {
      error: { code: number; message: string; data: unknown };
    }[];
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.error).toMatchObject({
        code: -32000,
        data: { limit: 'concurrency', scope: 'tool slow', retryAfterMs: 200 },
      });
      expect(r.error.message).toContain('1 calls already running, none finished within 200 ms');
    }
    // Once the slot is free, a call goes through again.
    expect(await client.callTool({ name: 'slow', arguments: {} })).toMatchObject({ content: [{ text: 'done' }] });
  });

  it('limits.timeoutMs stops a tool without a time limit of its own', async () => {
    const client = await overHttp('tok-alice', modern);
    expect(await client.callTool({ name: 'sleepy', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: 'tool sleepy did not finish within 400 ms' }],
    });
  });
});

describe('rate limit per principal', () => {
  it("refuses a caller's fourth call in the window, with retryAfterMs, and not another caller's", async () => {
    const alice = await overHttp('tok-alice', true);
    const bob = await overHttp('tok-bob', false);
    for (let i = 0; i < 3; i++)
      expect(await alice.callTool({ name: 'counted', arguments: {} })).toMatchObject({
        content: [{ text: 'counted' }],
      });
    const refused = await outcome(alice.callTool({ name: 'counted', arguments: {} }));
    expect(refused).toMatchObject({ error: { code: -32000, data: { limit: 'rate', scope: 'tool counted' } } });
    const retryAfterMs = (refused as { error: { data: { retryAfterMs: number } } }).error.data.retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(15_000);
    expect(retryAfterMs).toBeLessThanOrEqual(20_000);
    expect((refused as { error: { message: string } }).error.message).toContain('from "alice"');
    // Bob has his own bucket.
    expect(await bob.callTool({ name: 'counted', arguments: {} })).toMatchObject({ content: [{ text: 'counted' }] });
  });
});

describe('over stdio', () => {
  it('the same limits apply', async () => {
    const client = new Client({ name: 'limits-e2e', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(dir, 'dist/src/main.js')],
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    const results = await Promise.all(
      [0, 50].map((delay) =>
        new Promise((r) => setTimeout(r, delay)).then(() => outcome(client.callTool({ name: 'slow', arguments: {} }))),
      ),
    );
    expect(results[1]).toMatchObject({ error: { code: -32000, data: { limit: 'concurrency' } } });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'counted', arguments: {} });
    expect(await outcome(client.callTool({ name: 'counted', arguments: {} }))).toMatchObject({
      error: { code: -32000, data: { limit: 'rate' } },
    });
  });
});

describe('shared by replicas through Redis', () => {
  it("counts a caller's calls across three replicas under load, exactly, and fails open (logged) while Redis is down", async () => {
    const { startRedis, startReplicas, stopAll, TEST_REQUEST_STATE_KEY, waitFor } = await import(
      './helpers/services.js'
    );
    try {
      const redis = await startRedis();
      const replicas = await startReplicas(dir, 3, {
        REDIS_URL: redis.url,
        MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY,
        LIMIT_TEST_TOKENS: 'alice:tok-alice',
      });
      const connect = async (url: URL) => {
        const client = new Client(
          { name: 'limits-e2e', version: '0.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        await client.connect(
          new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: 'Bearer tok-alice' } } }),
        );
        clients.push(client);
        return client;
      };
      const onReplicas = await Promise.all(replicas.map((r) => connect(r.url)));
      // Twelve calls at once, four on each replica: the caller has three a minute in all.
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => outcome(onReplicas[i % 3]!.callTool({ name: 'counted', arguments: {} }))),
      );
      const ok = results.filter((r) => 'result' in r);
      const refused = results.filter((r) => 'error' in r);
      expect(ok).toHaveLength(3);
      expect(refused).toHaveLength(9);
      for (const r of refused)
        expect(r).toMatchObject({ error: { code: -32000, data: { limit: 'rate', scope: 'tool counted' } } });
      await redis.stop();
      const first = replicas[0]!;
      expect(await onReplicas[0]!.callTool({ name: 'counted', arguments: {} })).toMatchObject({
        content: [{ text: 'counted' }],
      });
      await waitFor('the fail-open warning', () =>
        first.stderr().includes('rate limits not enforced while Redis is unreachable'),
      );
    } finally {
      await stopAll();
    }
  }, 60_000);
});
