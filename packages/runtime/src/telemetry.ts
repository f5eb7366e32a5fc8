// OpenTelemetry traces and metrics of the requests a server answers, after the semantic conventions
// for MCP (gen-ai/mcp): one SERVER span per request, named `tools/call get_forecast`, with the
// handler's work as its children, and the histograms mcp.server.operation.duration and
// mcp.server.session.duration. Off unless the standard OTEL_* variables ask for an exporter: then,
// and only then, the OpenTelemetry API and SDK (optional peers) are loaded; otherwise a request pays
// one boolean test.

import type * as Api from '@opentelemetry/api';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';

import { loadPeer, MissingPeerError, OPTIONAL_PEERS } from './peers.js';
import { flushLog, log } from './request-log.js';

/** The variables that turn telemetry on (any of them set and not empty). */
export const TELEMETRY_ENV = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_METRICS_EXPORTER',
] as const;

/** What turned telemetry on, for the start-up error naming the missing package. */
const FEATURE = 'OpenTelemetry (OTEL_* environment variables)';

/** The packages telemetry loads, and the ranges the runtime is tested with (optional peers). */
export const TELEMETRY_PEERS: Readonly<Record<string, string>> = {
  '@opentelemetry/api': OPTIONAL_PEERS['@opentelemetry/api']!,
  '@opentelemetry/sdk-node': OPTIONAL_PEERS['@opentelemetry/sdk-node']!,
};

/** The start-up error when a telemetry package is missing: both are named, one install fixes it. */
export function missingTelemetryMessage(packageName: string): string {
  const install = Object.entries(TELEMETRY_PEERS)
    .map(([name, range]) => `${name}@'${range}'`)
    .join(' ');
  return `${FEATURE} needs the package ${packageName}, which is not installed; run: npm install ${install}`;
}

/**
 * Whether `env` asks for telemetry: an OTLP endpoint or an exporter is named, the SDK is not
 * disabled, and not every exporter named is `none`.
 */
export function telemetryConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (!TELEMETRY_ENV.some((name) => env[name]?.trim())) return false;
  const off = (name: string) => env[name]?.trim().toLowerCase() === 'none';
  return !(off('OTEL_TRACES_EXPORTER') && off('OTEL_METRICS_EXPORTER'));
}

/** Read once: the request path tests this constant, nothing more, while telemetry is off. */
export const telemetryOn = telemetryConfigured();

/** A value of an OTEL_* variable the SDK would ignore with a warning nobody reads: the server does not start. */
export class TelemetryConfigError extends Error {}

const EXPORTERS = {
  OTEL_TRACES_EXPORTER: ['otlp', 'zipkin', 'console', 'none'],
  OTEL_METRICS_EXPORTER: ['otlp', 'prometheus', 'console', 'none'],
} as const;
const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'];

const set = (env: NodeJS.ProcessEnv, name: string): string | undefined => env[name]?.trim() || undefined;

function exportersOf(env: NodeJS.ProcessEnv, name: keyof typeof EXPORTERS): string[] {
  const listed = [
    ...new Set(
      (set(env, name) ?? 'otlp')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    ),
  ];
  const known: readonly string[] = EXPORTERS[name];
  for (const exporter of listed)
    if (!known.includes(exporter))
      throw new TelemetryConfigError(
        `${name}=${exporter} is not an exporter the OpenTelemetry SDK knows; use one of ${known.join(', ')}`,
      );
  return listed.includes('none') ? [] : listed;
}

/** Where one signal's OTLP exports go, and the variable that says so (for the messages). */
interface Destination {
  protocol: string;
  endpoint: string;
  variable: string;
}

