import { describe, expect, it } from 'vitest';
import { fileBase, identifier, typeName } from '../cli/normalize/names.js';
import { inlineSharedRefs, recursiveSharedNames } from '../cli/normalize/refs.js';
import { rebaseForTypes } from '../cli/render/ts-types/rebase.js';
import { parseUriTemplate } from '../cli/manifest/uri-template.js';
import { pathShape } from '../cli/normalize/template-paths.js';

describe('names', () => {
  it.each([
    ['get_forecast', 'getForecast', 'GetForecast', 'get_forecast'],
    ['ping-weather', 'pingWeather', 'PingWeather', 'ping-weather'],
    ['no-input.tool', 'noInputTool', 'NoInputTool', 'no-input_tool'],
    ['2nd-template', '_2ndTemplate', '_2NdTemplate', '2nd-template'],
    ['delete', 'delete_', 'Delete', 'delete'],
    ['class', 'class_', 'Class', 'class'],
    ['Object', 'object', 'Object_', 'Object'],
    ['...', '_', '_', '___'],
  ])('%s → %s / %s / %s', (name, id, type, file) => {
    expect(identifier(name)).toBe(id);
    expect(typeName(name)).toBe(type);
    expect(fileBase(name)).toBe(file);
  });
});

describe('$ref policy', () => {
  const shared = {
    City: { type: 'string', minLength: 1 },
    Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/schemas/Tree' } } } },
  };
  const recursive = recursiveSharedNames(shared);

  it('finds recursive shared schemas only', () => {
    expect([...recursive]).toEqual(['Tree']);
  });

  it('inlines non-recursive refs, siblings win, key order kept', () => {
    const s = { type: 'object', properties: { city: { $ref: '#/schemas/City', description: 'Where' } } };
    const out = inlineSharedRefs(s, shared, recursive);
    expect(out).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1, description: 'Where' } },
    });
    expect(Object.keys((out.properties as Record<string, object>).city)).toEqual(['type', 'minLength', 'description']);
  });

  it('keeps recursive refs under $defs', () => {
    const out = inlineSharedRefs({ type: 'object', properties: { t: { $ref: '#/schemas/Tree' } } }, shared, recursive);
    expect(out).toEqual({
      type: 'object',
      properties: { t: { $ref: '#/$defs/Tree' } },
      $defs: { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
  });

  it('never rewrites $ref-looking data', () => {
    const s = {
      type: 'object',
      properties: { $ref: { type: 'string', const: '#/schemas/City' } },
      default: { $ref: '#/schemas/City' },
    };
    expect(inlineSharedRefs(s, shared, recursive)).toEqual(s);
  });

  it('rebases local $defs for the types document', () => {
    const s = {
      $schema: 'x',
      type: 'object',
      properties: { a: { $ref: '#/$defs/addr' }, c: { $ref: '#/schemas/City' } },
      $defs: { addr: { type: 'object' } },
    };
    expect(rebaseForTypes(s, 'FooInput')).toEqual({
      root: { type: 'object', properties: { a: { $ref: '#/$defs/FooInputAddr' }, c: { $ref: '#/$defs/City' } } },
      hoisted: { FooInputAddr: { type: 'object' } },
    });
  });
});

describe('uri templates', () => {
  it.each([
    ['weather://forecast/{city}/{date}', ['city', 'date']],
    ['sink://items/{id}{?fields,id}', ['id', 'fields']],
    ['file:///{+path}', ['path']],
    ['x://{a*}/{b:3}', ['a', 'b']],
  ])('%s', (t, vars) => expect([...new Set(parseUriTemplate(t).variables.map((v) => v.name))]).toEqual(vars));
  it.each(['x://{a', 'x://a}', 'x://{}', 'x://{a b}', 'x://{{a}}'])('rejects %s', (t) => {
    expect(parseUriTemplate(t).errors.length).toBeGreaterThan(0);
  });
});

describe('template path shape', () => {
  const shape = (template: string, name: string) =>
    pathShape(
      template,
      parseUriTemplate(template).variables.filter((v) => v.name === name),
    );
  it.each([
    ['file:///{+path}', 'path', true, true],
    ['file://{+path}', 'path', true, false],
    ['repo:{+path}', 'path', true, false],
    ['notes://book{/chapter}', 'chapter', true, true],
    ['docs://library/{name}', 'name', false, true],
    ['docs://{name}', 'name', false, false],
    ['docs:{name}', 'name', false, false],
    ['x://a/{list*}', 'list', true, true],
    ['x://a/{+first,second}', 'second', true, false],
    ['x://a/{a}{+b}', 'b', true, false],
    ['x://a/{#frag}', 'frag', true, true],
    ['x://a{?q}', 'q', false, false],
  ])('%s: %s carries a path %s, rooted %s', (template, name, carriesPath, rooted) => {
    expect(shape(template, name)).toEqual({ carriesPath, rooted });
  });
});
