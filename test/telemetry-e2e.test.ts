/**
 * OpenTelemetry through real parts: a generated server, with the standard OTEL_* variables, sends
 * its spans and metrics over OTLP (http/protobuf) to a receiver on 127.0.0.1 that decodes them with
 * the opentelemetry-proto definitions; real MCP clients drive it over stdio and HTTP, 2025 and
 * 2026-07-28. Checked: one SERVER span per request named after the MCP conventions with their
 * attributes, a client's traceparent in `_meta` (or, without one, in the HTTP headers) as its
 * parent, a span the handler starts with the OTel API as its child, the input_required retry
 * linked to the round that asked, and the two histograms.
 */
import { createServer, type Server } from 'node:http';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, run, startHttpServer } from './helpers/project.js';

// protobufjs classes generated from the opentelemetry-proto files (OTLP 1.x), as published.
type KeyValue = { key: string; value: Record<string, unknown> };
interface Decoded {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
  resourceMetrics: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        unit: string;
        histogram?: { dataPoints?: { count: number; attributes?: KeyValue[]; explicitBounds?: number[] }[] };
      }[];
    }[];
  }[];
}
interface Message {
  decode(body: Uint8Array): unknown;
  toObject(message: unknown, options: object): Decoded;
}
const root = (await import('otlp-transformer-protobufjs/build/src/generated/root.js')).default as unknown as {
  opentelemetry: { proto: { collector: Record<'trace' | 'metrics', { v1: Record<string, Message> }> } };
};
const TRACES = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest!;
const METRICS = root.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest!;

const MANIFEST = `version: 1
server: { name: traced, version: 0.1.0 }
transports:
  stdio: {}
  http: {}
tools:
  get_forecast:
    description: A forecast, read from a (pretend) database
    input: { type: object, properties: { city: { type: string, description: Where } }, required: [city] }
  broken:
    description: Always fails
  deploy:
    description: Asks for a confirmation first
  build:
    description: A long build, run as a task
    execution: { taskSupport: optional }
`;
const HANDLERS: Record<string, string> = {
  'src/handlers/tools/get_forecast.ts': `import { trace } from '@opentelemetry/api';
import type { ToolHandlers } from '../../generated/handlers.js';

const tracer = trace.getTracer('weather-db');

export const handler: ToolHandlers['get_forecast'] = async ({ city }) =>
  tracer.startActiveSpan('db.query', async (span) => {
    await new Promise((r) => setTimeout(r, 5));
    span.end();
    return \`sunny in \${city}\`;
  });
`,
  'src/handlers/tools/broken.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['broken'] = async () => {
  throw new Error('kaput');
};
`,
  'src/handlers/tools/build.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['build'] = () => new Promise((resolve) => setTimeout(() => resolve('built'), 100));
`,
  'src/handlers/tools/deploy.ts': `import { inputRequired } from '@mcpgen/runtime';
import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['deploy'] = async (_input, ctx) => {
  const answer = ctx.accepted<{ confirm: boolean }>('confirm');
  if (!answer) {
    return ctx.ask({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: 'Deploy?',
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        }),
      },
    });
  }
  return answer.confirm ? 'deployed' : 'cancelled';
};
`,
};

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  service: unknown;
}
interface Point {
  name: string;
  unit: string;
  count: number;
  attributes: Record<string, unknown>;
  bounds: number[];
}

const hex = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64').toString('hex');
const attrs = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));

