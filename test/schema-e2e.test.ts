/**
 * End to end: the schema-* golden cases generated into .tmp/e2e, compiled with tsc, their
 * own tests run, then a real client over stdio checks that every tool is listed exactly as declared
 * (key order included) and that the server accepts what each schema accepts and rejects what it
 * rejects (validation by the SDK's ajv, with the schema's own draft).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generate } from '../cli/generate.js';
import type { IR } from '../cli/normalize/ir.js';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, run, scratch } from './helpers/project.js';
import { rawToolsList } from './helpers/raw-stdio.js';

type Calls = Record<string, { accept: unknown[]; reject: unknown[] }>;

const constructs: Calls = {
  draft07: {
    // draft-07: `items` as a list is a tuple, `additionalItems: false` closes it.
    accept: [{ pair: ['a', 1] }, { pair: ['a'] }, { pair: [], count: 3, big: 0.5 }],
    reject: [{ pair: ['a', 0] }, { pair: ['a', 1, 2] }, { pair: [1] }, { pair: ['a'], big: 0 }, {}],
  },
  draft2020: {
    accept: [{ at: [1, 2] }, { at: [-180, 180], path: [[0, 0]] }],
    reject: [{ at: [1] }, { at: [1, 2, 3] }, { at: [200, 0] }, { at: [0, 0], path: [[0]] }],
  },
  no_dialect: { accept: [{}, { anything: [1, 'x'] }], reject: [] },
  typeless_root: { accept: [{ q: 'x' }], reject: [{}, { q: 1 }] },
  typeless_free: { accept: [{}, { any: { thing: true } }], reject: [] },
  combinators: {
    accept: [
      { id: '00000000-0000-4000-8000-000000000000', version: 2 },
      { id: 7, version: 2, size: 'small', named: { name: 'a', age: 3 } },
      { id: 0, version: 2, size: 20 },
    ],
    reject: [
      { id: 'not-a-uuid', version: 2 },
      { id: 1, version: 3 },
      { id: 1, version: 2, size: 'medium' },
      { id: 1, version: 2, named: { name: 'a' } },
    ],
  },
  tagged_union: {
    accept: [{ shape: { kind: 'circle', radius: 1 } }, { shape: { kind: 'square', side: 2 } }],
    reject: [
      { shape: { kind: 'circle', side: 1 } },
      { shape: { kind: 'triangle' } },
      { shape: { kind: 'square', side: 2, radius: 1 } },
    ],
  },
  nullable: {
    accept: [
      { a: null },
      { a: 'x', b: null },
      { a: 'x', b: 3, flag: true },
      { a: 'x', flag: 'yes', mixed: 'one' },
      { a: 'x', mixed: null },
    ],
    reject: [{}, { a: 1 }, { a: 'x', b: 'y' }, { a: 'x', flag: 1 }, { a: 'x', mixed: 2 }],
  },
  maps: {
    accept: [
      { closed: { x: 1 } },
      {
        closed: {},
        open: { x: 1, y: 'anything' },
        counts: { a: 1 },
        named: { abc: 'x' },
        env: { HOME: '/h' },
        anything: { a: [1] },
        value: [null],
      },
    ],
    reject: [
      { closed: { y: 1 } },
      { closed: {}, counts: { a: 'x' } },
      { closed: {}, named: { ABC: 'x' } },
      { closed: {}, env: { home: 'x' } },
      { closed: {}, extra: 1 },
    ],
  },
  arrays: {
    accept: [{ rows: [{ id: 1 }, { id: 2, label: 'b' }] }, { rows: [{ id: 1 }], pair: ['a', true] }],
    reject: [
      { rows: [] },
      { rows: [{ label: 'x' }] },
      { rows: [{ id: 1 }, { id: 1 }] },
      { rows: [{ id: 1 }], pair: ['a', 'b'] },
      { rows: [{ id: 1 }], pair: ['a', true, 1] },
    ],
  },
  formats: {
    // `json` is not a format ajv-formats knows: ignored, never a failure.
    accept: [
      {
        uri: 'https://x.y/z',
        uuid: '00000000-0000-4000-8000-000000000000',
        when: '2026-01-01T00:00:00Z',
        day: '2026-02-28',
        email: 'a@b.co',
        small: 2147483647,
        json: '{not json',
      },
    ],
    reject: [
      { uri: 'not a uri' },
      { uuid: 'x' },
      { when: 'yesterday' },
      { day: '2026-02-30' },
      { email: 'nope' },
      { small: 2147483648 },
    ],
  },
  numbers: {
    accept: [{ id: 9007199254740991 }, { id: 0, big: 2147483648, ratio: 1 }, { id: 4294967296 }],
    reject: [{ id: -1 }, { id: 1.5 }, { id: 0, big: 2147483647 }, { id: 0, ratio: 0 }],
  },
  defaults: {
    accept: [{}, { s: 'x', i: 1, n: 2, b: false, z: null, arr: [], obj: {}, old: 'x' }],
    reject: [{ i: 'x' }, { z: 0 }],
  },
  keywords: {
    accept: [
      {
        type: 't',
        'dash-ed': 'd',
        function: 'f',
        class: 'c',
        default: 'x',
        'dot.ted': 'y',
        'with space': 'z',
        '9lives': 9,
      },
    ],
    reject: [{ type: 't' }, { 'dash-ed': 'd' }, { type: 't', 'dash-ed': 'd', '9lives': 'nine' }],
  },
  shared: {
    accept: [
      { home: { street: 's', city: 'c' } },
      {
        home: { street: 's', city: 'c' },
        category: { name: 'a', subcategories: [{ name: 'b', parent: { name: 'c' } }] },
      },
    ],
    reject: [
      { home: { street: 's', city: '' } },
      { home: { street: 's' } },
      { home: { street: 's', city: 'c' }, category: { subcategories: [{}] } },
    ],
  },
  'get-user.v2': { accept: [{ 'user-id': 'u1' }], reject: [{ user_id: 'u1' }] },
  '2fa_verify': { accept: [{ code: '123456' }], reject: [{ code: '12345' }] },
};

const refsAsDefs: Calls = {
  pay: {
    accept: [{ price: { amount: 1, currency: 'EUR' }, list: { value: 1, next: { value: 2 } }, note: 'hi' }],
    reject: [
      { price: { amount: 1, currency: 'GBP' } },
      { price: { amount: 1, currency: 'EUR' }, list: { next: {} } },
      { price: { amount: 1, currency: 'EUR' }, note: 'x'.repeat(21) },
    ],
  },
  legacy: {
    accept: [{ price: { amount: 0, currency: 'USD' } }],
    reject: [{ price: { amount: -1, currency: 'USD' } }, {}],
  },
};

const projects = [
  { name: 'schema-constructs', calls: constructs },
  { name: 'schema-refs-defs', calls: refsAsDefs },
];

/** The text of a tools/call outcome: a result, or the message of a JSON-RPC error. */
async function call(client: Client, name: string, args: unknown): Promise<string> {
  try {
    return JSON.stringify(await client.callTool({ name, arguments: args as Record<string, unknown> }));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe.each(projects)('$name end to end', ({ name, calls }) => {
  let dir: string;
  let ir: IR;
  let client: Client;

  beforeAll(async () => {
    dir = scratch(name, path.join(REPO, 'test/cases', name));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    ir = (await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir })).ir!;
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    client = await connectStdio(dir);
  }, 180_000);
  afterAll(async () => client?.close());

  it('passes its own tests (tools/list deep-equals the manifest)', async () => {
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
  }, 180_000);

  it('lists every schema byte for byte, key order included (raw JSON-RPC over stdio)', async () => {
    // Read the wire itself: a client parses results with zod, which puts known keys first.
    const listed = await rawToolsList(dir, '2025-06-18');
    expect(listed.map((t) => t.name)).toEqual(ir.tools.map((t) => t.name));
    for (const t of ir.tools) {
      const got = listed.find((l) => l.name === t.name)!;
      // The one exception: the SDK advertises an input schema as `{ type: 'object', ...schema }`, so
      // the root `type` comes first on the wire wherever the manifest wrote it, and is added when
      // the manifest left it out; a typeless object-shaped output gets it too (every such output
      // in these cases is object-shaped). A tool without input is advertised closed.
      const input = t.inputSchema
        ? { type: 'object', ...t.inputSchema }
        : { type: 'object', properties: {}, additionalProperties: false };
      expect(JSON.stringify(got.inputSchema), t.name).toBe(JSON.stringify(input));
      const output = t.outputSchema?.type === undefined ? { type: 'object', ...t.outputSchema } : t.outputSchema;
      if (t.outputSchema) expect(JSON.stringify(got.outputSchema), t.name).toBe(JSON.stringify(output));
    }
  });

  it('covers every tool with an input schema', () => {
    expect(Object.keys(calls).sort()).toEqual(
      ir.tools
        .filter((t) => t.inputSchema)
        .map((t) => t.name)
        .sort(),
    );
  });

  it.each(Object.entries(calls))(
    '%s accepts what its schema accepts and rejects the rest',
    async (tool, { accept, reject }) => {
      for (const args of accept) {
        // Accepted input reaches the stub, which answers "not implemented".
        expect(await call(client, tool, args), JSON.stringify(args)).toMatch(/not implemented/);
      }
      for (const args of reject) {
        expect(await call(client, tool, args), JSON.stringify(args)).toMatch(/validation/i);
      }
    },
  );
});
