/**
 * `mcpgen compare --base <file|rev>`: the interface clients see of two manifests compared, each
 * change breaking or compatible, through the real CLI; `--base <rev>` against a scratch git repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO } from './helpers/project.js';

const SCRATCH = path.join(REPO, '.tmp/compare-test');

type Obj = Record<string, unknown>;

/** A valid manifest with `extra` over a minimal server, as YAML (JSON is YAML), one key a line. */
function manifest(extra: Obj): string {
  return `${JSON.stringify({ version: 1, server: { name: 'demo', version: '1.0.0' }, transports: { stdio: {} }, ...extra }, null, 2)}\n`;
}

/** One tool `t` with this input (and output). */
function tool(input: Obj | undefined, output?: Obj, more: Obj = {}): string {
  return manifest({
    tools: { t: { description: 'A tool', ...(input ? { input } : {}), ...(output ? { output } : {}), ...more } },
  });
}

const obj = (properties: Obj, required: string[] = [], more: Obj = {}) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...more,
});

let n = 0;
function folder(): string {
  const dir = path.join(SCRATCH, `p${process.pid}-${n++}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function cli(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

interface Item {
  kind: string;
  entry: string;
  pointer: string;
  change: string;
  severity: string;
  unclassified: boolean;
  message: string;
  line: number;
}

/** The changes from `base` to `head` (manifest texts), as `--format json` lists them. */
async function compare(base: string, head: string, ...args: string[]) {
  const dir = folder();
  writeFileSync(path.join(dir, 'base.yaml'), base);
  writeFileSync(path.join(dir, 'mcpgen.yaml'), head);
  const r = await cli(dir, 'compare', '--base', 'base.yaml', '--format', 'json', ...args);
  return { ...r, changes: (r.out ? JSON.parse(r.out) : []) as Item[] };
}

/** The single change expected, as [change, severity, pointer]. */
async function one(base: string, head: string): Promise<[string, string, string]> {
  const r = await compare(base, head);
  expect(r.changes, r.err).toHaveLength(1);
  const c = r.changes[0]!;
  expect(r.code).toBe(c.severity === 'breaking' ? 1 : 0);
  return [c.change, c.severity, c.pointer];
}

const str = { type: 'string', description: 'S' };

describe('inputs: what clients send', () => {
  it.each<[string, string, string, [string, string, string]]>([
    [
      'a new required property',
      tool(obj({ a: str })),
      tool(obj({ a: str, b: str }, ['b'])),
      ['required-property-added', 'breaking', '/inputSchema/properties/b'],
    ],
    [
      'optional → required',
      tool(obj({ a: str, b: str })),
      tool(obj({ a: str, b: str }, ['b'])),
      ['property-became-required', 'breaking', '/inputSchema/properties/b'],
    ],
    [
      'a type narrowed (number → integer)',
      tool(obj({ a: { type: 'number' } })),
      tool(obj({ a: { type: 'integer' } })),
      ['type-narrowed', 'breaking', '/inputSchema/properties/a/type'],
    ],
    [
      'a type changed',
      tool(obj({ a: { type: 'string' } })),
      tool(obj({ a: { type: 'integer' } })),
      ['type-changed', 'breaking', '/inputSchema/properties/a/type'],
    ],
    [
      'an enum value removed',
      tool(obj({ a: { type: 'string', enum: ['x', 'y'] } })),
      tool(obj({ a: { type: 'string', enum: ['x'] } })),
      ['enum-values-removed', 'breaking', '/inputSchema/properties/a/enum'],
    ],
    [
      'minLength raised',
      tool(obj({ a: { type: 'string', minLength: 1 } })),
      tool(obj({ a: { type: 'string', minLength: 3 } })),
      ['constraint-tightened', 'breaking', '/inputSchema/properties/a/minLength'],
    ],
    [
      'maximum lowered',
      tool(obj({ a: { type: 'integer', maximum: 10 } })),
      tool(obj({ a: { type: 'integer', maximum: 5 } })),
      ['constraint-tightened', 'breaking', '/inputSchema/properties/a/maximum'],
    ],
    [
      'a pattern added',
      tool(obj({ a: { type: 'string' } })),
      tool(obj({ a: { type: 'string', pattern: '^[a-z]+$' } })),
      ['constraint-tightened', 'breaking', '/inputSchema/properties/a/pattern'],
    ],
    [
      'additionalProperties true → false',
      tool(obj({ a: str })),
      tool(obj({ a: str }, [], { additionalProperties: false })),
      ['additional-properties-restricted', 'breaking', '/inputSchema/additionalProperties'],
    ],
    [
      'a property removed where undeclared ones are refused',
      tool(obj({ a: str, b: str }, [], { additionalProperties: false })),
      tool(obj({ a: str }, [], { additionalProperties: false })),
      ['property-removed', 'breaking', '/inputSchema/properties/b'],
    ],
    [
      'a property removed where undeclared ones must match a schema it does not',
      tool(obj({ a: str, b: str }, [], { additionalProperties: { type: 'integer' } })),
      tool(obj({ a: str }, [], { additionalProperties: { type: 'integer' } })),
      ['property-removed', 'breaking', '/inputSchema/properties/b'],
    ],
    [
      'a property removed whose name a patternProperties schema it does not match takes',
      tool(obj({ a: str, x_b: str }, [], { patternProperties: { '^x_': { type: 'integer' } } })),
      tool(obj({ a: str }, [], { patternProperties: { '^x_': { type: 'integer' } } })),
      ['property-removed', 'breaking', '/inputSchema/properties/x_b'],
    ],
    [
      'a new optional property narrower than the schema undeclared ones matched before',
      tool(obj({ a: str }, [], { additionalProperties: { type: 'string' } })),
      tool(obj({ a: str, b: { type: 'integer' } }, [], { additionalProperties: { type: 'string' } })),
      ['property-added', 'breaking', '/inputSchema/properties/b'],
    ],
    [
      'patternProperties removed where additionalProperties: false refuses their keys now',
      tool(obj({ a: str }, [], { additionalProperties: false, patternProperties: { '^x_': str } })),
      tool(obj({ a: str }, [], { additionalProperties: false })),
      ['schema-changed', 'breaking', '/inputSchema/patternProperties'],
    ],
    [
      'a tool removed',
      manifest({ tools: { t: { description: 'T' }, u: { description: 'U' } } }),
      manifest({ tools: { t: { description: 'T' } } }),
      ['removed', 'breaking', ''],
    ],
  ])('%s is breaking', async (_, base, head, expected) => {
    expect(await one(base, head)).toEqual(expected);
  });

  it.each<[string, string, string, [string, string, string]]>([
    [
      'a new optional property',
      tool(obj({ a: str })),
      tool(obj({ a: str, b: str })),
      ['property-added', 'compatible', '/inputSchema/properties/b'],
    ],
    [
      'required → optional',
      tool(obj({ a: str }, ['a'])),
      tool(obj({ a: str })),
      ['property-became-optional', 'compatible', '/inputSchema/properties/a'],
    ],
    [
      'a type widened (integer → number)',
      tool(obj({ a: { type: 'integer' } })),
      tool(obj({ a: { type: 'number' } })),
      ['type-widened', 'compatible', '/inputSchema/properties/a/type'],
    ],
    [
      'an enum value added',
      tool(obj({ a: { type: 'string', enum: ['x'] } })),
      tool(obj({ a: { type: 'string', enum: ['x', 'y'] } })),
      ['enum-values-added', 'compatible', '/inputSchema/properties/a/enum'],
    ],
    [
      'maxLength raised',
      tool(obj({ a: { type: 'string', maxLength: 10 } })),
      tool(obj({ a: { type: 'string', maxLength: 20 } })),
      ['constraint-loosened', 'compatible', '/inputSchema/properties/a/maxLength'],
    ],
    [
      'a property removed whose name a patternProperties schema accepting it takes (additionalProperties: false aside)',
      tool(obj({ a: str, x_b: str }, [], { additionalProperties: false, patternProperties: { '^x_': str } })),
      tool(obj({ a: str }, [], { additionalProperties: false, patternProperties: { '^x_': str } })),
      ['property-removed', 'compatible', '/inputSchema/properties/x_b'],
    ],
    [
      'a property removed whose values undeclared keys still accept',
      tool(obj({ a: str, b: str }, [], { additionalProperties: { type: 'string' } })),
      tool(obj({ a: str }, [], { additionalProperties: { type: 'string' } })),
      ['property-removed', 'compatible', '/inputSchema/properties/b'],
    ],
    [
      'additionalProperties false → true',
      tool(obj({ a: str }, [], { additionalProperties: false })),
      tool(obj({ a: str })),
      ['additional-properties-allowed', 'compatible', '/inputSchema/additionalProperties'],
    ],
    [
      'a tool added',
      manifest({ tools: { t: { description: 'T' } } }),
      manifest({ tools: { t: { description: 'T' }, u: { description: 'U' } } }),
      ['added', 'compatible', ''],
    ],
  ])('%s is compatible', async (_, base, head, expected) => {
    expect(await one(base, head)).toEqual(expected);
  });

  it('descriptions, titles and examples are no change; nothing to report exits 0', async () => {
    const r = await compare(
      tool(obj({ a: { type: 'string', description: 'One' } })),
      tool(obj({ a: { type: 'string', description: 'Two', title: 'A', examples: ['x'] } })),
    );
    expect(r.changes).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('✔ no changes clients can see against base.yaml');
  });

  it('input removed is breaking: a tool without input refuses every argument', async () => {
    const r = await compare(tool(obj({ a: str })), tool(undefined));
    expect(r.changes.map((c) => [c.change, c.severity, c.pointer])).toEqual([
      ['property-removed', 'breaking', '/inputSchema/properties/a'],
      ['additional-properties-restricted', 'breaking', '/inputSchema/additionalProperties'],
    ]);
    expect(r.code).toBe(1);
  });

  it('anyOf or allOf branches in another order are no change, input or output', async () => {
    const branches = [{ type: 'string', minLength: 1 }, { type: 'null' }];
    const r = await compare(
      tool(obj({ a: { anyOf: branches } }), obj({ b: { allOf: [{ minLength: 1 }, { maxLength: 3 }] } })),
      tool(obj({ a: { anyOf: branches.toReversed() } }), obj({ b: { allOf: [{ maxLength: 3 }, { minLength: 1 }] } })),
    );
    expect(r.changes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("type: [string, 'null'] and anyOf [string, null] are one schema written two ways: no change", async () => {
    const list = { type: ['string', 'null'], format: 'date' };
    const any = { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] };
    const r = await compare(tool(obj({ a: list }), obj({ b: any })), tool(obj({ a: any }), obj({ b: list })));
    expect(r.changes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('an anyOf branch changed is compared with the branch it was, wherever the list moved it', async () => {
    const r = await compare(
      tool(obj({ a: { anyOf: [{ type: 'string' }, { type: 'integer' }] } })),
      tool(obj({ a: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] } })),
    );
    expect(r.changes.map((c) => [c.change, c.severity, c.pointer])).toEqual([
      ['constraint-tightened', 'breaking', '/inputSchema/properties/a/anyOf/0/minimum'],
    ]);
  });

  it('made nullable as anyOf [it, null] is a branch added: compatible for inputs, breaking for outputs', async () => {
    const nullable = { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'A' };
    const plain = { type: 'string', description: 'A' };
    expect(await one(tool(obj({ a: plain })), tool(obj({ a: nullable })))).toEqual([
      'constraint-loosened',
      'compatible',
      '/inputSchema/properties/a/anyOf',
    ]);
    expect(await one(tool(undefined, obj({ a: nullable })), tool(undefined, obj({ a: plain })))).toEqual([
      'constraint-tightened',
      'compatible',
      '/outputSchema/properties/a/anyOf',
    ]);
    expect(await one(tool(undefined, obj({ a: plain })), tool(undefined, obj({ a: nullable })))).toEqual([
      'constraint-loosened',
      'breaking',
      '/outputSchema/properties/a/anyOf',
    ]);
  });

  it('made nullable as oneOf [it, null] is a branch added too: its branches take types apart', async () => {
    const nullable = { oneOf: [{ type: 'string' }, { type: 'null' }], description: 'A' };
    const plain = { type: 'string', description: 'A' };
    expect(await one(tool(obj({ a: plain })), tool(obj({ a: nullable })))).toEqual([
      'constraint-loosened',
      'compatible',
      '/inputSchema/properties/a/oneOf',
    ]);
    expect(await one(tool(undefined, obj({ a: plain })), tool(undefined, obj({ a: nullable })))).toEqual([
      'constraint-loosened',
      'breaking',
      '/outputSchema/properties/a/oneOf',
    ]);
  });

  it('a shared schema ($ref) changed is found where it is used, resolved', async () => {
    const shared = (maxLength: number) =>
      manifest({
        schemas: { City: { type: 'string', maxLength } },
        tools: { t: { description: 'T', input: obj({ city: { $ref: '#/schemas/City', description: 'C' } }) } },
      });
    const r = await compare(shared(100), shared(50));
    expect(r.changes.map((c) => [c.entry, c.pointer, c.severity])).toEqual([
      ['t', '/inputSchema/properties/city/maxLength', 'breaking'],
    ]);
  });

  it('a recursive shared schema is compared once per level, deep changes found', async () => {
    const tree = (type: string) =>
      manifest({
        schemas: {
          Node: {
            type: 'object',
            properties: { v: { type }, kids: { type: 'array', items: { $ref: '#/schemas/Node' } } },
          },
        },
        tools: { t: { description: 'T', input: obj({ root: { $ref: '#/schemas/Node' } }) } },
      });
    const r = await compare(tree('string'), tree('integer'));
    expect(r.changes.map((c) => [c.pointer, c.change])).toEqual([
      ['/inputSchema/properties/root/properties/v/type', 'type-changed'],
    ]);
  });

  it('a recursive shared schema changed is found where it is used under items, anyOf or additionalProperties', async () => {
    const tree = (type: string) =>
      manifest({
        schemas: {
          Node: {
            type: 'object',
            properties: { v: { type }, kids: { type: 'array', items: { $ref: '#/schemas/Node' } } },
          },
        },
        tools: {
          t: {
            description: 'T',
            input: obj({
              list: { type: 'array', items: { $ref: '#/schemas/Node' } },
              maybe: { anyOf: [{ $ref: '#/schemas/Node' }, { type: 'null' }] },
              byKey: { type: 'object', additionalProperties: { $ref: '#/schemas/Node' } },
            }),
          },
        },
      });
    const r = await compare(tree('string'), tree('integer'));
    expect(r.changes.map((c) => [c.pointer, c.severity])).toEqual([
      ['/inputSchema/properties/list/items/properties/v/type', 'breaking'],
      ['/inputSchema/properties/maybe/anyOf/0/properties/v/type', 'breaking'],
      ['/inputSchema/properties/byKey/additionalProperties/properties/v/type', 'breaking'],
    ]);
    expect((await compare(tree('string'), tree('string'))).changes).toEqual([]);
  });

  it('a change inside oneOf is breaking (unclassified); an anyOf branch added is compatible', async () => {
    const one_ = (branches: Obj[]) => tool(obj({ a: { oneOf: branches } }));
    const r = await compare(
      one_([
        { type: 'string', maxLength: 3 },
        { type: 'string', pattern: '^a' },
      ]),
      one_([
        { type: 'string', maxLength: 3 },
        { type: 'string', pattern: '^b' },
      ]),
    );
    expect(r.changes.map((c) => [c.pointer, c.severity, c.unclassified])).toEqual([
      ['/inputSchema/properties/a/oneOf', 'breaking', true],
    ]);
    expect(r.changes[0]!.message).toContain('unclassified');
    const any = (branches: Obj[]) => tool(obj({ a: { anyOf: branches } }));
    expect(await one(any([{ type: 'string' }]), any([{ type: 'string' }, { type: 'integer' }]))).toEqual([
      'constraint-loosened',
      'compatible',
      '/inputSchema/properties/a/anyOf',
    ]);
  });

  it("oneOf branches of types apart (a value matches one at most) compare as anyOf's: a null branch added is compatible", async () => {
    const one_ = (branches: Obj[]) => tool(obj({ a: { oneOf: branches } }));
    expect(
      await one(
        one_([{ type: 'string' }, { type: 'integer' }]),
        one_([{ type: 'string' }, { type: 'integer' }, { type: 'null' }]),
      ),
    ).toEqual(['constraint-loosened', 'compatible', '/inputSchema/properties/a/oneOf']);
  });

  it('a rename reads as removed + added, and says so', async () => {
    const r = await compare(
      manifest({ tools: { get_weather: { description: 'W', input: obj({ city: str }) } } }),
      manifest({ tools: { get_forecast: { description: 'W', input: obj({ city: str }) } } }),
    );
    expect(r.changes.map((c) => [c.entry, c.change, c.severity])).toEqual([
      ['get_weather', 'removed', 'breaking'],
      ['get_forecast', 'added', 'compatible'],
    ]);
    expect(r.changes[0]!.message).toContain('looks renamed to get_forecast');
  });

  it('a resource renamed at the same URI is compatible: clients read it by URI', async () => {
    const r = await compare(
      manifest({ resources: { readme: { uri: 'notes://readme', mimeType: 'text/plain', text: 'x' } } }),
      manifest({ resources: { guide: { uri: 'notes://readme', mimeType: 'text/markdown', text: 'x' } } }),
    );
    expect(r.changes.map((c) => [c.entry, c.change, c.severity])).toEqual([
      ['guide', 'renamed', 'compatible'],
      ['guide', 'mime-type-changed', 'breaking'],
    ]);
    expect(r.changes[0]!.message).toBe(
      'resource readme renamed to guide at the same URI notes://readme: clients address it by that, not by its name',
    );
  });

  it('resources, templates, prompts, scopes, tasks and transports', async () => {
    const base = manifest({
      transports: { stdio: {}, http: { path: '/mcp', auth: { bearer: { tokensEnv: 'TOKENS' } } } },
      tools: { t: { description: 'T', execution: { taskSupport: 'optional' } } },
      resources: { r: { uri: 'notes://r', mimeType: 'text/plain', text: 'x', scopes: ['read'] } },
      resourceTemplates: { n: { uriTemplate: 'notes://{id}', params: { id: { type: 'string' } } } },
      prompts: {
        p: {
          description: 'P',
          arguments: { topic: { description: 'T' } },
          messages: [{ role: 'user', text: 'About {{topic}}' }],
        },
      },
    });
    const head = manifest({
      transports: { http: { path: '/api/mcp', auth: { bearer: { tokensEnv: 'TOKENS' } } } },
      tools: { t: { description: 'T', execution: { taskSupport: 'required' }, scopes: ['write'] } },
      resources: { r: { uri: 'notes://readme', mimeType: 'text/markdown', text: 'x' } },
      resourceTemplates: {
        n: { uriTemplate: 'notes://{id}{?q}', params: { id: { type: 'string', pattern: '^[0-9]+$' } } },
      },
      prompts: {
        p: {
          description: 'P',
          arguments: { topic: { description: 'T' }, tone: { description: 'T', required: true } },
          messages: [{ role: 'user', text: 'About {{topic}} {{tone}}' }],
        },
      },
    });
    const r = await compare(base, head);
    expect(r.err).not.toContain('error');
    expect(r.changes.map((c) => [c.kind, c.entry, c.pointer, c.change, c.severity])).toEqual([
      ['tool', 't', '/scopes', 'scopes-added', 'breaking'],
      ['tool', 't', '/execution/taskSupport', 'task-support-changed', 'breaking'],
      ['resource', 'r', '/uri', 'uri-changed', 'breaking'],
      ['resource', 'r', '/mimeType', 'mime-type-changed', 'breaking'],
      ['resource', 'r', '/scopes', 'scopes-removed', 'compatible'],
      ['template', 'n', '/uriTemplate', 'uri-template-query-added', 'compatible'],
      ['template', 'n', '/variables/id/pattern', 'constraint-tightened', 'breaking'],
      ['prompt', 'p', '/arguments/properties/tone', 'required-argument-added', 'breaking'],
      ['transport', 'stdio', '', 'removed', 'breaking'],
      ['transport', 'http', '/path', 'path-changed', 'breaking'],
    ]);
  });

  it('HTTP auth added is breaking', async () => {
    const http = (auth?: Obj) => manifest({ transports: { http: { path: '/mcp', ...(auth ? { auth } : {}) } } });
    expect(await one(http(), http({ bearer: { tokensEnv: 'TOKENS' } }))).toEqual([
      'auth-added',
      'breaking',
      '/auth/bearer',
    ]);
  });

  it('the legacy HTTP+SSE endpoints turned off or moved is breaking', async () => {
    const http = (sse: unknown) => manifest({ transports: { http: { path: '/mcp', sse } } });
    expect(await one(http({}), http(false))).toEqual(['sse-removed', 'breaking', '/sse']);
    expect(await one(http({}), http({ path: '/events' }))).toEqual(['path-changed', 'breaking', '/sse/path']);
  });
});

describe('outputs: what clients read', () => {
  const out = (properties: Obj, required: string[] = []) => tool(undefined, obj(properties, required));
  it.each<[string, string, string, [string, string, string]]>([
    [
      'a property removed',
      out({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b']),
      out({ a: { type: 'string' } }, ['a']),
      ['property-removed', 'breaking', '/outputSchema/properties/b'],
    ],
    [
      'a key required without being declared, no longer required',
      tool(undefined, { type: 'object', required: ['id'] }),
      tool(undefined, { type: 'object' }),
      ['property-became-optional', 'breaking', '/outputSchema/required'],
    ],
    [
      'a property made optional',
      out({ a: { type: 'string' } }, ['a']),
      out({ a: { type: 'string' } }),
      ['property-became-optional', 'breaking', '/outputSchema/properties/a'],
    ],
    [
      'a type changed (even widened)',
      out({ a: { type: 'integer' } }),
      out({ a: { type: 'number' } }),
      ['type-widened', 'breaking', '/outputSchema/properties/a/type'],
    ],
    [
      'an enum value added',
      out({ a: { type: 'string', enum: ['x'] } }),
      out({ a: { type: 'string', enum: ['x', 'y'] } }),
      ['enum-values-added', 'breaking', '/outputSchema/properties/a/enum'],
    ],
  ])('%s is breaking', async (_, base, head, expected) => {
    expect(await one(base, head)).toEqual(expected);
  });

  it.each<[string, string, string, [string, string, string]]>([
    [
      'a property added',
      out({ a: { type: 'string' } }),
      out({ a: { type: 'string' }, b: { type: 'string' } }),
      ['property-added', 'compatible', '/outputSchema/properties/b'],
    ],
    [
      'an enum value removed',
      out({ a: { type: 'string', enum: ['x', 'y'] } }),
      out({ a: { type: 'string', enum: ['x'] } }),
      ['enum-values-removed', 'compatible', '/outputSchema/properties/a/enum'],
    ],
    [
      'a property made required',
      out({ a: { type: 'string' } }),
      out({ a: { type: 'string' } }, ['a']),
      ['property-became-required', 'compatible', '/outputSchema/properties/a'],
    ],
  ])('%s is compatible', async (_, base, head, expected) => {
    expect(await one(base, head)).toEqual(expected);
  });
});

describe('formats and exit codes', () => {
  it('--help shows examples and the documentation', async () => {
    const r = await cli(REPO, 'compare', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('$ mcpgen compare --base origin/main');
    expect(r.out).toMatch(/Documentation: \S+docs\/cli\.md/);
  });

  const base = tool(obj({ a: { type: 'string' } }));
  const head = tool(obj({ a: { type: 'integer' }, b: str }));

  it('stylish names file:line:col, the severity, the entry and pointer; exit 1, 0 with --allow-breaking', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'old.yaml'), base);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), head);
    const r = await cli(dir, 'compare', '--base', 'old.yaml');
    expect(r.code).toBe(1);
    expect(r.out).toContain('mcpgen.yaml:17:13: breaking tool t /inputSchema/properties/a/type: type string → integer');
    expect(r.out).toContain('compatible tool t /inputSchema/properties/b: new optional property b');
    expect(r.err).toContain('✖ 1 breaking change, 1 compatible against old.yaml');
    const allowed = await cli(dir, 'compare', '--base', 'old.yaml', '--allow-breaking');
    expect(allowed.code).toBe(0);
    expect(allowed.out).toBe(r.out);
    expect(allowed.err).toContain('allowed (--allow-breaking)');
  });

  it('json is an array of kind, entry, pointer, change, severity, message (and where)', async () => {
    const r = await compare(base, head);
    expect(r.code).toBe(1);
    expect(Object.keys(r.changes[0]!)).toEqual([
      'kind',
      'entry',
      'pointer',
      'change',
      'severity',
      'unclassified',
      'message',
      'file',
      'line',
      'column',
    ]);
  });

  it('github: an error at the changed key, a notice for a compatible change, the parent key for a removed one', async () => {
    const dir = folder();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(
      path.join(dir, 'old.yaml'),
      manifest({ tools: { t: { description: 'T', input: obj({ a: str }) }, gone: { description: 'G' } } }),
    );
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      manifest({ tools: { t: { description: 'T', input: obj({ a: str, b: str }) } } }),
    );
    const r = await cli(dir, 'compare', '--base', 'old.yaml', '--format', 'github');
    expect(r.code).toBe(1);
    expect(r.out.split('\n').filter(Boolean)).toEqual([
      '::notice file=mcpgen.yaml,line=20,col=11,title=compatible change%3A tool t::tool t /inputSchema/properties/b: new optional property b: calls valid before still are',
      '::error file=mcpgen.yaml,line=10,col=3,title=breaking change%3A tool gone::tool gone: tool gone removed: clients using it get an error',
    ]);
  });

  it('--json: the envelope carries the changes', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'old.yaml'), base);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), head);
    const r = await cli(dir, 'compare', '--base', 'old.yaml', '--json');
    const env = JSON.parse(r.out);
    expect([r.code, env.command, env.ok, env.breaking, env.base, env.compare.length]).toEqual([
      1,
      'compare',
      false,
      1,
      'old.yaml',
      2,
    ]);
    expect((await cli(dir, 'compare', '--base', 'old.yaml', '--json', '--format', 'github')).code).toBe(2);
  });

  it('usage: no --base, an unknown format (exit 2)', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'mcpgen.yaml'), base);
    const none = await cli(dir, 'compare');
    expect([none.code, none.err]).toEqual([2, expect.stringContaining('--base is required')]);
    expect((await cli(dir, 'compare', '--base', 'mcpgen.yaml', '--format', 'sarif')).code).toBe(2);
    // Never handed to git, where it would read as an option.
    const option = await cli(dir, 'compare', '--base=--output=x');
    expect([option.code, option.err]).toEqual([
      2,
      "mcpgen: --base --output=x: no such file, and a git revision does not start with '-'\n",
    ]);
  });
});

describe('--base <rev> in a git repository', () => {
  function repo(): string {
    const dir = folder();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    mkdirSync(path.join(dir, 'server'));
    writeFileSync(path.join(dir, 'server/mcpgen.yaml'), tool(obj({ a: str })));
    git('add', '.');
    git('commit', '-qm', 'base');
    return dir;
  }

  it('reads the manifest at the revision by its repository path: HEAD, HEAD~1', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'server/mcpgen.yaml'), tool(obj({ a: str, b: str }, ['b'])));
    const r = await cli(path.join(dir, 'server'), 'compare', '--base', 'HEAD');
    expect(r.code).toBe(1);
    expect(r.out).toContain('breaking tool t /inputSchema/properties/b: new required property b');
    expect(r.err).toContain('against HEAD:server/mcpgen.yaml');
    const fromRoot = await cli(dir, 'compare', '-f', 'server/mcpgen.yaml', '--base', 'HEAD');
    expect(fromRoot.out).toBe(r.out.replace(/^mcpgen\.yaml/gm, 'server/mcpgen.yaml'));
    const bad = await cli(dir, 'compare', '-f', 'server/mcpgen.yaml', '--base', 'HEAD~1');
    expect([bad.code, bad.err]).toEqual([
      2,
      expect.stringMatching(/^mcpgen: --base HEAD~1: no such file, nor a revision/),
    ]);
    expect(bad.err.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it("the base's file: contents are set aside: a resource file deleted since is no error", async () => {
    const dir = folder();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    writeFileSync(path.join(dir, 'readme.md'), '# Notes\n');
    const withFile = (r: Obj) =>
      manifest({ resources: { readme: { uri: 'notes://readme', mimeType: 'text/markdown', ...r } } });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), withFile({ file: 'readme.md' }));
    git('add', '.');
    git('commit', '-qm', 'base');
    rmSync(path.join(dir, 'readme.md'));
    writeFileSync(path.join(dir, 'mcpgen.yaml'), withFile({ text: '# Notes' }));
    const r = await cli(dir, 'compare', '--base', 'HEAD');
    expect([r.code, r.out, r.err]).toEqual([0, '', '✔ no changes clients can see against HEAD:mcpgen.yaml\n']);
  });

  it('a base file copied to another folder: its file: contents are set aside, not looked for beside it', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'readme.md'), '# Notes\n');
    const text = manifest({
      resources: { readme: { uri: 'notes://readme', mimeType: 'text/markdown', file: 'readme.md' } },
    });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    mkdirSync(path.join(dir, 'old'));
    writeFileSync(path.join(dir, 'old/mcpgen.yaml'), text);
    const r = await cli(dir, 'compare', '--base', 'old/mcpgen.yaml');
    expect([r.code, r.out, r.err]).toEqual([0, '', '✔ no changes clients can see against old/mcpgen.yaml\n']);
  });

  it('a manifest the change adds (absent at the revision): nothing can break, exit 0', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'mcpgen.yaml'), tool(undefined));
    const added = await cli(dir, 'compare', '--base', 'HEAD', '--format', 'json');
    expect([added.code, added.out, added.err]).toEqual([
      0,
      '[]\n',
      '✔ mcpgen.yaml is not at HEAD: the change adds it, so no existing client can break\n',
    ]);
  });

  it('a folder outside any repository, an invalid base: exit 2; an invalid head: exit 1', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'mcpgen.yaml'), tool(undefined));

    // Outside the repository mcpgen is checked out in, as a folder outside any is.
    const outside = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-compare-'));
    writeFileSync(path.join(outside, 'mcpgen.yaml'), tool(undefined));
    const noRepo = await cli(outside, 'compare', '--base', 'origin/main');
    rmSync(outside, { recursive: true, force: true });
    expect([noRepo.code, noRepo.err]).toEqual([2, expect.stringContaining('is not in a git repository')]);

    writeFileSync(
      path.join(dir, 'broken.yaml'),
      manifest({ tools: { t: { description: 'T', input: { type: 'strin' } } } }),
    );
    const invalidBase = await cli(dir, 'compare', '--base', 'broken.yaml');
    expect(invalidBase.code).toBe(2);
    expect(invalidBase.err).toMatch(/^broken\.yaml:\d+:\d+: error MCPG/m);
    expect(invalidBase.err).toContain('✖ the base manifest broken.yaml is invalid');

    const invalidHead = await cli(dir, 'compare', '-f', 'broken.yaml', '--base', 'mcpgen.yaml');
    expect(invalidHead.code).toBe(1);
    expect(invalidHead.err).toMatch(/^broken\.yaml:\d+:\d+: error MCPG/m);
  });
});
