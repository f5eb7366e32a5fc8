/**
 * Sessions and state belong to the caller that created them: a generated
 * server with two static bearer tokens (alice, bob), run as a process, driven over raw HTTP and
 * through the SDK client. Bob holding Alice's `Mcp-Session-Id`, event ID or `requestState` gets
 * nothing from them.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch, startHttpServer } from './helpers/project.js';

const TOKENS = { alice: 'token-of-alice-0123456789', bob: 'token-of-bob-0123456789' };
let url: URL;
let server: Awaited<ReturnType<typeof startHttpServer>>;

beforeAll(async () => {
  const project = scratch('session-binding', path.join(REPO, 'test/fixtures/valid/protocol'));
  appendFileSync(
    path.join(project, 'mcpgen.yaml'),
    [
      'tools:',
      '  confirm: { description: "Asks the caller to confirm, keeping who started in requestState" }',
      '',
    ].join('\n'),
  );
  const io = memoryIO(project);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  writeFileSync(
    path.join(project, 'src/handlers/tools/confirm.ts'),
    [
      "import type { ToolHandlers } from '../../generated/handlers.js';",
      "import { inputRequired } from '@mcpgen/runtime';",
      '',
      "export const handler: ToolHandlers['confirm'] = async (_input, ctx) => {",
      '  const state = ctx.requestState<{ by: string }>();',
      '  if (!state) {',
      '    return ctx.ask({',
      "      inputRequests: { ok: inputRequired.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }) },",
      "      requestState: await ctx.signState({ by: ctx.authInfo?.clientId ?? 'nobody' }),",
      '    });',
      '  }',
      "  return `started by ${state.by}, confirmed by ${ctx.authInfo?.clientId ?? 'nobody'}`;",
      '};',
      '',
    ].join('\n'),
  );
  const tsc = await buildServer(project);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  server = await startHttpServer(project, { PROTOCOL_TOKENS: `alice:${TOKENS.alice},bob:${TOKENS.bob}` });
  url = server.url;
}, 120_000);

afterAll(() => server?.stop());

const json = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const as = (who: keyof typeof TOKENS) => ({ Authorization: `Bearer ${TOKENS[who]}` });

/** Opens a 2025 session as `who`: its ID. */
async function openSession(who: keyof typeof TOKENS): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...json, ...as(who) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: who, version: '0' } },
    }),
  });
  expect(res.status).toBe(200);
  await res.body?.cancel();
  const id = res.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...json, ...as(who), 'mcp-session-id': id!, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return id!;
}

async function ping(sessionId: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...json, ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.text();
  return res.status;
}

describe('a 2025 session belongs to the principal that opened it', () => {
  it('answers its owner and refuses another principal as an unknown session (404), logging no token', async () => {
    const id = await openSession('alice');
    expect(await ping(id, as('alice'))).toBe(200);
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...json, ...as('bob'), 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
    await vi.waitFor(() => expect(server.stderr()).toMatch(/refused session \S+…: opened by alice, used by bob/));
    expect(server.stderr()).not.toContain(TOKENS.alice);
    expect(server.stderr()).not.toContain(TOKENS.bob);
    // Alice's session is untouched by the attempt.
    expect(await ping(id, as('alice'))).toBe(200);
  });

  it('without a token the request never reaches the session (401)', async () => {
    const id = await openSession('alice');
    expect(await ping(id, {})).toBe(401);
    expect(await ping(id, { Authorization: 'Bearer forged' })).toBe(401);
  });

  it("refuses another principal's GET stream, Last-Event-ID resumption and DELETE", async () => {
    const id = await openSession('alice');
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', Accept: 'text/event-stream' };
    const stream = await fetch(url, { method: 'GET', headers: { ...session, ...as('bob') } });
    expect(stream.status).toBe(404);
    await stream.text();
    const resume = await fetch(url, {
      method: 'GET',
      headers: { ...session, ...as('bob'), 'Last-Event-ID': `${id}_1` },
    });
    expect(resume.status).toBe(404);
    await resume.text();
    const del = await fetch(url, { method: 'DELETE', headers: { ...session, ...as('bob') } });
    expect(del.status).toBe(404);
    await del.text();
    expect(await ping(id, as('alice'))).toBe(200);
    const own = await fetch(url, { method: 'DELETE', headers: { ...session, ...as('alice') } });
    expect(own.status).toBe(200);
    expect(await ping(id, as('alice'))).toBe(404);
  });
});

describe('2026-07-28 requestState is bound to its principal', () => {
  /** A modern client whose later rounds (those echoing requestState) carry `second`'s token. */
  async function client(first: keyof typeof TOKENS, second: keyof typeof TOKENS): Promise<Client> {
    const c = new Client(
      { name: 'binding', version: '0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
    const swap: typeof fetch = (input, init) => {
      const echoes = typeof init?.body === 'string' && init.body.includes('"requestState"');
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${TOKENS[echoes ? second : first]}`);
      return fetch(input, { ...init, headers });
    };
    await c.connect(new StreamableHTTPClientTransport(url, { fetch: swap }));
    return c;
  }
  const text = (r: { content?: unknown }) =>
    ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('');

  it('completes when the same principal echoes it', async () => {
    const c = await client('alice', 'alice');
    try {
      expect(text(await c.callTool({ name: 'confirm' }))).toBe('started by alice, confirmed by alice');
    } finally {
      await c.close();
    }
  });

  it('is refused (-32602) when another principal replays it', async () => {
    const c = await client('alice', 'bob');
    try {
      await expect(c.callTool({ name: 'confirm' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await c.close();
    }
  });
});
