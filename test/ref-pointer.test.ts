/** Local `$ref`s as JSON Pointers (RFC 6901) into the schema they are written in. */
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../cli/validate/refs.js';
import { movePointers } from '../cli/normalize/refs.js';
import { rebaseForTypes } from '../cli/render/ts-types/rebase.js';

const schema = {
  type: 'object',
  properties: {
    'a/b': { type: 'string' },
    'm~n': { type: 'integer' },
    '~1': { type: 'boolean' },
    'with space': { type: 'null' },
    list: { type: 'array', prefixItems: [{ type: 'string' }, true], items: { type: 'number' } },
    kind: { enum: [{ type: 'string' }] },
  },
};
const root = { path: ['tools', 't', 'input'], schema };
const at = (ref: string) => {
  const r = resolveRef(ref, root, {});
  return r.ok ? r.path.slice(3) : r.code;
};

describe('resolveRef with local JSON Pointers', () => {
  it('unescapes ~1 before ~0 and percent-decodes first (RFC 6901 §4, §6)', () => {
    expect(at('#/properties/a~1b')).toEqual(['properties', 'a/b']);
    expect(at('#/properties/m~0n')).toEqual(['properties', 'm~n']);
    expect(at('#/properties/~01')).toEqual(['properties', '~1']);
    expect(at('#/properties/with%20space')).toEqual(['properties', 'with space']);
    // Decoded per segment, as the SDK's ajv resolves it: `%2F` stays inside its segment.
    expect(at('#/properties/a%2Fb')).toEqual(['properties', 'a/b']);
  });

  it('takes array indices without leading zeros, and `#` as the root', () => {
    expect(at('#/properties/list/prefixItems/1')).toEqual(['properties', 'list', 'prefixItems', 1]);
    expect(at('#/properties/list/items')).toEqual(['properties', 'list', 'items']);
    expect(at('#')).toEqual([]);
    expect(at('#/properties/list/prefixItems/01')).toBe('MCPG200');
    expect(at('#/properties/list/prefixItems/-')).toBe('MCPG200');
    expect(at('#/properties/list/prefixItems/2')).toBe('MCPG200');
  });

  it('designates schemas only, through schema keywords (JSON Schema 2020-12 §9.4.2)', () => {
    expect(at('#/properties')).toBe('MCPG200');
    expect(at('#/properties/kind/enum/0')).toBe('MCPG200');
    expect(at('#/type')).toBe('MCPG200');
    expect(at('#anchor')).toBe('MCPG201');
    expect(at('https://example.com/s.json#/properties/x')).toBe('MCPG201');
  });
});

describe('movePointers', () => {
  it("puts the copy's place in front of its own pointers and leaves shared refs alone", () => {
    const shared = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { $ref: '#/properties/a' },
        c: { $ref: '#' },
        d: { $ref: '#/schemas/X' },
      },
    };
    expect(movePointers(shared, ['properties', 'a/b'])).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { $ref: '#/properties/a~1b/properties/a' },
        c: { $ref: '#/properties/a~1b' },
        d: { $ref: '#/schemas/X' },
      },
    });
  });
});

describe('rebaseForTypes', () => {
  it('names each pointed-to subschema once; a pointer to an ancestor refers to its name', () => {
    const tree = {
      type: 'object',
      properties: {
        root: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/properties/root' } } } },
      },
    };
    const { root, hoisted } = rebaseForTypes(tree, 'T');
    expect(root).toEqual({ type: 'object', properties: { root: { $ref: '#/$defs/TRoot' } } });
    expect(hoisted).toEqual({
      TRoot: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/TRoot' } } } },
    });
  });
});