/** An OTLP/HTTP receiver: decodes each protobuf export and keeps the spans and histogram points. */
class Receiver {
  readonly spans: Span[] = [];
  readonly points: Point[] = [];
  readonly contentTypes = new Set<string>();
  #server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      this.contentTypes.add(String(req.headers['content-type']));
      const options = { longs: Number, bytes: String, defaults: false, arrays: true };
      if (req.url === '/v1/traces') {
        const decoded = TRACES.toObject(TRACES.decode(body), options);
        for (const rs of decoded.resourceSpans)
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              this.spans.push({
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name,
                kind: s.kind,
                attributes: attrs(s.attributes),
                links: (s.links ?? []).map((l) => ({
                  traceId: hex(l.traceId),
                  spanId: hex(l.spanId),
                  attributes: attrs(l.attributes),
                })),
                status: s.status ?? {},
                service: attrs(rs.resource?.attributes)['service.name'],
              });
      } else if (req.url === '/v1/metrics') {
        const decoded = METRICS.toObject(METRICS.decode(body), options);
        for (const rm of decoded.resourceMetrics)
          for (const sm of rm.scopeMetrics ?? [])
            for (const m of sm.metrics ?? [])
              for (const p of m.histogram?.dataPoints ?? [])
                this.points.push({
                  name: m.name,
                  unit: m.unit,
                  count: p.count,
                  attributes: attrs(p.attributes),
                  bounds: p.explicitBounds ?? [],
                });
      }
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.#server.close(() => r()));
  }

  /** Waits (bounded) until a span matching `where` has arrived. */
  async span(where: (s: Span) => boolean, what: string): Promise<Span> {
    for (let i = 0; i < 100; i++) {
      const found = this.spans.find(where);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no span ${what}; received: ${[...new Set(this.spans.map((s) => s.name))].join(', ')}`);
  }

  async point(where: (p: Point) => boolean, what: string): Promise<Point> {
    for (let i = 0; i < 100; i++) {
      const found = [...this.points].reverse().find(where);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no metric point ${what}; received: ${[...new Set(this.points.map((p) => p.name))].join(', ')}`);
  }
}

const receiver = new Receiver();
let dir: string;
let env: Record<string, string>;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  const endpoint = await receiver.listen();
  env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    OTEL_LOG_LEVEL: 'error',
  };
  dir = await builtProject('telemetry', MANIFEST, HANDLERS);
  http = await startHttpServer(dir, env);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
  await receiver.close();
});

const TRACE = (n: number) => `${'4bf92f3577b34da6a3ce929d0e0e47'}${String(n).padStart(2, '0')}`;
const PARENT = '00f067aa0ba902b7';
const traceparent = (n: number) => `00-${TRACE(n)}-${PARENT}-01`;

async function connect(transport: 'stdio' | 'http', modern: boolean, headers?: Record<string, string>) {
  const client = new Client(
    { name: 'telemetry-e2e', version: '0.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(
    transport === 'http'
      ? new StreamableHTTPClientTransport(http.url, headers ? { requestInit: { headers } } : undefined)
      : new StdioClientTransport({
          command: process.execPath,
          args: [path.join(dir, 'dist/src/main.js')],
          env: { ...(process.env as Record<string, string>), ...env },
          stderr: 'pipe',
        }),
  );
  clients.push(client);
  return client;
}

const cases = [
  { transport: 'stdio', modern: false, n: 1 },
  { transport: 'stdio', modern: true, n: 2 },
  { transport: 'http', modern: false, n: 3 },
  { transport: 'http', modern: true, n: 4 },
] as const;

describe.each(cases)('over $transport (2026-07-28 client: $modern)', ({ transport, modern, n }) => {
  it('a tools/call is one SERVER span under the client span of _meta.traceparent, the handler span its child', async () => {
    const client = await connect(transport, modern);
    const result = await client.callTool({
      name: 'get_forecast',
      arguments: { city: 'Paris' },
      _meta: { traceparent: traceparent(n), tracestate: 'rojo=00f067aa0ba902b7' },
    });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'sunny in Paris' }] });

    const server = await receiver.span((s) => s.traceId === TRACE(n) && s.kind === 2, `server span of trace ${n}`);
    expect(server.name).toBe('tools/call get_forecast');
    expect(server.parentSpanId).toBe(PARENT);
    expect(server.service).toBe('traced');
    expect(server.status.code ?? 0).toBe(0);
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_forecast',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': transport === 'http' ? 'tcp' : 'pipe',
      'mcp.protocol.version': modern ? '2026-07-28' : expect.stringMatching(/^2025-/),
      'jsonrpc.request.id': expect.any(String),
    });
    expect(server.attributes['error.type']).toBeUndefined();
    if (transport === 'http') expect(server.attributes['network.protocol.name']).toBe('http');
    if (transport === 'http' && !modern) expect(server.attributes['mcp.session.id']).toEqual(expect.any(String));
    else expect(server.attributes['mcp.session.id']).toBeUndefined();

    const child = await receiver.span((s) => s.traceId === TRACE(n) && s.name === 'db.query', 'db.query');
    expect(child.parentSpanId).toBe(server.spanId);
  });

  it('a tool error result sets error.type tool_error and the span status ERROR', async () => {
    const client = await connect(transport, modern);
    await client.callTool({ name: 'broken', arguments: {}, _meta: { traceparent: traceparent(n + 10) } });
    const span = await receiver.span((s) => s.traceId === TRACE(n + 10) && s.kind === 2, 'broken');
    expect(span.name).toBe('tools/call broken');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.code).toBe(2);
  });

  it('a JSON-RPC error sets error.type and rpc.response.status_code to its code', async () => {
    const client = await connect(transport, modern);
    await expect(
      client.request({
        method: 'tools/call',
        params: { name: 'nope', arguments: {}, _meta: { traceparent: traceparent(n + 20) } },
      }),
    ).rejects.toThrow('Tool nope not found');
    const span = await receiver.span((s) => s.traceId === TRACE(n + 20) && s.kind === 2, 'tools/call nope');
    expect(span.name).toBe('tools/call nope');
    expect(span.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(span.status).toMatchObject({ code: 2, message: 'Tool nope not found' });
  });
});

