/**
 * The `$ref` policy and names: units behind test/cases/schema-refs-defs and schema-constructs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../cli/generate.js';
import { fileBase, identifier, typeName } from '../cli/normalize/names.js';
import { inlineSharedRefs, recursiveSharedNames } from '../cli/normalize/refs.js';
import { rebaseForTypes } from '../cli/render/ts-types/rebase.js';
import { mapSchema } from '../cli/normalize/schema-walk.js';

const shared = {
  Money: { type: 'object', properties: { currency: { $ref: '#/schemas/Currency' } } },
  Currency: { type: 'string', enum: ['EUR'] },
  Node: { type: 'object', properties: { next: { $ref: '#/schemas/Node' } } },
};

describe('$ref policy', () => {
  it('refs: defs keeps every referenced shared schema once under $defs, after local ones', () => {
    const s = {
      type: 'object',
      $defs: { a: { type: 'string' } },
      properties: { m: { $ref: '#/schemas/Money', description: 'd' }, n: { $ref: '#/schemas/Money' } },
    };
    const out = inlineSharedRefs(s, shared, new Set(Object.keys(shared)));
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        type: 'object',
        $defs: {
          a: { type: 'string' },
          Money: { type: 'object', properties: { currency: { $ref: '#/$defs/Currency' } } },
          Currency: { type: 'string', enum: ['EUR'] },
        },
        properties: { m: { $ref: '#/$defs/Money', description: 'd' }, n: { $ref: '#/$defs/Money' } },
      }),
    );
  });

  it('a draft-07 schema gets `definitions`', () => {
    const s = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { $ref: '#/schemas/Node' } },
    };
    const out = inlineSharedRefs(s, shared, recursiveSharedNames(shared));
    expect(out).toEqual({
      ...s,
      properties: { n: { $ref: '#/definitions/Node' } },
      definitions: { Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } } } },
    });
  });

  it('a hoisted name never replaces a local definition', () => {
    const s = {
      type: 'object',
      $defs: { Node: { type: 'integer' } },
      properties: { n: { $ref: '#/schemas/Node' }, l: { $ref: '#/$defs/Node' } },
    };
    const out = inlineSharedRefs(s, shared, recursiveSharedNames(shared)) as { $defs: Record<string, unknown> };
    expect(out.$defs.Node).toEqual({ type: 'integer' });
    expect(out.properties.n).toEqual({ $ref: '#/$defs/Node_2' });
    expect(out.$defs.Node_2.properties.next).toEqual({ $ref: '#/$defs/Node_2' });
  });

  it('a property named __proto__ stays a property', () => {
    const s = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const out = mapSchema(s, () => undefined) as { properties: object };
    expect(Object.keys(out.properties)).toEqual(['__proto__']);
  });

  it('the types document keeps schemas as written, only references renamed (siblings kept)', () => {
    const s = {
      type: 'object',
      title: 'Root',
      properties: {
        t: { type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 1 },
        c: { $ref: '#/schemas/City', description: 'Where', properties: { x: { $ref: '#' } } },
      },
    };
    expect(rebaseForTypes(s, 'X').root).toEqual({
      type: 'object',
      title: 'Root',
      properties: {
        t: { type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 1 },
        c: { $ref: '#/$defs/City', description: 'Where', properties: { x: { $ref: '#/$defs/X' } } },
      },
    });
  });
});

describe('MCPG207: a recursive shared schema is kept under $defs', () => {
  const manifest = (refs: string) =>
    [
      'version: 1',
      'server: { name: rec, version: 1.0.0 }',
      `options: { refs: ${refs} }`,
      'schemas:',
      '  Tree: { type: object, properties: { kids: { type: array, items: { $ref: "#/schemas/Tree" } } } }',
      'tools:',
      '  walk: { description: Walk a tree of nodes, input: { type: object, properties: { t: { $ref: "#/schemas/Tree" } } } }',
      '',
    ].join('\n');
  const run = async (refs: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpg207-'));
    writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest(refs));
    return generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
  };

  it('warns with inline (the default), at the schema', async () => {
    const r = await run('inline');
    const d = r.diagnostics.filter((x) => x.code === 'MCPG207');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: 'warning', line: 5, column: 3 });
    expect(d[0]!.message).toContain('`Tree`');
    expect(r.files.length).toBeGreaterThan(0);
    expect(r.ir!.tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { t: { $ref: '#/$defs/Tree' } },
      $defs: { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
    // …and the type is still right.
    expect(r.files.find((f) => f.path === 'src/generated/types.ts')!.content).toMatch(
      /export interface Tree \{\n\s*kids\?: Tree\[\];\n\s*\[k: string\]: unknown;\n\}/,
    );
  });

  it('does not warn with refs: defs', async () => {
    expect((await run('defs')).diagnostics.filter((x) => x.code === 'MCPG207')).toEqual([]);
  });
});

describe('names from the manifest', () => {
  it('local definitions never take another type name', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'defnames-'));
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      [
        'version: 1',
        'server: { name: n, version: 1.0.0 }',
        'tools:',
        '  foo:',
        '    description: Local definitions whose derived names clash',
        '    input:',
        '      type: object',
        '      $defs: { a-b: { type: string }, a_b: { type: integer }, Output: { type: boolean } }',
        '      properties: { x: { $ref: "#/$defs/a-b" }, y: { $ref: "#/$defs/a_b" }, z: { $ref: "#/$defs/Output" } }',
        '  foo_input:',
        '    description: Its output type is FooInputOutput',
        '    output: { type: object, properties: { ok: { type: boolean } } }',
        '',
      ].join('\n'),
    );
    const r = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir, generatorVersion: null });
    const types = r.files.find((f) => f.path === 'src/generated/types.ts')!.content;
    expect(types).toContain('export type FooInputAB = string;');
    expect(types).toContain('export type FooInputAB2 = number;');
    expect(types).toContain('export type FooInputOutput2 = boolean;');
    expect(types).toMatch(/export interface FooInputOutput \{\n\s*ok\?: boolean;/);
    expect(types).toMatch(/x\?: FooInputAB;\n\s*y\?: FooInputAB2;\n\s*z\?: FooInputOutput2;/);
  });

  it.each([
    ['get-user.v2', 'getUserV2', 'GetUserV2', 'get-user_v2'],
    ['2fa_verify', '_2faVerify', '_2FaVerify', '2fa_verify'],
    ['class', 'class_', 'Class', 'class'],
    ['user id', 'userId', 'UserId', 'user_id'],
    ['with.many.dots', 'withManyDots', 'WithManyDots', 'with_many_dots'],
  ])('%s → %s / %s / %s (stable)', (name, id, type, file) => {
    for (let i = 0; i < 2; i++) {
      expect(identifier(name)).toBe(id);
      expect(typeName(name)).toBe(type);
      expect(fileBase(name)).toBe(file);
    }
  });
});
