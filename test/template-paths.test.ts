/**
 * Template path safety: a variable that can carry `/` is refused with the
 * not-found error of the session's revision when it escapes (a `..` segment, encoded or with
 * backslashes, a rooted leading `/`, a drive, a NUL byte) before the handler runs; ordinary nested
 * paths reach the handler; `allowPathTraversal: true` hands values over as sent. Through the real
 * client on stdio and Streamable HTTP, 2025-11-25 and 2026-07-28, against test/cases/template-paths
 * built into a scratch folder; safeJoin is tested from the compiled project.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch, startHttpServer } from './helpers/project.js';

type Era = 'legacy' | 'modern';
type Kind = 'stdio' | 'http';

const ROOT = '/srv/root';
let dir: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

/** Every handler answers with what it was given, so a test sees exactly what reached it. */
function echoHandler(name: string, joined: boolean): string {
  return [
    "import type { TemplateHandlers } from '../../generated/handlers.js';",
    joined ? "import { safeJoin } from '@mcpgen/runtime';" : '',
    '',
    `export const read: TemplateHandlers[${JSON.stringify(name)}]['read'] = async (params, uri) =>`,
    `  JSON.stringify({ params${joined ? `, joined: safeJoin(${JSON.stringify(ROOT)}, params.path, uri)` : ''} });`,
    '',
  ].join('\n');
}

beforeAll(async () => {
  dir = scratch('template-paths', path.join(REPO, 'test/cases/template-paths'));
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const name of ['docs', 'files', 'notes', 'sources', 'raw', 'entry', 'entry-any']) {
    writeFileSync(path.join(dir, `src/handlers/templates/${name}.ts`), echoHandler(name, name === 'files'));
  }
  const tsc = await buildServer(dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  http = await startHttpServer(dir);
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
});