it('over HTTP, a request without _meta takes its parent from the traceparent header', async () => {
  const client = await connect('http', true, { traceparent: traceparent(30) });
  await client.listTools();
  const span = await receiver.span((s) => s.traceId === TRACE(30) && s.name === 'tools/list', 'tools/list');
  expect(span.parentSpanId).toBe(PARENT);
  expect(span.kind).toBe(2);
});

it('with _meta and a header both, _meta is the parent and the header a link', async () => {
  const client = await connect('http', true, { traceparent: `00-${TRACE(31)}-${'11'.repeat(8)}-01` });
  await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' }, _meta: { traceparent: traceparent(32) } });
  const span = await receiver.span((s) => s.traceId === TRACE(32) && s.kind === 2, 'linked');
  expect(span.parentSpanId).toBe(PARENT);
  expect(span.links).toContainEqual(expect.objectContaining({ traceId: TRACE(31), spanId: '11'.repeat(8) }));
});

it('a 2026-07-28 input_required retry links to the round that asked', async () => {
  const client = await connect('http', true);
  const result = await client.callTool({ name: 'deploy', arguments: {}, _meta: { traceparent: traceparent(40) } });
  expect(result).toMatchObject({ content: [{ text: 'deployed' }] });
  const deploys = async () => {
    for (let i = 0; i < 100; i++) {
      const found = receiver.spans.filter((s) => s.traceId === TRACE(40) && s.name === 'tools/call deploy');
      if (found.length >= 2) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('two rounds of deploy not received');
  };
  const [first, retry] = await deploys();
  expect(retry!.links).toContainEqual(
    expect.objectContaining({ spanId: first!.spanId, attributes: { 'mcp.link': 'input_required' } }),
  );
});

it("a task's tasks/get links to the tools/call that created it", async () => {
  const client = new Client(
    { name: 'telemetry-e2e', version: '0.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  );
  await client.connect(new StreamableHTTPClientTransport(http.url));
  clients.push(client);
  const handle = (await client.callTool({ name: 'build', arguments: {}, _meta: { traceparent: traceparent(60) } })) as {
    taskId?: string;
  };
  expect(handle.taskId).toEqual(expect.any(String));
  const anyResult = {
    '~standard': { version: 1 as const, vendor: 'telemetry-e2e', validate: (value: unknown) => ({ value }) },
  };
  await client.request({ method: 'tasks/get', params: { taskId: handle.taskId } }, anyResult);
  let created: Span | undefined;
  let got: Span | undefined;
  for (let i = 0; i < 100 && !(created && got); i++) {
    created = receiver.spans.find((s) => s.traceId === TRACE(60) && s.name === 'tools/call build');
    got = receiver.spans.find(
      (s) => s.name.startsWith('tasks/get') && s.links.some((l) => l.spanId === created?.spanId),
    );
    if (!(created && got)) await new Promise((r) => setTimeout(r, 100));
  }
  expect(created, 'the tools/call span').toBeDefined();
  expect(got!.links).toContainEqual(
    expect.objectContaining({ spanId: created!.spanId, attributes: { 'mcp.link': 'task' } }),
  );
});

it('records mcp.server.operation.duration and, as a 2025 session closes, mcp.server.session.duration', async () => {
  const op = await receiver.point(
    (p) => p.name === 'mcp.server.operation.duration' && p.attributes['gen_ai.tool.name'] === 'get_forecast',
    'operation.duration',
  );
  expect(op.unit).toBe('s');
  expect(op.bounds).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
  expect(op.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool' });
  expect(op.attributes['mcp.session.id']).toBeUndefined();
  expect(op.attributes['jsonrpc.request.id']).toBeUndefined();
  const failed = await receiver.point(
    (p) => p.name === 'mcp.server.operation.duration' && p.attributes['error.type'] === 'tool_error',
    'tool_error',
  );
  expect(failed.attributes['gen_ai.tool.name']).toBe('broken');

  const client = await connect('http', false);
  // The client ends its session (DELETE), the server closes it.
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  const session = await receiver.point(
    (p) => p.name === 'mcp.server.session.duration' && p.attributes['network.transport'] === 'tcp',
    'session.duration',
  );
  expect(session.unit).toBe('s');
  expect(session.attributes['mcp.protocol.version']).toMatch(/^2025-/);
  expect(receiver.contentTypes).toEqual(new Set(['application/x-protobuf']));
});

it('without OTEL_* variables, exports nothing', async () => {
  const before = receiver.spans.length;
  const plain = await startHttpServer(dir, {});
  try {
    const client = new Client({ name: 'telemetry-e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(plain.url));
    await client.callTool({
      name: 'get_forecast',
      arguments: { city: 'Rome' },
      _meta: { traceparent: traceparent(50) },
    });
    await client.close();
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.spans.filter((s) => s.traceId === TRACE(50))).toEqual([]);
    expect(receiver.spans.length).toBe(before);
  } finally {
    await plain.stop();
  }
});

it('a stdio session is recorded when the client closes stdin, exported before the process exits', async () => {
  const client = await connect('stdio', false);
  await client.listTools();
  await client.close();
  const session = await receiver.point(
    (p) => p.name === 'mcp.server.session.duration' && p.attributes['network.transport'] === 'pipe',
    'stdio session.duration',
  );
  expect(session.count).toBeGreaterThanOrEqual(1);
  expect(session.attributes['mcp.protocol.version']).toMatch(/^2025-/);
});

it('with OTEL_* set and the OpenTelemetry packages missing, the server stops at start naming the install', async () => {
  // The runtime's telemetry module alone, where no @opentelemetry package can be resolved.
  const alone = mkdtempSync(path.join(tmpdir(), 'mcpgen-telemetry-'));
  try {
    writeFileSync(path.join(alone, 'package.json'), '{"type":"module"}');
    for (const file of ['telemetry.js', 'peers.js', 'request-log.js'])
      copyFileSync(path.join(import.meta.dirname, '../packages/runtime/dist', file), path.join(alone, file));
    const started = await run(
      process.execPath,
      ['--input-type=module', '-e', "import('./telemetry.js'); setTimeout(() => console.log('still serving'), 2000)"],
      alone,
      30_000,
      { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
    );
    expect(started.code).toBe(1);
    expect(started.stdout).not.toContain('still serving');
    expect(started.stderr.trim()).toBe(
      "OpenTelemetry (OTEL_* environment variables) needs the package @opentelemetry/api, which is not installed; run: npm install @opentelemetry/api@'>=1.9.0 <1.11.0' @opentelemetry/sdk-node@'>=0.223.0 <0.302.0'",
    );
    const off = await run(
      process.execPath,
      ['--input-type=module', '-e', "await import('./telemetry.js'); console.log('serving')"],
      alone,
      30_000,
      {
        PATH: process.env.PATH,
      },
    );
    expect(off).toMatchObject({ code: 0, stdout: 'serving\n' });
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
});
