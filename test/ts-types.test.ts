/**
 * mcpgen's JSON Schema → TypeScript printer (cli/render/ts-types/): the types it derives, and its
 * fixed layout. The fuzz part prints thousands of random schemas — every construct, long names and
 * unions, nesting, weird keys, descriptions with `*\/`, unicode and newlines — and requires the
 * same text from a second print and a clean tsc --strict.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printDeclaration, type Declaration } from '../cli/render/ts-types/print.js';
import { schemaDoc, schemaType } from '../cli/render/ts-types/schema-type.js';
import { REPO, run, TSC } from './helpers/project.js';

/** The declarations, a blank line apart, as types.ts holds them. */
const printDeclarations = (decls: Declaration[]) => `${decls.map(printDeclaration).join('\n\n')}\n`;
const print = (schema: unknown, name = 'T') =>
  printDeclarations([{ name, doc: schemaDoc(schema), type: schemaType(schema) }]);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const NAMES = ['A', 'Point', 'Address', 'SomeRatherLongTypeNameForAnAddressBookEntry', 'X'.repeat(60), 'Tree'];
const KEYS = [
  'a',
  'id',
  'type',
  'class',
  'default',
  'with-dash',
  'dot.ted',
  'has space',
  '9lives',
  '123',
  '',
  'café',
  'naïve_key',
  '日本',
  '$ref',
  '__proto__',
  "it's",
  'say "hi"',
  'a_really_long_property_name_that_takes_up_a_good_part_of_the_line',
];
const STRINGS = [
  '',
  'a',
  'small',
  "it's",
  'say "hi"',
  `both ' and "`,
  'back\\slash',
  'new\nline',
  'tab\t',
  '${x}',
  '`tick`',
  '*/',
  'x'.repeat(70),
  'émoji 🎉',
  '日本語のテキスト',
  'Ünïcödé',
];
const DESCRIPTIONS = [
  'A thing',
  'Ends the comment */ early',
  'Line one\nLine two\n\n  indented line  ',
  'Trailing spaces   ',
  'Unicode: café 🎉 日本',
  'Separator\u2028inside',
  'Windows\r\nline ends',
  '*/*/',
  ' * starts like a star',
  'y'.repeat(130),
  '@see elsewhere',
  '  ',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function annotate(r: () => number, s: Record<string, unknown>): Record<string, unknown> {
  if (r() < 0.3) s.description = pick(r, DESCRIPTIONS);
  if (r() < 0.05) s.deprecated = true;
  if (r() < 0.05) s.title = 'Ignored';
  return s;
}

function randomSchema(r: () => number, depth: number): unknown {
  const leaf = depth > 3;
  const k = Math.floor(r() * (leaf ? 8 : 19));
  switch (k) {
    case 0:
      return annotate(r, { type: pick(r, ['string', 'integer', 'number', 'boolean', 'null']) });
    case 1:
      return annotate(r, { type: [pick(r, ['string', 'integer', 'boolean']), 'null'] });
    case 2:
      return annotate(r, {
        enum: Array.from({ length: 1 + Math.floor(r() * 9) }, () =>
          pick(r, [...STRINGS, 0, -1, 2.5, 1e21, true, false, null]),
        ),
      });
    case 3:
      return { const: pick(r, [...STRINGS, 7, -3, false]) };
    case 4:
      return { $ref: `#/$defs/${pick(r, NAMES)}` };
    case 5:
      return r() < 0.5 ? {} : true;
    case 6:
      return { type: 'object' };
    case 7:
      return { type: 'string', minLength: 1, format: 'uri' };
    case 8:
    case 9:
    case 10: {
      const properties: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 6); i > 0; i--) properties[pick(r, KEYS)] = randomSchema(r, depth + 1);
      const s: Record<string, unknown> = {
        type: 'object',
        properties,
        required: Object.keys(properties).filter(() => r() < 0.5),
      };
      const extra = r();
      if (extra < 0.15) s.additionalProperties = true;
      else if (extra < 0.3) s.additionalProperties = randomSchema(r, depth + 1);
      else if (extra < 0.6) s.additionalProperties = false;
      if (r() < 0.1) s.patternProperties = { '^x-': randomSchema(r, depth + 1) };
      return annotate(r, s);
    }
    case 11:
      return annotate(r, { type: 'array', items: randomSchema(r, depth + 1), ...(r() < 0.3 ? { minItems: 1 } : {}) });
    case 12: {
      const prefix = Array.from({ length: Math.floor(r() * 4) }, () => randomSchema(r, depth + 1));
      const s: Record<string, unknown> = { type: 'array', prefixItems: prefix };
      const rest = r();
      if (rest < 0.4) s.items = false;
      else if (rest < 0.7) s.items = randomSchema(r, depth + 1);
      if (r() < 0.5) s.minItems = Math.floor(r() * 4);
      if (r() < 0.2) s.maxItems = Math.floor(r() * 5);
      return s;
    }
    case 13:
      return {
        type: 'array',
        items: Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomSchema(r, depth + 1)),
        ...(r() < 0.5 ? { additionalItems: r() < 0.5 ? false : randomSchema(r, depth + 1) } : {}),
      };
    case 14:
      return annotate(r, { anyOf: Array.from({ length: 1 + Math.floor(r() * 5) }, () => randomSchema(r, depth + 1)) });
    case 15:
      return { oneOf: Array.from({ length: 2 + Math.floor(r() * 4) }, () => randomSchema(r, depth + 1)) };
    case 16:
      return { allOf: Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomSchema(r, depth + 1)) };
    case 17: {
      // Nullable: null after or before the value, also as a type list on an object.
      const value = randomSchema(r, depth + 1);
      if (r() < 0.3 && typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'object')
        return { ...value, type: ['object', 'null'] };
      return { anyOf: r() < 0.7 ? [value, { type: 'null' }] : [{ type: 'null' }, value], default: null };
    }
    default:
      return {
        type: 'object',
        properties: { kind: { const: pick(r, STRINGS) } },
        anyOf: [{ required: ['a'] }, { required: ['b'] }],
      };
  }
}

