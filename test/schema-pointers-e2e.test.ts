/**
 * End to end: JSON Pointers into a schema's own body (test/cases/schema-local-pointers), as
 * zod-to-json-schema and pydantic write them. The case is generated into .tmp/e2e, type-checked
 * with tsc (including handler types that use the pointed-to types), its own tests run, and a real
 * client checks that every schema is listed byte for byte as written and that the server validates
 * at the place each pointer designates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Client } from '@modelcontextprotocol/client';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, run, scratch } from './helpers/project.js';
import { rawToolsList } from './helpers/raw-stdio.js';

const CASE = path.join(REPO, 'test/cases/schema-local-pointers');

const text = (s: string) => ({ type: 'text', text: s });

/** Valid input, then input that is wrong only at the place a pointer designates. */
const calls: Record<string, { accept: unknown[]; reject: unknown[] }> = {
  chat: {
    accept: [
      { message: { role: 'assistant', content: [text('hi')] } },
      {
        message: { role: 'user', content: [text('a')] },
        history: [{ role: 'assistant', content: [text('b')] }],
        first: text('c'),
      },
    ],
    reject: [
      // `#/properties/message/anyOf/0/properties/content`: at least one part, each a closed text part.
      { message: { role: 'assistant', content: [] } },
      { message: { role: 'assistant', content: [{ type: 'text', text: '' }] } },
      // `#/properties/message` in items.
      { message: { role: 'user', content: [text('a')] }, history: [{ role: 'system', content: [text('b')] }] },
      // `#/properties/message/anyOf/0/properties/content/items`.
      { message: { role: 'user', content: [text('a')] }, first: { type: 'text', text: 'c', extra: 1 } },
    ],
  },
  tree: {
    accept: [
      { root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } },
      { root: { name: 'a' }, again: { root: { name: 'b' } } },
    ],
    reject: [
      { root: { name: 'a', children: [{ name: 'b', children: [{ name: '' }] }] } },
      { root: { name: 'a' }, again: {} },
    ],
  },
  escapes: {
    accept: [{ slash: 'abc', tilde: 2, space: true }],
    reject: [
      { slash: 'ABC', tilde: 2 },
      { slash: 'abc', tilde: 0 },
      { slash: 'abc', tilde: 2, space: 'yes' },
    ],
  },
  paged: {
    accept: [{ page: { cursor: 'a', next: 'b', parent: { cursor: 'c' } }, max: 100, previous: { cursor: 'z' } }],
    reject: [
      { page: { cursor: 'a', next: '' } },
      { page: { cursor: 'a', parent: {} } },
      { page: { cursor: 'a' }, max: 101 },
      { page: { cursor: 'a' }, previous: { cursor: '' } },
    ],
  },
  legacy: {
    accept: [{ at: { x: 1, y: 2 }, x: 10 }],
    reject: [{ at: { x: 1, y: 2 }, x: 11 }, { at: { x: 11, y: 2 } }],
  },
};

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await p);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('schema-local-pointers end to end', () => {
  let dir: string;
  let client: Client;
  const manifest = parse(readFileSync(path.join(CASE, 'mcpgen.yaml'), 'utf8')) as {
    tools: Record<string, { input: Record<string, unknown> }>;
  };

  beforeAll(async () => {
    dir = scratch('schema-local-pointers', CASE);
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    // Handlers written against the pointed-to types: they compile only if each is what its pointer designates.
    writeFileSync(
      path.join(dir, 'src/type-check.ts'),
      [
        "import type { ChatInput, ChatInputMessageAnyOf0Content, TreeInput, TreeInputRoot, EscapesInput, PagedInput, Page, LegacyInput } from './generated/types.js';",
        "const content: ChatInputMessageAnyOf0Content = [{ type: 'text', text: 'x' }];",
        "export const chat: ChatInput = { message: { role: 'assistant', content }, history: [{ role: 'user', content }], first: content[0] };",
        "const leaf: TreeInputRoot = { name: 'c' };",
        "export const tree: TreeInput = { root: { name: 'a', children: [{ name: 'b', children: [leaf] }] }, again: { root: leaf, again: { root: leaf } } };",
        "export const escapes: EscapesInput = { slash: 'a', tilde: 1, space: true, 'a/b': 'b', 'm~n': 2, 'with space': false };",
        "const page: Page = { cursor: 'a', next: 'b', parent: { cursor: 'c' } };",
        'export const paged: PagedInput = { page, limit: 1, max: 2, previous: page };',
        '// @ts-expect-error: `previous` is a page, as `page` is',
        "export const badPaged: PagedInput = { page, previous: 'a' };",
        'export const legacy: LegacyInput = { at: { x: 1, y: 2 }, x: 3 };',
        "// @ts-expect-error: the assistant branch has the user branch's content, not a string",
        "export const wrong: ChatInput = { message: { role: 'assistant', content: 'x' } };",
        '// @ts-expect-error: a child is a node, which needs a name',
        "export const badTree: TreeInput = { root: { name: 'a', children: [{}] } };",
        '// @ts-expect-error: `slash` is the string `a/b` designates',
        'export const badEscapes: EscapesInput = { slash: 1, tilde: 1 };',
        '',
      ].join('\n'),
    );
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    client = await connectStdio(dir);
  }, 180_000);
  afterAll(async () => client?.close());

  it('passes its own tests (tools/list deep-equals the manifest, samples reach the handlers)', async () => {
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
  }, 180_000);

  it('lists every schema byte for byte as written (raw JSON-RPC over stdio)', async () => {
    const listed = await rawToolsList(dir, '2025-11-25');
    for (const [name, tool] of Object.entries(manifest.tools)) {
      const got = listed.find((t) => t.name === name)!;
      if (name === 'paged') continue;
      // The SDK puts the root `type` first (it is first in every one of these).
      expect(JSON.stringify(got.inputSchema), name).toBe(JSON.stringify({ type: 'object', ...tool.input }));
    }
    // The shared schema is inlined at /properties/page: its own pointers get that place in front.
    const paged = listed.find((t) => t.name === 'paged')!;
    const page = {
      type: 'object',
      properties: {
        cursor: { type: 'string', minLength: 1 },
        next: { $ref: '#/properties/page/properties/cursor', description: 'The cursor of the next page' },
        parent: { $ref: '#/properties/page' },
      },
      required: ['cursor'],
      // A sibling of the `$ref` overrides the shared schema's own key (docs/json-schema.md).
      description: 'This page',
    };
    const { page: _p, ...rest } = manifest.tools.paged!.input.properties as Record<string, unknown>;
    expect(JSON.stringify(paged.inputSchema)).toBe(
      JSON.stringify({ type: 'object', properties: { page, ...rest }, required: ['page'] }),
    );
  });

  it.each(Object.entries(calls))(
    '%s accepts valid input and refuses input invalid where a pointer leads',
    async (tool, { accept, reject }) => {
      for (const args of accept) {
        // Accepted input reaches the stub, which answers "not implemented".
        expect(
          await outcome(client.callTool({ name: tool, arguments: args as Record<string, unknown> })),
          JSON.stringify(args),
        ).toMatch(/not implemented/);
      }
      for (const args of reject) {
        expect(
          await outcome(client.callTool({ name: tool, arguments: args as Record<string, unknown> })),
          JSON.stringify(args),
        ).toMatch(/Input validation error/);
      }
    },
  );

  it('validates a template variable through a pointer into its own $defs', async () => {
    expect(await outcome(client.readResource({ uri: 'doc://abc' }))).toMatch(/not implemented/);
    expect(await outcome(client.readResource({ uri: 'doc://ABC' }))).toMatch(/data\/id must match pattern/);
  });
});