async function connect(kind: Kind, era: Era): Promise<Client> {
  const client = new Client(
    { name: 'mcpgen-template-paths-test', version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport =
    kind === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [path.join(dir, 'dist/src/main.js')],
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(http.url);
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The JSON-RPC error a read is answered with (fails when it succeeds). */
async function readError(client: Client, uri: string): Promise<{ code: number; message: string; data: unknown }> {
  const error = await client.readResource({ uri }).then(
    (result) => {
      throw new Error(`${uri} was read: ${JSON.stringify(result)}`);
    },
    (e: unknown) => e as { code: number; message: string; data: unknown },
  );
  return { code: error.code, message: error.message, data: error.data };
}

async function readJson(client: Client, uri: string): Promise<unknown> {
  const result = await client.readResource({ uri });
  expect(result.contents).toHaveLength(1);
  return JSON.parse((result.contents[0] as { text: string }).text);
}

/** URI → the variable and the problem named in the refusal. */
const refused: [string, string, string][] = [
  ['file:///a%2F..%2F..%2Fetc%2Fpasswd', 'path', 'has a ".." segment'],
  ['file:///a/%2e%2e%2F%2e%2e%2Fetc/passwd', 'path', 'has a ".." segment'],
  ['file:///a%5C..%5C..%5Cetc%5Cpasswd', 'path', 'has a ".." segment'],
  ['file:///a/%252e%252e/etc', 'path', 'has a ".." segment'],
  ['file:////etc/passwd', 'path', 'starts with a separator where the template supplies the root'],
  ['file:///%2Fetc%2Fpasswd', 'path', 'starts with a separator where the template supplies the root'],
  ['file:///%5C%5Cserver%5Cshare', 'path', 'starts with a separator where the template supplies the root'],
  ['file:///C:%5CWindows%5Cwin.ini', 'path', 'names a drive'],
  ['file:///a%00.txt', 'path', 'holds a NUL byte'],
  ['repo:a/../../etc/passwd', 'path', 'has a ".." segment'],
  ['repo:a\\..\\..\\etc\\passwd', 'path', 'has a ".." segment'],
  ['notes://book/..%2F..%2Fsecret/1', 'chapter', 'has a ".." segment'],
  ['docs://library/..%2F..%2Fsecret', 'name', 'has a ".." segment'],
  ['docs://library/..\\..\\secret', 'name', 'has a ".." segment'],
];

const matrix: [Kind, Era][] = [
  ['stdio', 'legacy'],
  ['stdio', 'modern'],
  ['http', 'legacy'],
  ['http', 'modern'],
];

describe.each(matrix)('%s, %s era', (kind, era) => {
  let client: Client;
  let notFound: number;
  beforeAll(async () => {
    client = await connect(kind, era);
    // A refused path is the same error as a URI that matches nothing, on this connection's era.
    notFound = (await readError(client, 'nowhere://at/all')).code;
  }, 30_000);

  it('negotiates the era, and a missing resource is -32602 on 2026-07-28', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    if (era === 'modern') expect(notFound).toBe(-32602);
    else expect([-32602, -32002]).toContain(notFound);
  });

  it.each(refused)('refuses %s before the handler runs', async (uri, variable, problem) => {
    const href = new URL(uri).href;
    const error = await readError(client, uri);
    expect(error.code).toBe(notFound);
    expect(error.data).toEqual({ uri: href });
    expect(error.message).toContain(
      `Resource not found: ${href} (variable "${variable}" ${problem}; path traversal is refused)`,
    );
  });

  it('hands ordinary nested paths to the handler, decoded', async () => {
    expect(await readJson(client, 'file:///docs/guide/intro.md')).toEqual({
      params: { path: 'docs/guide/intro.md' },
      joined: `${ROOT}/docs/guide/intro.md`,
    });
    expect(await readJson(client, 'file:///a..b/c%20d/..e')).toEqual({
      params: { path: 'a..b/c d/..e' },
      joined: `${ROOT}/a..b/c d/..e`,
    });
    expect(await readJson(client, 'repo:src/main.ts')).toEqual({ params: { path: 'src/main.ts' } });
    expect(await readJson(client, 'notes://book/3/12')).toEqual({ params: { chapter: '3', page: '12' } });
    expect(await readJson(client, 'docs://library/read%20me')).toEqual({ params: { name: 'read me' } });
  });

  it('reads literal dot segments of a hierarchical URI as the URL parser resolves them (clamped at the root)', async () => {
    expect(await readJson(client, 'file:///a/../../etc/passwd')).toEqual({
      params: { path: 'etc/passwd' },
      joined: `${ROOT}/etc/passwd`,
    });
  });

  it('reads a URI two templates match with the one whose name sorts first, and a resource URI with the resource', async () => {
    expect(await readJson(client, 'kb://entries/7')).toEqual({ params: { id: '7' } });
    expect(await readJson(client, 'kb://entries/7/notes')).toEqual({ params: { rest: '7/notes' } });
    expect((await client.readResource({ uri: 'kb://entries/index' })).contents).toEqual([
      { uri: 'kb://entries/index', mimeType: 'text/plain', text: 'index' },
    ]);
  });

  it('hands values as sent to a template with allowPathTraversal', async () => {
    expect(await readJson(client, 'raw:///a%2F..%2F..%2Fetc%2Fpasswd')).toEqual({
      params: { path: 'a/../../etc/passwd' },
    });
    expect(await readJson(client, 'raw:////etc/passwd')).toEqual({ params: { path: '/etc/passwd' } });
  });
});

describe('safeJoin (@mcpgen/runtime)', () => {
  type SafeJoin = (root: string, path: string | readonly string[], uri?: URL | string) => string;
  let safeJoin: SafeJoin;
  beforeAll(async () => {
    ({ safeJoin } = (await import('@mcpgen/runtime')) as { safeJoin: SafeJoin });
  });

  const escapes = (p: string | string[], uri?: string) => {
    try {
      safeJoin(ROOT, p, uri);
    } catch (e) {
      const error = e as { code: number; message: string; data: unknown };
      return { code: error.code, message: error.message, data: error.data };
    }
    throw new Error(`${JSON.stringify(p)} was joined`);
  };

  it('joins relative paths and segments under the root', () => {
    expect(safeJoin(ROOT, 'a/b/c.txt')).toBe('/srv/root/a/b/c.txt');
    expect(safeJoin(ROOT, ['a', 'b', 'c.txt'])).toBe('/srv/root/a/b/c.txt');
    expect(safeJoin(`${ROOT}/`, 'a/./b/../c')).toBe('/srv/root/a/c');
    expect(safeJoin(ROOT, '')).toBe('/srv/root');
    expect(safeJoin(ROOT, 'a..b')).toBe('/srv/root/a..b');
    expect(safeJoin('/', 'etc/passwd')).toBe('/etc/passwd');
  });

  it('throws the not-found error when the path leaves the root', () => {
    expect(escapes('../etc/passwd', 'file:///x')).toEqual({
      code: -32602,
      message: 'Resource not found: file:///x (the path leaves its root)',
      data: { uri: 'file:///x' },
    });
    expect(escapes('a/../../etc').message).toBe('Resource not found: a/../../etc (the path leaves its root)');
    expect(escapes('a\\..\\..\\etc').message).toContain('the path leaves its root');
    expect(escapes('/etc/passwd').message).toContain('the path leaves its root');
    expect(escapes(['a', '..', '..', 'etc']).message).toContain('the path leaves its root');
    // Lexical: a sibling whose name starts with the root's is outside it.
    expect(escapes('../root-other/x').message).toContain('the path leaves its root');
    expect(escapes('a\0b').message).toContain('the path holds a NUL byte');
  });
});
