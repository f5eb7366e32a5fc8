/**
 * The OAuth 2.1 resource server end to end: a real authorization server (oidc-provider, on
 * 127.0.0.1) issues real signed tokens; the generated server (test/cases/oauth, compiled once)
 * runs as a process and is asked by raw HTTP and by the SDK client, its own OAuth flow included.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, run, scratch, startHttpServer } from './helpers/project.js';

const SCOPES = 'mcp notes:read notes:write';
const OTHER_RESOURCE = 'https://other.example/api';

/** A private signing key as oidc-provider wants it (a JWK with `kid`). */
async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
}

/** The resources the authorization servers issue tokens for: the MCP servers started, and another. */
const resources = new Set([OTHER_RESOURCE]);

/** An authorization server answering at `issuer`, issuing JWT access tokens (opaque for `opaque`). */
function authorizationServer(issuer: string, keys: JWK[]): Provider {
  const client = (id: string) => ({
    client_id: id,
    client_secret: `${id}-secret-that-is-long-enough`,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: SCOPES,
    id_token_signed_response_alg: 'ES256',
  });
  const provider = new Provider(issuer, {
    clients: [client('app'), client('short-lived'), client('opaque'), client('mcp-server')],
    jwks: { keys },
    scopes: SCOPES.split(' '),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => {
          if (!resources.has(resource)) throw new Error(`unknown resource ${resource}`);
          return {
            scope: SCOPES,
            audience: resource,
            accessTokenTTL: client.clientId === 'short-lived' ? 1 : 600,
            accessTokenFormat: client.clientId === 'opaque' ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  // oidc-provider logs to the console what it would tell a browser: not wanted in test output.
  provider.on('server_error', () => {});
  return provider;
}

/** A server on 127.0.0.1 whose handler can be swapped (a provider restarted with new keys). */
async function listen(): Promise<{
  server: Server;
  url: string;
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
}> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, serve: (h) => (handler = h) };
}

const handlers = {
  'src/handlers/tools/whoami.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['whoami'] = async (_input, ctx) =>
  JSON.stringify({ clientId: ctx.authInfo?.clientId, scopes: ctx.authInfo?.scopes, resource: ctx.authInfo?.resource?.href, principal: ctx.authInfo?.extra?.principal, sub: ctx.authInfo?.extra?.sub });
`,
  'src/handlers/tools/add_note.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['add_note'] = async (input) => \`saved: \${input.text}\`;
`,
  'src/handlers/templates/note.ts': `import type { TemplateHandlers } from '../../generated/handlers.js';
export const read: TemplateHandlers['note']['read'] = async (params) => \`note \${params.id}\`;
`,
};

type Running = Awaited<ReturnType<typeof startHttpServer>>;

/** A client_credentials token from `issuer` (oidc-provider's token endpoint is `/token`); without a resource, one bound to none. */
async function token(issuer: string, clientId: string, scope: string, resource: string | null): Promise<string> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientId}-secret-that-is-long-enough`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, ...(resource !== null ? { resource } : {}) }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token from ${issuer}: ${JSON.stringify(body)}`);
  return body.access_token;
}

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** A raw POST to the MCP endpoint: status and challenge. */
async function post(
  url: URL,
  bearer: string | null,
  body = PING,
): Promise<{ status: number; challenge: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(bearer !== null ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body,
  });
  await res.body?.cancel();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