function otlpOf(env: NodeJS.ProcessEnv, signal: 'TRACES' | 'METRICS'): Destination {
  const protocolVariable = set(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = set(env, protocolVariable) ?? 'http/protobuf';
  if (!PROTOCOLS.includes(protocol))
    throw new TelemetryConfigError(
      `${protocolVariable}=${protocol} is not an OTLP protocol; use one of ${PROTOCOLS.join(', ')}`,
    );
  const variable = set(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`)
    ? `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = set(env, variable) ?? (protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318');
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new TelemetryConfigError(
      `${variable}=${endpoint} is not an http:// or https:// URL; set it to the collector's, e.g. ${protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318'}`,
    );
  return { protocol, endpoint, variable };
}

/** What telemetry will do, as the start-up line says it, and where OTLP exports go. */
export interface TelemetryPlan {
  on: boolean;
  summary: string;
  otlp: Destination[];
}

/**
 * Reads the OTEL_* variables as the SDK will: throws a `TelemetryConfigError` naming the variable
 * when one holds a value the SDK would skip (a malformed endpoint, an unknown exporter or protocol).
 */
export function telemetryPlan(env: NodeJS.ProcessEnv = process.env): TelemetryPlan {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true')
    return { on: false, summary: 'off (OTEL_SDK_DISABLED)', otlp: [] };
  if (!TELEMETRY_ENV.some((name) => set(env, name))) return { on: false, summary: 'off (no OTEL_* set)', otlp: [] };
  const traces = exportersOf(env, 'OTEL_TRACES_EXPORTER');
  const metrics = exportersOf(env, 'OTEL_METRICS_EXPORTER');
  if (traces.length === 0 && metrics.length === 0)
    return { on: false, summary: 'off (OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER are none)', otlp: [] };
  const otlp: Destination[] = [];
  const describe = (exporters: string[], signal: 'TRACES' | 'METRICS') =>
    exporters
      .map((exporter) => {
        if (exporter === 'otlp') {
          const to = otlpOf(env, signal);
          otlp.push(to);
          return `over OTLP ${to.protocol} to ${to.endpoint}`;
        }
        if (exporter === 'prometheus') {
          const host = set(env, 'OTEL_EXPORTER_PROMETHEUS_HOST') ?? '0.0.0.0';
          const port = set(env, 'OTEL_EXPORTER_PROMETHEUS_PORT') ?? '9464';
          return `for Prometheus at http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`;
        }
        return exporter === 'console' ? 'to stdout (console)' : `to ${exporter}`;
      })
      .join(' and ');
  const t = describe(traces, 'TRACES');
  const m = describe(metrics, 'METRICS');
  const summary =
    t === m
      ? `traces and metrics ${t}`
      : [t ? `traces ${t}` : 'traces off', m ? `metrics ${m}` : 'metrics off'].join('; ');
  return { on: true, summary, otlp };
}

// The conventions' advice for both histograms (seconds).
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

interface Loaded {
  api: typeof Api;
  /** Starts the SDK unless the application registered a tracer provider of its own. */
  startSdk(serviceName: string | undefined): Promise<{ shutdown(): Promise<void> }> | undefined;
}

interface Instruments {
  api: typeof Api;
  tracer: Api.Tracer;
  operation: Api.Histogram;
  session: Api.Histogram;
}

let loading: Promise<Loaded> | undefined;
let instruments: Instruments | undefined;
let sdk: { shutdown(): Promise<void> } | undefined;

async function load(): Promise<Loaded> {
  const api = await loadPeer('@opentelemetry/api', FEATURE, () => import('@opentelemetry/api'));
  // Whether something (e.g. `node --import` of the application's own setup) registered a provider.
  const delegate = (api.trace.getTracerProvider() as { getDelegate?(): object }).getDelegate?.();
  if (delegate && delegate.constructor.name !== 'NoopTracerProvider') return { api, startSdk: () => undefined };
  const { NodeSDK } = await loadPeer('@opentelemetry/sdk-node', FEATURE, () => import('@opentelemetry/sdk-node'));
  return {
    api,
    startSdk: (serviceName) => {
      // The SDK reports a failed export through the diag logger, silent unless OTEL_LOG_LEVEL is
      // set (then the SDK's own console logger says everything): one warning line instead.
      if (!process.env.OTEL_LOG_LEVEL?.trim()) api.diag.setLogger(exportFailures, api.DiagLogLevel.ERROR);
      // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the server's name.
      const named =
        process.env.OTEL_SERVICE_NAME?.trim() ||
        /(^|,)\s*service\.name=/.test(process.env.OTEL_RESOURCE_ATTRIBUTES ?? '');
      const started = new NodeSDK(named || serviceName === undefined ? {} : { serviceName });
      started.start();
      return Promise.resolve(started);
    },
  };
}

if (telemetryOn) {
  loading = load();
  // A configured feature without its package stops the server as it starts, naming the install.
  loading.catch((error: unknown) => {
    const message =
      error instanceof MissingPeerError
        ? missingTelemetryMessage(error.packageName)
        : `telemetry: ${(error as Error).message}`;
    console.error(message);
    process.exit(1);
  });
}

/** Where OTLP exports go, for the warnings: the first destination, and the variable naming it. */
function destination(): string {
  let plan: TelemetryPlan | undefined;
  try {
    plan = telemetryPlan();
  } catch {}
  const to = plan?.otlp[0];
  return to ? ` to ${to.endpoint} (${to.variable})` : '';
}

let warned = false;

/** One warning line for the first failed export; the SDK retries on its own schedule after it. */
function exportFailed(error: unknown): void {
  if (warned) return;
  warned = true;
  const reason = error instanceof Error ? error.message : String(error);
  log(
    'warn',
    `telemetry: export${destination()} failed: ${reason}; check that a collector listens there (later failures are not logged)`,
  );
}

/**
 * The failure in what the SDK logs as an error when an export fails: an error (its global error
 * handler serializes it as JSON), or a reader's message naming the export. Its other complaints
 * (resource detection, say) are not a failed export: left out.
 */
function failureOf(message: string, args: unknown[]): Error | undefined {
  const error = args.find((a) => a instanceof Error);
  if (error) return error as Error;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    if (typeof parsed.message === 'string') return new Error(parsed.message);
  } catch {}
  // A reader's own report: `metrics export timed out after 300ms`.
  return /\bexport/i.test(message) ? new Error(message) : undefined;
}

const exportFailures: Api.DiagLogger = {
  error: (message, ...args) => {
    const failure = failureOf(message, args);
    if (failure) exportFailed(failure);
  },
  warn: () => {},
  info: () => {},
  debug: () => {},
  verbose: () => {},
};

let booting: Promise<void> | undefined;

/**
 * Checks the OTEL_* variables (throws a `TelemetryConfigError` naming a malformed one), logs one
 * line saying what telemetry will do, and, when it is on, starts the SDK: exporters such as
 * Prometheus's answer from the start. A missing package rejects with a `MissingPeerError`. When
 * telemetry is off, nothing is loaded.
 */
export function startTelemetry(serviceName: string | undefined): Promise<void> {
  const plan = telemetryPlan();
  if (!booting) {
    log('info', `telemetry: ${plan.summary}`);
    flushLog();
    booting = telemetryOn && loading ? loading.then((loaded) => startOnce(loaded, serviceName)) : Promise.resolve();
  }
  return booting;
}

let starting: Promise<void> | undefined;

function startOnce(loaded: Loaded, serviceName: string | undefined): Promise<void> {
  starting ??= (async () => {
    const started = loaded.startSdk(serviceName);
    if (!started) return;
    sdk = await started;
    // A process that ends because nothing is left to do (stdin closed) exports what it holds first.
    process.once('beforeExit', () => void shutdownTelemetry());
  })();
  return starting;
}

/** How long a shutdown waits for the last spans and metrics to be exported. */
export const TELEMETRY_FLUSH_MS = 2000;

/**
 * Flushes and stops the SDK this runtime started (spans and metrics not yet exported are sent),
 * for at most `flushMs`. Never rejects: a collector that is away is one warning line.
 */
export async function shutdownTelemetry(flushMs = TELEMETRY_FLUSH_MS): Promise<void> {
  const running = sdk;
  sdk = undefined;
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), flushMs);
  });
  try {
    const ended = await Promise.race([running.shutdown(), timedOut]);
    if (ended === 'timeout' && !warned)
      log(
        'warn',
        `telemetry: the last spans and metrics could not be exported${destination()} within ${flushMs} ms (is the collector there?); they are dropped`,
      );
  } catch (error) {
    if (!warned) {
      const reason = error instanceof Error ? error.message : String(error);
      log('warn', `telemetry: the last spans and metrics could not be exported${destination()}: ${reason}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

async function instrumentsFor(server: McpServer): Promise<Instruments> {
  if (instruments) return instruments;
  const loaded = await loading!;
  if (instruments) return instruments;
  const info = (server.server as unknown as { _serverInfo?: { name?: string; version?: string } })._serverInfo;
  // Started at boot by startHttp/runStdio; a server run otherwise (tests) starts it here.
  await startOnce(loaded, info?.name);
  const { api } = loaded;
  const meter = api.metrics.getMeter('@mcpgen/runtime');
  instruments = {
    api,
    tracer: api.trace.getTracer('@mcpgen/runtime'),
    operation: meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description:
        'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
      advice: { explicitBucketBoundaries: BUCKETS },
    }),
    session: meter.createHistogram('mcp.server.session.duration', {
      unit: 's',
      description: 'The duration of the MCP session as observed on the MCP server.',
      advice: { explicitBucketBoundaries: BUCKETS },
    }),
  };
  return instruments;
}

/** How a request ended, as answers.ts sees it. */
export type Outcome =
  | { kind: 'ok'; result: unknown }
  | { kind: 'tool_error'; result: unknown }
  | { kind: 'error'; code: number; message: string };

type Request = { method: string; params?: Record<string, unknown> };

// Spans to link the later requests of one piece of work to: a task's tasks/* requests to the
// tools/call that created it, the retry of a 2026-07-28 input_required round to the round that
// asked. Kept in this process, the most recent first to go when full.
const LINKS_KEPT = 10_000;
const taskSpans = new Map<string, Api.SpanContext>();
const roundSpans = new Map<string, Api.SpanContext>();

function remember(map: Map<string, Api.SpanContext>, key: string, span: Api.SpanContext): void {
  map.delete(key);
  map.set(key, span);
  if (map.size > LINKS_KEPT) map.delete(map.keys().next().value!);
}

const metaGetter: Api.TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const headerGetter: Api.TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/**
 * A 2026-07-28 round's signed state, as the round that asked returned it and the retry echoes it
 * (the SDK hands the retry's state on as it came): the key that links the two.
 */
function echoedState(sdk: Partial<ServerContext>): string | undefined {
  if (sdk.mcpReq?.envelope === undefined || sdk.mcpReq.inputResponses === undefined) return undefined;
  const state: unknown = sdk.mcpReq.requestState();
  return typeof state === 'string' ? state : undefined;
}

/**
 * Runs one request (`run`: the handler and what answers.ts does around it) inside its SERVER span,
 * and records its duration; `outcome` reads how it ended from what `run` returned or threw.
 */
export async function traced<T>(
  server: McpServer,
  request: Request,
  ctx: unknown,
  run: () => Promise<T>,
  outcome: (result: { value: T } | { error: unknown }) => Outcome,
): Promise<T> {
  const started = performance.now();
  const { api, tracer, operation } = await instrumentsFor(server);
  const sdkCtx = ctx as Partial<ServerContext>;
  const method = request.method;
  const params = request.params ?? {};
  const text = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : undefined);

  const attributes: Api.Attributes = { 'mcp.method.name': method };
  let target: string | undefined;
  if (method === 'tools/call' && text('name') !== undefined) {
    target = text('name');
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get' && text('name') !== undefined) {
    target = text('name');
    attributes['gen_ai.prompt.name'] = target;
  }
  const http = overHttp(sdkCtx);
  attributes['network.transport'] = http ? 'tcp' : 'pipe';
  if (http) attributes['network.protocol.name'] = 'http';
  const metricAttributes: Api.Attributes = { ...attributes };
  if (
    (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') &&
    text('uri') !== undefined
  )
    attributes['mcp.resource.uri'] = text('uri');
  const id = sdkCtx.mcpReq?.id;
  if (id !== undefined && id !== null) attributes['jsonrpc.request.id'] = String(id);
  if (sdkCtx.sessionId) attributes['mcp.session.id'] = sdkCtx.sessionId;

  // The MCP convention: the client's context rides in params._meta and is the parent; the HTTP
  // request's own (headers) is the parent only when _meta carries none, else a link.
  const meta = sdkCtx.mcpReq?._meta as Record<string, unknown> | undefined;
  const headers = sdkCtx.http?.req?.headers;
  const fromMeta = typeof meta?.traceparent === 'string';
  const fromHeaders = headers?.has('traceparent') === true;
  const links: Api.Link[] = [];
  let parent = api.context.active();
  if (fromMeta) parent = api.propagation.extract(api.ROOT_CONTEXT, meta!, metaGetter);
  if (fromHeaders) {
    const transport = api.propagation.extract(api.ROOT_CONTEXT, headers!, headerGetter);
    if (fromMeta) {
      const linked = api.trace.getSpanContext(transport);
      if (linked) links.push({ context: linked });
    } else parent = transport;
  }
  const taskId = method.startsWith('tasks/') ? text('taskId') : undefined;
  const task = taskId === undefined ? undefined : taskSpans.get(taskId);
  if (task) links.push({ context: task, attributes: { 'mcp.link': 'task' } });
  const round = echoedState(sdkCtx);
  const asked = round === undefined ? undefined : roundSpans.get(round);
  if (asked) links.push({ context: asked, attributes: { 'mcp.link': 'input_required' } });

  const span = tracer.startSpan(
    target === undefined ? method : `${method} ${target}`,
    { kind: api.SpanKind.SERVER, attributes, links },
    parent,
  );
  let ended: Outcome = { kind: 'error', code: -32603, message: 'Internal error' };
  try {
    const value = await api.context.with(api.trace.setSpan(parent, span), run);
    ended = outcome({ value });
    return value;
  } catch (error) {
    ended = outcome({ error });
    throw error;
  } finally {
    const version = protocolVersion(server, sdkCtx);
    if (version) {
      span.setAttribute('mcp.protocol.version', version);
      metricAttributes['mcp.protocol.version'] = version;
    }
    if (ended.kind !== 'ok') {
      const type = ended.kind === 'tool_error' ? 'tool_error' : String(ended.code);
      span.setAttribute('error.type', type);
      metricAttributes['error.type'] = type;
      if (ended.kind === 'error') {
        span.setAttribute('rpc.response.status_code', String(ended.code));
        metricAttributes['rpc.response.status_code'] = String(ended.code);
      }
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        message: ended.kind === 'error' ? ended.message : 'tool_error',
      });
    }
    if (ended.kind !== 'error') {
      const result = ended.result as {
        task?: { taskId?: unknown };
        taskId?: unknown;
        resultType?: unknown;
        requestState?: unknown;
      } | null;
      // The tasks extension's handle (`resultType: task`, its id at the top), or a task under `task`.
      const taskId = result?.resultType === 'task' ? result.taskId : result?.task?.taskId;
      if (typeof taskId === 'string') remember(taskSpans, taskId, span.spanContext());
      if (result?.resultType === 'input_required' && typeof result.requestState === 'string')
        remember(roundSpans, result.requestState, span.spanContext());
    }
    if (method === 'initialize') sessionOpened(server, sdkCtx);
    span.end();
    operation.record((performance.now() - started) / 1000, metricAttributes);
  }
}

/**
 * Whether the request came over HTTP: the SDK gives Streamable HTTP requests `ctx.http`, and the
 * HTTP+SSE transport (no request, without authentication) a session id that stdio never has.
 */
const overHttp = (sdkCtx: Partial<ServerContext>): boolean =>
  sdkCtx.http !== undefined || sdkCtx.sessionId !== undefined;

function protocolVersion(server: McpServer, sdkCtx: Partial<ServerContext>): string | undefined {
  const claimed =
    sdkCtx.mcpReq?.envelope?.[PROTOCOL_VERSION_KEY as keyof NonNullable<ServerContext['mcpReq']['envelope']>];
  if (typeof claimed === 'string') return claimed;
  return server.server.getNegotiatedProtocolVersion?.();
}

// ---- sessions: from initialize until the connection (stdio) or the 2025 session (HTTP) closes ----

const sessions = new WeakMap<McpServer, { started: number; attributes: Api.Attributes }>();

function sessionOpened(server: McpServer, sdkCtx: Partial<ServerContext>): void {
  if (sessions.has(server)) return;
  const http = overHttp(sdkCtx);
  const attributes: Api.Attributes = { 'network.transport': http ? 'tcp' : 'pipe' };
  if (http) attributes['network.protocol.name'] = 'http';
  const version = protocolVersion(server, sdkCtx);
  if (version) attributes['mcp.protocol.version'] = version;
  sessions.set(server, { started: performance.now(), attributes });
}

/** Records the session of `server` (an instance that answered initialize) as it closes. */
export function sessionClosed(server: McpServer): void {
  const session = sessions.get(server);
  if (!session || !instruments) return;
  sessions.delete(server);
  instruments.session.record((performance.now() - session.started) / 1000, session.attributes);
}
