// Contract tests: a generated server checked against its manifest through a real MCP client, on
// every transport and protocol era it serves. The generated test/generated/contract.test.ts holds
// the manifest's expectations and calls these; they run under node:test.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';

import { Client, type Transport } from '@modelcontextprotocol/client';

/** What clients must see in the lists, exactly. */
export interface Expected {
  serverInfo: Record<string, unknown>;
  instructions: string | null;
  tools: Record<string, unknown>[];
  resources: ({ uri: string } & Record<string, unknown>)[];
  resourceTemplates: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  /** A tool with required input, to check that invalid input is rejected. */
  invalidInputTool: string | null;
}

/** A static resource and its contents. */
export type StaticResource = { uri: string; contents: unknown[] };

/** A declarative prompt, with every argument set to `<name>-value`, and what it renders to. */
export type DeclarativePrompt = {
  name: string;
  arguments: Record<string, string>;
  messages: unknown[];
};

export type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** A static completion: a prefix and the values it must complete to. */
export type Completion = { ref: Ref; argument: { name: string; value: string }; values: string[] };

/**
 * One request per handler; each must reach it (a result, or an error other than -32602). Tools are
 * called only when annotated readOnlyHint: true, and only with input valid for their schema.
 */
export type Reachable =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'prompt'; name: string; arguments: Record<string, unknown> }
  | { kind: 'resource'; uri: string }
  | { kind: 'complete'; ref: Ref; argument: { name: string; value: string } };

/** The manifest's contract, as the generated test states it. */
export interface Contract {
  expected: Expected;
  /** The static resources and their contents. */
  resources: StaticResource[];
  /** The declarative prompts and what they render to. */
  prompts: DeclarativePrompt[];
  completions: Completion[];
  reachable: Reachable[];
}

/** A named way to reach the server: `['stdio, 2025 client', () => connect(…)]`. */
export type Connection = [name: string, open: () => Promise<Client>];

const INVALID_PARAMS = -32602;

const hasView = (tool: Record<string, unknown>): boolean =>
  typeof (tool._meta as { ui?: { resourceUri?: unknown } } | undefined)?.ui?.resourceUri === 'string';

// The contract client renders views (MCP Apps), so it sees every tool as the manifest declares it.
const RENDERS_VIEWS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** A client connected over `transport`, pinned to 2026-07-28 when `modern`, else a 2025 one. */
export async function connect(transport: Transport, modern: boolean, name = 'mcpgen-contract-test'): Promise<Client> {
  const client = new Client(
    { name, version: '0.0.0' },
    {
      capabilities: RENDERS_VIEWS,
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  await client.connect(transport);
  assert.equal(client.getProtocolEra(), modern ? 'modern' : 'legacy');
  return client;
}

async function assertReachable(call: Promise<unknown>): Promise<void> {
  const result = await call.catch((error: { code?: unknown; message?: string }) => {
    assert.notEqual(error.code, INVALID_PARAMS, error.message);
  });
  // A tool answers with a result either way; a validation error there means the handler was not reached.
  assert.doesNotMatch(JSON.stringify(result ?? null), /Input validation error/);
}

/** One suite per connection: what the server shows and answers is what the manifest declares. */
export function contractSuites(contract: Contract, connections: Connection[]): void {
  const { expected } = contract;
  for (const [name, open] of connections) {
    describe(name, () => {
      let client: Client;
      before(async () => {
        client = await open();
      });
      after(() => client.close());

      it('identifies the server', () => {
        assert.deepEqual(client.getServerVersion(), expected.serverInfo);
        assert.equal(client.getInstructions() ?? null, expected.instructions);
      });

      it('lists the declared tools, schemas verbatim', async () => {
        // 2026-07-28 shows no `execution` on a tool: the tasks extension took it out.
        const tools = name.includes('2026-07-28')
          ? expected.tools.map(({ execution: _execution, ...tool }) => tool)
          : expected.tools;
        assert.deepEqual((await client.listTools()).tools, tools);
      });

      it('lists the declared prompts', async () => {
        assert.deepEqual((await client.listPrompts()).prompts, expected.prompts);
      });

      it('lists the declared resources and templates', async () => {
        const declared = new Set(expected.resources.map((resource) => resource.uri));
        const { resources } = await client.listResources();
        assert.deepEqual(
          resources.filter((resource) => declared.has(resource.uri)),
          expected.resources,
        );
        assert.deepEqual((await client.listResourceTemplates()).resourceTemplates, expected.resourceTemplates);
      });

      // Only what the manifest has: no skipped test for a kind of entry it does not declare.
      const invalid = expected.invalidInputTool;
      if (invalid !== null)
        it('rejects invalid tool input with an isError result', async () => {
          const result = await client.callTool({ name: invalid, arguments: {} });
          assert.equal(result.isError, true);
          assert.match(JSON.stringify(result.content), /Input validation error/);
        });

      it('reaches every handler', async () => {
        for (const r of contract.reachable) {
          if (r.kind === 'tool') await assertReachable(client.callTool({ name: r.name, arguments: r.arguments }));
          else if (r.kind === 'prompt')
            await assertReachable(client.getPrompt({ name: r.name, arguments: r.arguments as Record<string, string> }));
          else if (r.kind === 'resource') await assertReachable(client.readResource({ uri: r.uri }));
          else await assertReachable(client.complete({ ref: r.ref, argument: r.argument }));
        }
      });

      // MCP Apps: a tool shown in a view still answers with text, for clients without views.
      const viewed = contract.reachable.filter(
        (r) => r.kind === 'tool' && expected.tools.some((t) => t.name === r.name && hasView(t)),
      );
      if (viewed.length)
        it('answers tools with a view with text too', async () => {
          for (const r of viewed as Extract<Reachable, { kind: 'tool' }>[]) {
            const result = await client.callTool({ name: r.name, arguments: r.arguments });
            const blocks = (result.content ?? []) as { type?: string }[];
            assert.ok(
              blocks.some((block) => block.type === 'text'),
              `tool ${r.name} answered no text block: ${JSON.stringify(result)}`,
            );
          }
        });

      it('serves the static resources', async () => {
        for (const r of contract.resources) {
          assert.deepEqual((await client.readResource({ uri: r.uri })).contents, r.contents);
        }
      });

      it('renders the declarative prompts', async () => {
        for (const p of contract.prompts) {
          const result = await client.getPrompt({ name: p.name, arguments: p.arguments });
          assert.deepEqual(result.messages, p.messages);
        }
      });

      it('completes from the declared values', async () => {
        for (const c of contract.completions) {
          const result = await client.complete({ ref: c.ref, argument: c.argument });
          assert.deepEqual(result.completion.values, c.values);
        }
      });

      it('answers -32602 for unknown names', async () => {
        const invalidParams = { code: INVALID_PARAMS };
        // Only for kinds the server offers: without any, the method itself is not there.
        if (expected.tools.length)
          await assert.rejects(client.callTool({ name: 'mcpgen-no-such-tool' }), invalidParams);
        if (expected.prompts.length)
          await assert.rejects(client.getPrompt({ name: 'mcpgen-no-such-prompt' }), invalidParams);
        if (expected.resources.length || expected.resourceTemplates.length)
          await assert.rejects(client.readResource({ uri: 'mcpgen-no-such-scheme://nothing' }), invalidParams);
      });
    });
  }
}

/** What the HTTP endpoint's suite checks besides the defaults. */
export interface HttpContract {
  /** The MCP endpoint (the server's `url`), read once the server has started. */
  url: () => URL;
  serverInfo: Record<string, unknown>;
  maxBodyBytes: number;
  /** Headers every accepted request carries (a bearer token), when the endpoint needs one. */
  authorization?: Record<string, string> | undefined;
  /** OAuth: the issuer the Protected Resource Metadata names. */
  issuer?: string | undefined;
  /** The HTTP+SSE message endpoint, when the legacy transport is served. */
  sseMessagesPath?: string | undefined;
}

/** A raw request, so that Host and Content-Length are exactly what the test says. */
function send(url: URL, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; authenticate: string | undefined }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          authenticate: res.headers['www-authenticate'],
        }),
      );
    });
    req.on('error', reject).end(init.body);
  });
}

