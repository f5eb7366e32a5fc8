/**
 * The tasks project of the end-to-end tests (tasks-e2e, redis-tasks-e2e): the manifest of
 * test/cases/tasks plus tools that wait, fail, ask and expire, with real handlers, generated and
 * compiled with tsc; optionally with bearer tokens, for callers that are different principals.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { runCli } from '../../cli/main.js';
import { memoryIO, REPO, run, TSC } from './project.js';

export const EXTRA_TOOLS = `
  wait:
    description: Waits until cancelled
    execution: { taskSupport: optional }
  crash:
    description: Fails with a protocol error
    execution: { taskSupport: optional }
  broken:
    description: Fails with a tool error
    execution: { taskSupport: optional }
  confirm:
    description: Asks before it answers
    execution: { taskSupport: optional }
  short:
    description: A task that lives 800 ms
    execution: { taskSupport: optional, ttlMs: 800 }
`;

export const HANDLERS: Record<string, string> = {
  quick: `export const handler: ToolHandlers['quick'] = (_input, ctx) => \`quick \${ctx.task ? 'task' : 'sync'}\`;`,
  build: `export const handler: ToolHandlers['build'] = async ({ project }, ctx) => {
  await ctx.progress(1, 2, 'compiling');
  await sleep(300, ctx.signal);
  return \`built \${project}\${ctx.task ? \` in task \${ctx.task.id}\` : ' synchronously'}\`;
};`,
  deploy: `export const handler: ToolHandlers['deploy'] = async (_input, ctx) => {
  const ok = ctx.accepted<{ ok: boolean }>('sure');
  if (!ok) return ctx.ask({ inputRequests: { sure: inputRequired.elicit({ message: 'Deploy?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) } });
  await sleep(200, ctx.signal);
  return \`deployed=\${ok.ok} task=\${ctx.task ? 'yes' : 'no'}\`;
};`,
  report: `export const handler: ToolHandlers['report'] = async () => ({ pages: 3 });`,
  wait: `export const handler: ToolHandlers['wait'] = async (_input, ctx) => {
  try {
    await sleep(60_000, ctx.signal);
  } finally {
    if (ctx.signal.aborted) appendFileSync(process.env.TASKS_LOG!, \`aborted \${ctx.task?.id}\\n\`);
  }
  return 'waited';
};`,
  crash: `export const handler: ToolHandlers['crash'] = async () => {
  throw new ProtocolError(ProtocolErrorCode.InternalError, 'crashed');
};`,
  broken: `export const handler: ToolHandlers['broken'] = async () => {
  throw new Error('broken tool');
};`,
  confirm: `export const handler: ToolHandlers['confirm'] = async (_input, ctx) => {
  const a = ctx.accepted<{ name: string }>('a');
  const b = ctx.accepted<{ name: string }>('b');
  if (!a || !b) {
    await ctx.task?.status('waiting for names');
    return ctx.ask({ inputRequests: {
      a: inputRequired.elicit({ message: 'A?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }),
      b: inputRequired.elicit({ message: 'B?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }),
    }, requestState: await ctx.signState({ round: 1 }) });
  }
  return \`\${a.name}+\${b.name} state=\${JSON.stringify(ctx.requestState())}\`;
};`,
  short: `export const handler: ToolHandlers['short'] = async () => 'short';`,
};

const IMPORTS = `import { appendFileSync } from 'node:fs';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolHandlers } from '../../generated/handlers.js';
import { inputRequired } from '@mcpgen/runtime';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // Cancelled before the handler's module had loaded: the signal is aborted already.
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
void sleep; void appendFileSync; void ProtocolError; void ProtocolErrorCode; void inputRequired;
`;

/** Static bearer tokens over HTTP, from the variable `tokensEnv`: each caller its own principal. */
const bearerAuth = (tokensEnv: string) => `
transports:
  stdio: {}
  http:
    auth: { bearer: { tokensEnv: ${tokensEnv} } }
`;

/**
 * Generates the tasks project in `dir` (an empty scratch folder), writes the handlers, compiles it.
 * With `tokensEnv`, HTTP callers authenticate with the static bearer tokens that variable lists.
 */
export async function buildTasksProject(dir: string, options: { tokensEnv?: string } = {}): Promise<void> {
  const yaml =
    readFileSync(path.join(REPO, 'test/cases/tasks/mcpgen.yaml'), 'utf8') +
    EXTRA_TOOLS +
    (options.tokensEnv ? bearerAuth(options.tokensEnv) : '');
  writeFileSync(path.join(dir, 'mcpgen.yaml'), yaml);
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const [name, code] of Object.entries(HANDLERS))
    writeFileSync(path.join(dir, `src/handlers/tools/${name}.ts`), `${IMPORTS}\n${code}\n`);
  const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
}

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * A real MCP client (the SDK's) as the caller of `token`: a 2025-11-25 session declaring the
 * tasks extension at initialize, where the SDK client takes a task handle as a tools/call result.
 */
export async function tasksClient(url: URL, token: string): Promise<Client> {
  const client = new Client(
    { name: 'tasks-e2e', version: '0.0.0' },
    { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  return client;
}

/** Any result: tasks/get and tasks/cancel answer the extension's shapes, not 2025's. */
const anyResult = {
  '~standard': {
    version: 1 as const,
    vendor: 'tasks-e2e',
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
  },
};

/** Starts the tool as a task through `client`: its id. */
export async function startTask(client: Client, name: string): Promise<string> {
  const handle = (await client.callTool({ name, arguments: {} })) as Record<string, unknown>;
  expect(handle, JSON.stringify(handle)).toMatchObject({ taskId: expect.any(String), status: 'working' });
  return handle.taskId as string;
}

/** tasks/cancel through `client`. */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: { taskId } }, anyResult);
}

/** tasks/get through `client`. */
export async function getTask(client: Client, taskId: string): Promise<Record<string, unknown>> {
  return client.request({ method: 'tasks/get', params: { taskId } }, anyResult);
}
