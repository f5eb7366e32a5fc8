/**
 * How a served process starts and stops, as an operator meets it: a generated server run with
 * `node dist/src/main.js --http`, stopped with SIGTERM. Telemetry with a collector that is not
 * there (the stop is bounded, one warning, exit 0), telemetry variables that are wrong (refused at
 * start), a Prometheus exporter that answers before the first request, requests still running when
 * the drain time is over (each gets an answer), and the request log's lines for a call past its
 * time limit or refused by a limit.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, connectHttp, run, startHttpServer } from './helpers/project.js';
import { type RedisProcess, startRedis, stopAll, TEST_REQUEST_STATE_KEY } from './helpers/services.js';

const MANIFEST = `version: 1
server: { name: ops, version: 0.1.0 }
transports:
  http: {}
tools:
  slow:
    description: Sleeps 15 s
  timed:
    description: Sleeps past its limit
    timeoutMs: 200
  limited:
    description: One call a minute
    rateLimit: { global: { requests: 1, windowMs: 60000 } }
`;
const sleeper = (tool: string) => `import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['${tool}'] = async (_input, ctx) => {
  await sleep(15_000, undefined, { signal: ctx.signal });
  return 'slept';
};
`;
const HANDLERS = {
  'src/handlers/tools/slow.ts': sleeper('slow'),
  'src/handlers/tools/timed.ts': sleeper('timed'),
  'src/handlers/tools/limited.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['limited'] = async () => 'ok';
`,
};

let dir: string;
beforeAll(async () => {
  dir = await builtProject('shutdown', MANIFEST, HANDLERS);
}, 120_000);

/** SIGTERM, then the exit code and how long the process took to exit. */
function terminate(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve({ code, ms: Date.now() - started }));
    child.kill('SIGTERM');
  });
}

/** The JSON lines of the server's stderr. */
const lines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A 2026-07-28 tools/call POSTed as a plain HTTP client sends it. */
function post2026(url: URL, name: string, id: number): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'shutdown-e2e', version: '0.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe('telemetry', () => {
  it('with the collector unreachable: one warning, and SIGTERM exits 0 within the 2 s flush bound', async () => {
    const server = await startHttpServer(dir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    expect(lines(server.stderr())[0]).toMatchObject({
      level: 'info',
      msg: 'telemetry: traces and metrics over OTLP http/protobuf to http://127.0.0.1:1',
    });
    const client = await connectHttp(server.url, true);
    await client.callTool({ name: 'limited', arguments: {} });
    const failed = () => lines(server.stderr()).filter((l) => String(l.msg).startsWith('telemetry: export'));
    await until(() => failed().length > 0, 'the export warning');
    await client.listTools();
    await new Promise((r) => setTimeout(r, 700));
    await client.close();
    const { code, ms } = await terminate(server.child);
    expect(code, server.stderr()).toBe(0);
    expect(ms).toBeLessThan(5000);
    expect(failed()).toHaveLength(1);
    expect(failed()[0]).toMatchObject({ level: 'warn' });
    expect(failed()[0]!.msg).toContain('to http://127.0.0.1:1 (OTEL_EXPORTER_OTLP_ENDPOINT)');
    expect(server.stderr()).not.toMatch(/node:internal|ECONNREFUSED 127\.0\.0\.1:1\n|^\s+at /m);
    expect(lines(server.stderr()).at(-1)).toMatchObject({ msg: 'stopped' });
  });

  it('refuses to start on a malformed endpoint or an unknown exporter, naming the variable', async () => {
    const main = path.join(dir, 'dist/src/main.js');
    const start = (env: Record<string, string>) =>
      run(process.execPath, [main, '--http', '--port', '0'], dir, 30_000, { ...process.env, ...env });
    const url = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not-a-url' });
    expect(url.code).toBe(1);
    expect(url.stderr).toBe(
      "ops: OTEL_EXPORTER_OTLP_ENDPOINT=not-a-url is not an http:// or https:// URL; set it to the collector's, e.g. http://localhost:4318\n",
    );
    const traces = await start({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' });
    expect(traces.code).toBe(1);
    expect(traces.stderr).toContain(
      'ops: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=collector:4318 is not an http:// or https://',
    );
    const exporter = await start({ OTEL_METRICS_EXPORTER: 'prometheos' });
    expect(exporter.code).toBe(1);
    expect(exporter.stderr).toBe(
      'ops: OTEL_METRICS_EXPORTER=prometheos is not an exporter the OpenTelemetry SDK knows; use one of otlp, prometheus, console, none\n',
    );
    // Disabled, nothing is read: the server starts and says so.
    const disabled = await startHttpServer(dir, {
      OTEL_SDK_DISABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'not-a-url',
    });
    expect(lines(disabled.stderr())[0]).toMatchObject({ msg: 'telemetry: off (OTEL_SDK_DISABLED)' });
    expect((await terminate(disabled.child)).code).toBe(0);
  });

  it('a Prometheus exporter answers a scrape before the first MCP request', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const server = await startHttpServer(dir, {
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
    });
    try {
      expect(lines(server.stderr())[0]).toMatchObject({
        msg: `telemetry: traces off; metrics for Prometheus at http://127.0.0.1:${port}/metrics`,
      });
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scrape.status).toBe(200);
    } finally {
      expect((await terminate(server.child)).code).toBe(0);
    }
    expect(server.stderr()).not.toContain('"level":"warn"');
  });
});