/** The HTTP endpoint: health, 404s, Host and Origin checks, the token, the body limit. */
export function httpEndpointSuite(contract: HttpContract): void {
  describe('HTTP endpoint', () => {
    const at = (path: string) => new URL(path, contract.url());
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...contract.authorization,
    };
    const post = (extra: Record<string, string> = {}, body = ping) =>
      send(contract.url(), { method: 'POST', headers: { ...headers, ...extra }, body });

    it('answers GET /health', async () => {
      const res = await send(at('/health'));
      assert.equal(res.status, 200);
      assert.deepEqual(JSON.parse(res.body), {
        status: 'ok',
        name: contract.serverInfo.name,
        version: contract.serverInfo.version,
      });
    });

    it('answers 404 off the MCP path', async () => {
      assert.equal((await send(at('/mcpgen-elsewhere'))).status, 404);
    });

    it('rejects a foreign Host or Origin (DNS rebinding)', async () => {
      assert.equal((await post({ Host: 'evil.example' })).status, 403);
      assert.equal((await post({ Origin: 'https://evil.example' })).status, 403);
    });

    if (contract.authorization) {
      it('refuses a request without a valid token with 401', async () => {
        assert.equal((await post({ Authorization: 'Bearer not-the-token' })).status, 401);
      });
    }

    const issuer = contract.issuer;
    if (issuer) {
      it('serves its Protected Resource Metadata and names it in every 401 (RFC 9728)', async () => {
        const wellKnown = '/.well-known/oauth-protected-resource';
        const suffixed = `${wellKnown}${contract.url().pathname}`;
        for (const path of [wellKnown, suffixed]) {
          const res = await send(at(path));
          assert.equal(res.status, 200, path);
          const metadata = JSON.parse(res.body) as Record<string, unknown>;
          assert.equal(metadata.resource, contract.url().href);
          assert.deepEqual(metadata.authorization_servers, [issuer]);
          assert.deepEqual(metadata.bearer_methods_supported, ['header']);
        }
        const denied = await send(contract.url(), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: ping,
        });
        assert.match(denied.authenticate ?? '', new RegExp(`resource_metadata="${at(suffixed).href}"`));
      });
    }

    const messages = contract.sseMessagesPath;
    if (messages) {
      it('answers a message to an unknown HTTP+SSE session with 404', async () => {
        const url = at(`${messages}?sessionId=mcpgen-no-such-session`);
        const res = await send(url, { method: 'POST', headers, body: ping });
        assert.equal(res.status, 404);
      });
    }

    it('rejects a body over the limit with 413', async () => {
      const pad = 'x'.repeat(contract.maxBodyBytes);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad } });
      assert.equal((await post({}, body)).status, 413);
    });
  });
}