async function connect(url: URL, bearer: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: 'oauth-e2e', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

describe('OAuth resource server against a real authorization server', () => {
  let dir: string;
  let as: Awaited<ReturnType<typeof listen>>;
  let rogue: Awaited<ReturnType<typeof listen>>;
  let keys: JWK[];
  let mcp: Running;
  const resource = () => mcp.url.href;
  let shortLived: Promise<string | Error>;

  beforeAll(async () => {
    dir = scratch('oauth', path.join(REPO, 'test/cases/oauth'));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    for (const [file, text] of Object.entries(handlers)) writeFileSync(path.join(dir, file), text);
    const tsc = await buildServer(dir);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

    as = await listen();
    rogue = await listen();
    keys = [await signingKey('key-1')];
    as.serve(authorizationServer(as.url, keys).callback());
    // Another issuer holding the same key: its tokens verify, but name the wrong `iss`.
    rogue.serve(authorizationServer(rogue.url, keys).callback());

    mcp = await startHttpServer(dir, {
      MCP_OAUTH_ISSUER: as.url,
      MCP_OAUTH_CLIENT_ID: 'mcp-server',
      MCP_OAUTH_CLIENT_SECRET: 'mcp-server-secret-that-is-long-enough',
      MCP_TOKENS: 'ci:static-token-of-ci',
    });
    resources.add(resource());
    // Minted now, checked last: by then it has expired (TTL 1 s, clockToleranceSeconds: 0).
    shortLived = token(as.url, 'short-lived', 'mcp', resource()).catch((error: Error) => error);
  }, 120_000);

  afterAll(async () => {
    await mcp?.stop();
    for (const s of [as, rogue]) if (s) await new Promise((resolve) => s.server.close(resolve).closeAllConnections());
  });

  it('refuses to start without an issuer, saying so', async () => {
    const r = await run(process.execPath, [path.join(dir, 'dist/src/main.js'), '--http', '--port', '0'], dir, 15_000, {
      ...process.env,
      MCP_OAUTH_ISSUER: '',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/oauth-notes: no OAuth authorization server: set MCP_OAUTH_ISSUER/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const insecure = await run(
      process.execPath,
      [path.join(dir, 'dist/src/main.js'), '--http', '--port', '0'],
      dir,
      15_000,
      {
        ...process.env,
        MCP_TOKENS: 't',
        MCP_OAUTH_ISSUER: 'http://auth.example.com/',
      },
    );
    expect(insecure.code).toBe(1);
    expect(insecure.stderr).toMatch(/MCP_OAUTH_ISSUER \(issuer\) must be an https URL \(http only on localhost\)/);
  });

  it('answers 401 without a token, naming its metadata and the base scope', async () => {
    const r = await post(mcp.url, null);
    expect(r.status).toBe(401);
    expect(r.challenge).toBe(
      `Bearer error="invalid_token", error_description="Missing Authorization header", scope="mcp", resource_metadata="${mcp.url.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('serves the Protected Resource Metadata at both well-known paths, to any origin', async () => {
    for (const at of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(new URL(at, mcp.url), { headers: { Origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource: mcp.url.href,
        authorization_servers: [as.url],
        scopes_supported: ['mcp', 'notes:read', 'notes:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'OAuth notes (test)',
        resource_documentation: 'https://example.com/docs/oauth-notes',
      });
    }
    // The metadata opens nothing else: the MCP endpoint still wants a token, the guards still hold.
    expect((await fetch(new URL('/.well-known/oauth-protected-resource', mcp.url), { method: 'POST' })).status).toBe(
      405,
    );
    expect((await post(new URL('/.well-known/oauth-protected-resource/mcp/x', mcp.url), null)).status).toBe(404);
  });

  it.each([false, true])(
    'a token for this resource with every scope does everything (2026 client: %s)',
    async (modern) => {
      const bearer = await token(as.url, 'app', SCOPES, resource());
      const client = await connect(mcp.url, bearer, modern);
      try {
        const who = await client.callTool({ name: 'whoami', arguments: {} });
        const seen = JSON.parse((who.content as { text: string }[])[0]!.text);
        expect(seen).toEqual({
          clientId: 'app',
          scopes: ['mcp', 'notes:read', 'notes:write'],
          resource: mcp.url.href,
          principal: JSON.stringify([as.url, 'app', 'app']),
          sub: 'app',
        });
        expect(await client.callTool({ name: 'add_note', arguments: { text: 'hi' } })).toMatchObject({
          content: [{ type: 'text', text: 'saved: hi' }],
        });
        expect((await client.readResource({ uri: 'notes://secret' })).contents[0]).toMatchObject({
          text: 'For readers only',
        });
        expect((await client.readResource({ uri: 'notes://note/7' })).contents[0]).toMatchObject({ text: 'note 7' });
        expect((await client.getPrompt({ name: 'summarize' })).messages).toHaveLength(1);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add_note', 'whoami']);
      } finally {
        await client.close();
      }
    },
  );

  it.each([false, true])(
    'a call without its scope is 403 insufficient_scope naming what it needs (2026 client: %s)',
    async (modern) => {
      const bearer = await token(as.url, 'app', 'mcp notes:read', resource());
      const client = await connect(mcp.url, bearer, modern);
      try {
        expect((await client.readResource({ uri: 'notes://secret' })).contents).toHaveLength(1);
        const refused = await client.callTool({ name: 'add_note', arguments: { text: 'x' } }).catch((e: Error) => e);
        expect(refused).toBeInstanceOf(Error);
        expect(String(refused)).toMatch(/Insufficient scope: required "notes:write mcp"/);
      } finally {
        await client.close();
      }
      // The same on the wire, with the exact challenge.
      const call = (extra: object) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'add_note', arguments: { text: 'x' }, ...extra },
        });
      const modernCall = call({
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      });
      const res = await fetch(mcp.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${bearer}`,
          ...(modern
            ? { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'add_note' }
            : {}),
          ...(modern ? {} : { 'Mcp-Session-Id': await session(mcp.url, bearer) }),
        },
        body: modern ? modernCall : call({}),
      });
      await res.body?.cancel();
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="notes:write mcp", resource_metadata="${mcp.url.origin}/.well-known/oauth-protected-resource/mcp"`,
      );
    },
  );

  it('over the legacy HTTP+SSE transport: the same token does everything, a missing scope is the same 403', async () => {
    const sse = new URL('/sse', mcp.url);
    // No token: the stream is refused with the challenge naming the metadata.
    const denied = await fetch(sse, { headers: { Accept: 'text/event-stream' } });
    await denied.body?.cancel();
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(
      /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    const full = await token(as.url, 'app', SCOPES, resource());
    const v1 = (bearer: string) => {
      const client = new V1Client({ name: 'oauth-sse', version: '0.0.0' });
      const transport = new SSEClientTransport(sse, {
        requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
        eventSourceInit: {
          fetch: (url, init) =>
            fetch(url, {
              ...init,
              headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${bearer}` },
            }),
        },
      });
      return { client, connected: client.connect(transport) };
    };
    const everything = v1(full);
    await everything.connected;
    try {
      const who = JSON.parse(
        ((await everything.client.callTool({ name: 'whoami', arguments: {} })).content as { text: string }[])[0]!.text,
      );
      expect(who).toMatchObject({
        clientId: 'app',
        resource: resource(),
        scopes: expect.arrayContaining(['mcp', 'notes:read', 'notes:write']),
      });
      expect(await everything.client.callTool({ name: 'add_note', arguments: { text: 'over sse' } })).toMatchObject({
        content: [{ text: 'saved: over sse' }],
      });
      expect((await everything.client.readResource({ uri: 'notes://secret' })).contents).toHaveLength(1);
      expect((await everything.client.readResource({ uri: 'notes://note/7' })).contents).toMatchObject([
        { text: 'note 7' },
      ]);
      expect((await everything.client.getPrompt({ name: 'summarize' })).messages).toHaveLength(1);
    } finally {
      await everything.client.close();
    }
    const reader = v1(await token(as.url, 'app', 'mcp notes:read', resource()));
    await reader.connected;
    try {
      expect((await reader.client.readResource({ uri: 'notes://secret' })).contents).toHaveLength(1);
      const refused = await reader.client
        .callTool({ name: 'add_note', arguments: { text: 'x' } }, undefined, { timeout: 5000 })
        .catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
      expect(String(refused)).toMatch(/403/);
    } finally {
      await reader.client.close();
    }
  });

  it('a static bearer token (auth.bearer beside oauth) is accepted too, with every scope', async () => {
    const client = await connect(mcp.url, 'static-token-of-ci', false);
    try {
      const who = JSON.parse(
        ((await client.callTool({ name: 'whoami', arguments: {} })).content as { text: string }[])[0]!.text,
      );
      expect(who).toMatchObject({ clientId: 'ci', scopes: ['mcp', 'notes:read', 'notes:write'] });
      expect(await client.callTool({ name: 'add_note', arguments: { text: 'ci' } })).toMatchObject({
        content: [{ text: 'saved: ci' }],
      });
    } finally {
      await client.close();
    }
  });

  it("a 2025 session refuses another caller's token (404, as an unknown session)", async () => {
    const id = await session(mcp.url, await token(as.url, 'app', SCOPES, resource()));
    const other = await token(as.url, 'opaque', SCOPES, resource());
    const res = await fetch(mcp.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${other}`,
        'Mcp-Session-Id': id,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    const refusals = () =>
      mcp
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
    await vi.waitFor(() =>
      expect(refusals()).toContainEqual(
        expect.stringMatching(
          /^refused session [0-9a-f]{8}…: opened by \["http:\/\/127\.0\.0\.1:\d+","app","app"\], used by \["http:\/\/127\.0\.0\.1:\d+",(null|"opaque"),"opaque"\]$/,
        ),
      ),
    );
    expect(mcp.stderr()).not.toContain(other);
  });

  it('a token without the base scope is 403 at the door', async () => {
    const r = await post(mcp.url, await token(as.url, 'app', 'notes:read', resource()));
    expect(r.status).toBe(403);
    expect(r.challenge).toMatch(
      /^Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="/,
    );
  });

  it('a token for another resource is 401 (RFC 8707)', async () => {
    const r = await post(mcp.url, await token(as.url, 'app', SCOPES, OTHER_RESOURCE));
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="Token was not issued for this resource", scope="mcp", resource_metadata="/,
    );
  });

  it('a token of another issuer is 401, even signed with a key this one publishes', async () => {
    const r = await post(mcp.url, await token(rogue.url, 'app', SCOPES, resource()));
    expect(r.status).toBe(401);
    expect(r.challenge).toContain(`error_description="Token was not issued by ${as.url}"`);
  });

  it('a tampered token is 401: signature, then algorithm `none`', async () => {
    const good = await token(as.url, 'app', SCOPES, resource());
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, scope: `${claims.scope} admin` })).toString('base64url');
    const r = await post(mcp.url, `${header}.${forged}.${signature}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error_description="Token signature is invalid"');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    const unsigned = await post(mcp.url, `${none}.${payload}.`);
    expect(unsigned.status).toBe(401);
    expect(unsigned.challenge).toMatch(/error="invalid_token"/);
  });

  it('an opaque token is introspected (RFC 7662); an unknown one is 401 not active', async () => {
    const opaque = await token(as.url, 'opaque', SCOPES, resource());
    expect(opaque.split('.')).toHaveLength(1);
    const client = await connect(mcp.url, opaque, true);
    try {
      const who = JSON.parse(
        ((await client.callTool({ name: 'whoami', arguments: {} })).content as { text: string }[])[0]!.text,
      );
      expect(who).toMatchObject({
        clientId: 'opaque',
        scopes: ['mcp', 'notes:read', 'notes:write'],
        resource: mcp.url.href,
      });
    } finally {
      await client.close();
    }
    const r = await post(mcp.url, 'not-a-token-the-issuer-knows');
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error_description="Token is not active"');
  });

  it('an introspection answer that names no audience is 401 (RFC 7662 aud); an aud for another resource too', async () => {
    // Issued without a resource indicator: oidc-provider's introspection answer then has no `aud`.
    const unbound = await token(as.url, 'opaque', SCOPES, null);
    expect(unbound.split('.')).toHaveLength(1);
    const r = await post(mcp.url, unbound, INIT);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="Token introspection names no audience \(aud\): the token is not known to be for this resource", scope="mcp", resource_metadata="/,
    );
    const other = await post(mcp.url, await token(as.url, 'opaque', SCOPES, OTHER_RESOURCE), INIT);
    expect(other.status).toBe(401);
    expect(other.challenge).toContain('error_description="Token was not issued for this resource"');
  });

  /** A JWT access token signed with the authorization server's own key, for this resource, issued at `iat`. */
  async function signed(iat: number): Promise<string> {
    const key = await importJWK(keys[0]!, 'ES256');
    return new SignJWT({ client_id: 'app', scope: SCOPES, jti: `jti-${iat}` })
      .setProtectedHeader({ alg: 'ES256', kid: keys[0]!.kid!, typ: 'at+jwt' })
      .setIssuer(as.url)
      .setAudience(resource())
      .setSubject('app')
      .setIssuedAt(iat)
      .setExpirationTime(Math.max(iat, Math.floor(Date.now() / 1000)) + 600)
      .sign(key);
  }
  const YEAR = 365 * 24 * 3600;

  it("a JWT issued a year in the future is 401, though signed by the issuer's key", async () => {
    const now = Math.floor(Date.now() / 1000);
    // The same token issued now is accepted: only `iat` differs.
    expect((await post(mcp.url, await signed(now), INIT)).status).toBe(200);
    const r = await post(mcp.url, await signed(now + YEAR), INIT);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="Token was issued in the future \(iat is (31536000|3153599\d) s ahead of this server's clock\)", scope="mcp", resource_metadata="/,
    );
    // The tolerance is the manifest's clockToleranceSeconds, 0 here: a few seconds ahead is refused too.
    expect((await post(mcp.url, await signed(now + 5), INIT)).status).toBe(401);
  });

  it('MCP_OAUTH_INTROSPECTION_AUDIENCE=optional and MCP_OAUTH_IAT_TOLERANCE_SECONDS relax both refusals', async () => {
    const own = await startHttpServer(dir, {
      MCP_OAUTH_ISSUER: as.url,
      MCP_OAUTH_CLIENT_ID: 'mcp-server',
      MCP_OAUTH_CLIENT_SECRET: 'mcp-server-secret-that-is-long-enough',
      MCP_OAUTH_INTROSPECTION_AUDIENCE: 'optional',
      MCP_OAUTH_IAT_TOLERANCE_SECONDS: String(2 * YEAR),
      // The tokens below name the main server's resource.
      MCP_OAUTH_RESOURCE: resource(),
      MCP_TOKENS: 't',
    });
    try {
      expect((await post(own.url, await token(as.url, 'opaque', SCOPES, null), INIT)).status).toBe(200);
      // An `aud` that is given must still name this resource.
      const other = await post(own.url, await token(as.url, 'opaque', SCOPES, OTHER_RESOURCE), INIT);
      expect(other.status).toBe(401);
      expect(other.challenge).toContain('error_description="Token was not issued for this resource"');
      expect((await post(own.url, await signed(Math.floor(Date.now() / 1000) + YEAR), INIT)).status).toBe(200);
    } finally {
      await own.stop();
    }
  });

  it("the SDK client's own OAuth flow: 401 → metadata → token → call, then step-up on 403", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: 'app',
      clientSecret: 'app-secret-that-is-long-enough',
      scope: 'mcp notes:read',
      expectedIssuer: as.url,
    });
    for (const modern of [false, true]) {
      const client = new Client(
        { name: 'oauth-flow', version: '0.0.0' },
        modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(new StreamableHTTPClientTransport(mcp.url, { authProvider: provider }));
      try {
        const who = JSON.parse(
          ((await client.callTool({ name: 'whoami', arguments: {} })).content as { text: string }[])[0]!.text,
        );
        expect(who.clientId).toBe('app');
        // add_note needs notes:write: the client asks the authorization server for it and retries.
        expect(await client.callTool({ name: 'add_note', arguments: { text: 'stepped up' } })).toMatchObject({
          content: [{ text: 'saved: stepped up' }],
        });
        expect(provider.tokens()?.scope?.split(' ')).toContain('notes:write');
      } finally {
        await client.close();
      }
    }
  });

  it('keeps verifying after the authorization server rotates its keys (new kid)', async () => {
    // Its own server process, with no wait between key-set fetches: jose fetches the keys again
    // when a token names a kid it has not seen.
    writeFileSync(
      path.join(dir, 'dist/rotation.js'),
      `import { startHttp } from './src/generated/http.js';
const server = await startHttp({ port: 0, oauth: { jwksCooldownMs: 0 } });
console.error('MCP over Streamable HTTP at ' + server.url);
`,
    );
    const own = await startHttpServer(
      dir,
      { MCP_OAUTH_ISSUER: as.url, MCP_OAUTH_CLIENT_ID: 'mcp-server', MCP_OAUTH_CLIENT_SECRET: 'x', MCP_TOKENS: 't' },
      { script: 'dist/rotation.js' },
    );
    const old = keys;
    try {
      const ownResource = own.url.href;
      resources.add(ownResource);
      expect((await post(own.url, await token(as.url, 'app', SCOPES, ownResource), INIT)).status).toBe(200);
      const rotated = [await signingKey('key-2'), ...keys];
      as.serve(authorizationServer(as.url, rotated).callback());
      const fresh = await token(as.url, 'app', SCOPES, ownResource);
      expect(JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid).toBe('key-2');
      expect((await post(own.url, fresh, INIT)).status).toBe(200);
    } finally {
      as.serve(authorizationServer(as.url, old).callback());
      await own.stop();
    }
  });

  it('an issuer with a path (a Keycloak realm) behind a public resource URL (a proxy)', async () => {
    // oidc-provider mounted under /realms/demo, as Keycloak serves a realm: its metadata is at
    // <issuer>/.well-known/openid-configuration, after the RFC 8414 forms answered 404.
    const realm = await listen();
    const issuer = `${realm.url}/realms/demo`;
    const callback = authorizationServer(issuer, keys).callback();
    realm.serve((req, res) => {
      if (!req.url?.startsWith('/realms/demo/')) return void res.writeHead(404).end();
      Object.assign(req, { originalUrl: req.url });
      req.url = req.url.slice('/realms/demo'.length);
      callback(req, res);
    });
    const publicUrl = 'https://mcp.example.com/api/mcp';
    resources.add(publicUrl);
    const own = await startHttpServer(dir, {
      MCP_OAUTH_ISSUER: issuer,
      MCP_OAUTH_RESOURCE: publicUrl,
      MCP_OAUTH_CLIENT_ID: 'mcp-server',
      MCP_OAUTH_CLIENT_SECRET: 'x',
      MCP_TOKENS: 't',
    });
    try {
      for (const at of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource/mcp']) {
        const metadata = (await (await fetch(new URL(at, own.url))).json()) as Record<string, unknown>;
        expect(metadata).toMatchObject({ resource: publicUrl, authorization_servers: [issuer] });
      }
      expect((await post(own.url, null)).challenge).toContain(
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp"',
      );
      expect((await post(own.url, await token(issuer, 'app', SCOPES, publicUrl), INIT)).status).toBe(200);
      resources.add(own.url.href);
      const local = await post(own.url, await token(issuer, 'app', SCOPES, own.url.href), INIT);
      expect(local.status).toBe(401);
      expect(local.challenge).toContain('error_description="Token was not issued for this resource"');
    } finally {
      await own.stop();
      await new Promise((resolve) => realm.server.close(resolve).closeAllConnections());
    }
  });

  it('reads issuer metadata where RFC 8414 and OpenID Connect put it, and names a bad URL', async () => {
    // The runtime's OAuth module, over the manifest's settings as the generated HTTP entry holds them.
    const oauth = await import('@mcpgen/runtime/oauth');
    const { httpConfig } = (await import(pathToFileURL(path.join(dir, 'dist/src/generated/http.js')).href)) as {
      httpConfig: { oauth: Parameters<typeof oauth.oauthSettings>[0] };
    };
    const settings = (options: object, env: NodeJS.ProcessEnv) => oauth.oauthSettings(httpConfig.oauth, options, env);
    expect(oauth.metadataUrls(new URL('https://login.microsoftonline.com/tenant/v2.0')).map(String)).toEqual([
      'https://login.microsoftonline.com/.well-known/oauth-authorization-server/tenant/v2.0',
      'https://login.microsoftonline.com/.well-known/openid-configuration/tenant/v2.0',
      'https://login.microsoftonline.com/tenant/v2.0/.well-known/openid-configuration',
    ]);
    expect(oauth.metadataUrls(new URL('https://example.auth0.com/')).map(String)).toEqual([
      'https://example.auth0.com/.well-known/oauth-authorization-server',
      'https://example.auth0.com/.well-known/openid-configuration',
    ]);
    const env = {
      MCP_OAUTH_ISSUER: 'https://auth.example.com/',
      MCP_OAUTH_CLIENT_ID: 'c',
      MCP_OAUTH_CLIENT_SECRET: 's',
    };
    expect(() => settings({}, { ...env, MCP_OAUTH_JWKS_URI: 'http://keys.example.com/jwks' })).toThrow(
      'MCP_OAUTH_JWKS_URI (JWKS URI) must be an https URL (http only on localhost): http://keys.example.com/jwks',
    );
    expect(() => settings({}, { ...env, MCP_OAUTH_RESOURCE: 'https://mcp.example.com/mcp#x' })).toThrow(
      'MCP_OAUTH_RESOURCE (resource) must not have a fragment: https://mcp.example.com/mcp#x',
    );
    expect(() => settings({}, { MCP_OAUTH_ISSUER: 'https://auth.example.com/' })).toThrow(
      'MCP_OAUTH_CLIENT_ID and MCP_OAUTH_CLIENT_SECRET must be set: token introspection authenticates with them',
    );
    expect(settings({}, { ...env, MCP_OAUTH_AUDIENCE: 'api://a, api://b' }).audience).toEqual(['api://a', 'api://b']);
    // Both refusals hold unless relaxed; the iat tolerance defaults to the clock tolerance.
    expect(settings({}, env)).toMatchObject({ introspectionAudience: 'required', iatToleranceSeconds: 0 });
    expect(settings({ introspectionAudience: 'optional', iatToleranceSeconds: 60 }, env)).toMatchObject({
      introspectionAudience: 'optional',
      iatToleranceSeconds: 60,
    });
    expect(() => settings({}, { ...env, MCP_OAUTH_INTROSPECTION_AUDIENCE: 'off' })).toThrow(
      'MCP_OAUTH_INTROSPECTION_AUDIENCE must be "required" or "optional", not "off"',
    );
    expect(() => settings({}, { ...env, MCP_OAUTH_IAT_TOLERANCE_SECONDS: '1y' })).toThrow(
      'MCP_OAUTH_IAT_TOLERANCE_SECONDS must be a whole number of seconds (0 or more), not "1y"',
    );
  });

  it('answers 503 with Retry-After (not 401, not 500) while the authorization server is down, and logs the cause once', async () => {
    const lonely = await listen();
    const down = lonely.url;
    await new Promise((resolve) => lonely.server.close(resolve));
    const own = await startHttpServer(dir, {
      MCP_OAUTH_ISSUER: down,
      MCP_OAUTH_CLIENT_ID: 'mcp-server',
      MCP_OAUTH_CLIENT_SECRET: 'x',
      MCP_TOKENS: 't',
    });
    try {
      const bearer = await token(as.url, 'app', SCOPES, resource());
      for (let i = 0; i < 3; i++) {
        const res = await fetch(own.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            Authorization: `Bearer ${bearer}`,
          },
          body: PING,
        });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await res.json()).toMatchObject({ error: 'temporarily_unavailable' });
      }
      const logged = own.stderr().match(/OAuth: cannot read the metadata of issuer/g) ?? [];
      expect(logged).toHaveLength(1);
      expect(own.stderr()).toMatch(/ECONNREFUSED/);
      expect(own.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await own.stop();
    }
  });

  it('an expired token is 401', async () => {
    const expired = await shortLived;
    if (expired instanceof Error) throw expired;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const r = await post(mcp.url, expired);
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error_description="Token has expired"');
  });
});

/** Opens a 2025 session with `bearer` and returns its id. */
async function session(url: URL, bearer: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${bearer}`,
    },
    body: INIT,
  });
  await res.body?.cancel();
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session: HTTP ${res.status}`);
  return id;
}