describe('schemaType', () => {
  it('tuples: minItems, maxItems and the rest decide the lengths', () => {
    const t = (s: object) => print({ type: 'array', ...s });
    expect(t({ prefixItems: [{ type: 'string' }, { type: 'number' }], items: false })).toBe(
      'export type T = [] | [string] | [string, number];\n',
    );
    expect(t({ prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2 })).toBe(
      'export type T = [string, number];\n',
    );
    expect(t({ prefixItems: [{ type: 'string' }], minItems: 1 })).toBe('export type T = [string, ...unknown[]];\n');
    expect(t({ items: [{ type: 'string' }], additionalItems: { type: 'boolean' }, minItems: 2 })).toBe(
      'export type T = [string, boolean, ...boolean[]];\n',
    );
    expect(t({ prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 1, maxItems: 1 })).toBe(
      'export type T = [string];\n',
    );
    expect(t({ items: { type: 'string' }, minItems: 2, maxItems: 3 })).toBe('export type T = string[];\n');
  });

  it('index signatures cover the listed properties; other keys are unknown unless additionalProperties says otherwise', () => {
    expect(
      print({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } }),
    ).toBe('export interface T {\n  a?: string;\n  [k: string]: number | string | undefined;\n}\n');
    expect(
      print({
        type: 'object',
        patternProperties: { '^a': { type: 'string' }, '^b': { type: 'number' } },
        additionalProperties: false,
      }),
    ).toBe('export interface T {\n  [k: string]: string | number;\n}\n');
    // Without additionalProperties the validator lets any other key through.
    expect(print({ type: 'object', patternProperties: { '^a': { type: 'string' } } })).toBe(
      'export interface T {\n  [k: string]: unknown;\n}\n',
    );
    expect(print({ type: 'object', properties: { a: { type: 'string' } } })).toBe(
      'export interface T {\n  a?: string;\n  [k: string]: unknown;\n}\n',
    );
    expect(print({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false })).toBe(
      'export interface T {\n  a?: string;\n}\n',
    );
    expect(print({ type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false })).toBe(
      'export interface T {\n  a?: string;\n}\n',
    );
    expect(print({ type: 'object' })).toBe('export interface T {\n  [k: string]: unknown;\n}\n');
    expect(print({ minLength: 3 })).toBe('export type T = unknown;\n');
  });

  it('keywords that only constrain values add nothing to the type', () => {
    const s = {
      type: 'object',
      properties: { phone: { type: 'string' } },
      anyOf: [{ required: ['phone'] }, { required: ['email'] }],
      additionalProperties: false,
    };
    expect(print(s)).toBe('export interface T {\n  phone?: string;\n}\n');
    expect(print({ type: 'object', oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] })).toBe(
      'export type T = A | B;\n',
    );
    expect(print({ $ref: '#/$defs/A', description: 'An A' })).toBe('/** An A */\nexport type T = A;\n');
  });

  it('nullable forms, literal unions, JSDoc', () => {
    expect(print({ type: ['string', 'null'] })).toBe('export type T = string | null;\n');
    expect(
      print({
        anyOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
          { type: 'null' },
        ],
      }),
    ).toBe('export type T = {\n  a?: number;\n} | null;\n');
    expect(print({ enum: ['a', "it's", 1, true, null] })).toBe(`export type T = 'a' | "it's" | 1 | true | null;\n`);
    expect(print({ type: 'string', description: 'Ends */ here\nsecond line', deprecated: true })).toBe(
      '/**\n * Ends *\\/ here\n * second line\n * @deprecated\n */\nexport type T = string;\n',
    );
  });
});