it('past MCP_DRAIN_MS, each request still running gets a JSON-RPC error, 2026-07-28 and 2025 alike', async () => {
  const server = await startHttpServer(dir, { MCP_DRAIN_MS: '500' });
  expect(lines(server.stderr())[0]).toMatchObject({ msg: 'telemetry: off (no OTEL_* set)' });
  const modern = post2026(server.url, 'slow', 7);
  const session = new Client({ name: 'shutdown-e2e', version: '0.0.0' });
  await session.connect(new StreamableHTTPClientTransport(server.url));
  const started = Date.now();
  const legacy = session.callTool({ name: 'slow', arguments: {} }).then(
    () => 'answered',
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  );
  await new Promise((r) => setTimeout(r, 400));
  const { code } = await terminate(server.child);
  expect(code, server.stderr()).toBe(0);

  const answer = await modern;
  expect(await answer.json()).toEqual({
    jsonrpc: '2.0',
    id: 7,
    error: { code: -32000, message: 'server shutting down; retry' },
  });
  expect(await legacy).toEqual({ code: -32000, message: expect.stringContaining('server shutting down; retry') });
  expect(Date.now() - started).toBeLessThan(5000);
  await session.close().catch(() => {});

  const log = lines(server.stderr());
  const said = log.map((l) => l.msg);
  expect(said).toContain('draining 2 requests, up to 500 ms');
  expect(log.find((l) => String(l.msg).startsWith('drain time over'))).toMatchObject({
    level: 'warn',
    msg: 'drain time over: cut 2 requests',
  });
  expect(said.at(-1)).toBe('stopped');
  expect(said).not.toContain('handler failed');
});

it('logs a call past its timeoutMs as a timeout, and a refused call with its limit and scope', async () => {
  const server = await startHttpServer(dir);
  try {
    const client = await connectHttp(server.url, true);
    expect(await client.callTool({ name: 'timed', arguments: {} })).toMatchObject({ isError: true });
    await client.callTool({ name: 'limited', arguments: {} });
    await expect(client.callTool({ name: 'limited', arguments: {} })).rejects.toThrow(/Too many requests/);
    await client.close();
    const request = (name: string) => () =>
      lines(server.stderr()).filter((l) => l.msg === 'request' && l.name === name);
    await until(() => request('limited')().length === 2, 'the request lines');
    expect(request('timed')()).toEqual([expect.objectContaining({ level: 'warn', outcome: 'timeout' })]);
    expect(request('limited')()[1]).toMatchObject({
      level: 'warn',
      outcome: 'error',
      code: -32000,
      limit: 'rate',
      scope: 'tool limited',
    });
    expect(server.stderr()).not.toContain('handler failed');
  } finally {
    await server.stop();
  }
});

describe('a 2025 session on replicas sharing Redis', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(() => stopAll());

  it('a request cut at shutdown is answered into the event store: resuming on another replica reads the error', async () => {
    const env = { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: TEST_REQUEST_STATE_KEY };
    const a = await startHttpServer(dir, { ...env, MCP_DRAIN_MS: '300' });
    const b = await startHttpServer(dir, env);
    try {
      const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(a.url, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cut', version: '0' } },
        }),
      });
      await init.text();
      const headers = {
        ...json,
        'mcp-session-id': init.headers.get('mcp-session-id')!,
        'mcp-protocol-version': '2025-11-25',
      };
      await (
        await fetch(a.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })
      ).text();
      const call = await fetch(a.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
      });
      // The priming event's id is where a client that lost the stream resumes from.
      const reader = call.body!.getReader();
      let seen = '';
      while (!seen.includes('\n\n')) seen += new TextDecoder().decode((await reader.read()).value);
      const primed = /^id: ?(.+)$/m.exec(seen)?.[1]?.trim();
      expect(primed, seen).toBeTruthy();
      // Stopped while the call runs: the client still on the stream gets the error as an event it
      // could resume after, and the stream ends.
      const stopping = terminate(a.child);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        seen += new TextDecoder().decode(chunk.value);
      }
      expect((await stopping).code, a.stderr()).toBe(0);
      const live = seen.split('\n\n').find((e) => e.includes('"id":9'));
      expect(live, seen).toMatch(/^id: ?\S+/m);

      // A client whose connection died at that moment resumes on another replica, and reads it there.
      const resumed = await fetch(b.url, {
        method: 'GET',
        headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primed! },
        signal: AbortSignal.timeout(5_000),
      });
      expect(resumed.status).toBe(200);
      const replay = resumed.body!.getReader();
      let replayed = '';
      while (!replayed.includes('"id":9')) {
        const { value, done } = await replay.read();
        if (done) break;
        replayed += new TextDecoder().decode(value);
      }
      replay.cancel().catch(() => {});
      const event = replayed.split('\n\n').find((e) => e.includes('"id":9'));
      expect(event, replayed).toMatch(/^id: ?\S+/m);
      expect(JSON.parse(/^data: ?(.*)$/m.exec(event!)![1]!)).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32000, message: 'server shutting down; retry' },
      });
      expect(lines(a.stderr()).filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