describe('the fixed layout', () => {
  it('unions stay on one line, objects are expanded two spaces deeper, keys quoted only when needed', () => {
    const schema = {
      type: 'object',
      properties: {
        'odd key': {
          anyOf: [
            {
              type: 'object',
              properties: { x: { type: 'array', items: { type: ['string', 'null'] } } },
              required: ['x'],
              additionalProperties: false,
            },
            { enum: ['a'.repeat(60), 'b'.repeat(60)] },
          ],
        },
        ['__proto__']: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' }, minItems: 1 },
      },
      required: ['odd key'],
      additionalProperties: false,
    };
    expect(print(schema)).toBe(
      [
        'export interface T {',
        "  'odd key': {",
        '    x: (string | null)[];',
        `  } | '${'a'.repeat(60)}' | '${'b'.repeat(60)}';`,
        '  __proto__?: [string, ...number[]];',
        '}',
        '',
      ].join('\n'),
    );
  });
});

describe('printed declarations are deterministic and compile', () => {
  const files: string[] = [];

  it('random schemas', async () => {
    const r = rng(Number(process.env.SEED ?? 11));
    const n = Number(process.env.N ?? 1500);
    // Several declarations a file, as in types.ts; compared file by file so a failure shows its schema.
    for (let i = 0; i < n; i += 5) {
      const decls: Declaration[] = [];
      const schemas: unknown[] = [];
      for (let j = 0; j < 5; j++) {
        const schema = randomSchema(r, r() < 0.5 ? 0 : 2);
        schemas.push(schema);
        decls.push({ name: `${pick(r, NAMES)}${i + j}`, doc: schemaDoc(schema), type: schemaType(schema) });
      }
      const printed = printDeclarations(decls);
      const again = printDeclarations(
        schemas.map((schema, j) => ({ name: decls[j]!.name, doc: schemaDoc(schema), type: schemaType(schema) })),
      );
      if (again !== printed) expect({ schemas, printed }).toEqual({ schemas, printed: again });
      files.push(printed);
    }
  }, 120_000);

  it('the random declarations type-check (tsc --strict)', async () => {
    const dir = path.join(REPO, '.tmp/ts-types');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The referenced names, declared once; each printed file is a module of its own.
    const refs = NAMES.map((n) => `export type ${n} = { v: 1 };`).join('\n');
    files.forEach((f, i) =>
      writeFileSync(path.join(dir, `t${i}.ts`), `import type { ${NAMES.join(', ')} } from './refs.js';\n\n${f}`),
    );
    writeFileSync(path.join(dir, 'refs.ts'), `${refs}\n`);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      skipLibCheck: true,
      types: [],
      noUnusedLocals: false,
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    const r = await run(TSC, ['-p', 'tsconfig.json'], dir);
    expect(r.stdout + r.stderr).toBe('');
  }, 120_000);
});
