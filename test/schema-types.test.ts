/**
 * Types: for each JSON Schema construct of test/cases/schema-constructs, the generated
 * type is exactly the one a TypeScript engineer would write by hand for what the server's validator
 * accepts (an object without `additionalProperties: false` takes other keys: `[k: string]: unknown`). Checked by the compiler:
 * a file of `Equals<Generated, HandWritten>` assertions is compiled against the generated types.ts
 * with tsc --strict (`any` where `unknown` is expected fails, as does a missing `| null`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../cli/generate.js';
import { REPO, run, TSC } from './helpers/project.js';

const CASE = path.join(REPO, 'test/cases/schema-constructs');
const DIR = path.join(REPO, '.tmp/schema-types');

/** Construct → [generated type expression, hand-written type]. */
const expectations: Record<string, [string, string]> = {
  'draft-07 tuple (items list, additionalItems: false) and definitions': [
    'Draft07Input',
    '{ pair: [] | [string] | [string, number]; count?: number; big?: number; [k: string]: unknown }',
  ],
  '2020-12 prefixItems tuple via $defs that refer to $defs': [
    'Draft2020Input',
    '{ at: [number, number]; path?: [number, number][]; [k: string]: unknown }',
  ],
  'root with no properties is free-form': ['NoDialectInput', '{ [k: string]: unknown }'],
  'root without type': ['TypelessRootInput', '{ q: string; [k: string]: unknown }'],
  'root without type or properties is free-form': ['TypelessFreeInput', '{ [k: string]: unknown }'],
  'typeless object-shaped output': ['TypelessFreeOutput', '{ [k: string]: number }'],
  'anyOf / oneOf of consts / allOf / const': [
    'CombinatorsInput',
    "{ id: string | number; size?: 'small' | 'large' | number; named?: { name: string; [k: string]: unknown } & { age: number; [k: string]: unknown }; version: 2; [k: string]: unknown }",
  ],
  'tagged union of objects': [
    'TaggedUnionInput',
    "{ shape: { kind: 'circle'; radius: number } | { kind: 'square'; side: number }; [k: string]: unknown }",
  ],
  'nullable (type list and anyOf null), type list, mixed enum': [
    'NullableInput',
    "{ a: string | null; b?: number | null; flag?: boolean | string; mixed?: 1 | 'one' | true | null; [k: string]: unknown }",
  ],
  'additionalProperties false / true / schema, propertyNames, patternProperties, free-form': [
    'MapsInput',
    '{ closed: { x?: number }; open?: { x?: number; [k: string]: unknown }; counts?: { [k: string]: number }; named?: { [k: string]: string }; env?: { [k: string]: string }; anything?: { [k: string]: unknown }; value?: unknown }',
  ],
  'arrays of objects (minItems does not make tuples) and tuples': [
    'ArraysInput',
    '{ rows: { id: number; label?: string; [k: string]: unknown }[]; pair?: [] | [string] | [string, boolean]; [k: string]: unknown }',
  ],
  'formats are strings (int32 a number)': [
    'FormatsInput',
    '{ uri?: string; uuid?: string; when?: string; day?: string; email?: string; small?: number; json?: string; [k: string]: unknown }',
  ],
  'integers up to 2^53 - 1 are number': [
    'NumbersInput',
    '{ id: number; big?: number; ratio?: number; [k: string]: unknown }',
  ],
  'defaults of every type, annotations and vendor keys do not change types': [
    'DefaultsInput',
    '{ s?: string; i?: number; n?: number; b?: boolean; z?: null; arr?: string[]; obj?: { k?: string; [k: string]: unknown }; old?: string; [k: string]: unknown }',
  ],
  'keyword and non-identifier property names are quoted keys': [
    'KeywordsInput',
    "{ type: string; function?: string; class?: string; default?: string; 'dash-ed': string; 'dot.ted'?: string; 'with space'?: string; '9lives'?: number; [k: string]: unknown }",
  ],
  'shared schemas are named types': [
    'SharedInput',
    '{ home: Address; work?: Address; category?: Category; [k: string]: unknown }',
  ],
  'a shared schema that refers to another one': ['Address', '{ street: string; city: string; [k: string]: unknown }'],
  'a recursive shared schema': [
    'Category',
    '{ name: string; parent?: Category; subcategories?: Category[]; [k: string]: unknown }',
  ],
  'shared schemas in an output': ['SharedOutput', '{ addresses: Address[]; [k: string]: unknown }'],
  'tool name with hyphen and dot': ['GetUserV2Input', "{ 'user-id': string; [k: string]: unknown }"],
  'tool name with a leading digit': ['_2FaVerifyInput', '{ code: string; [k: string]: unknown }'],
  'template variables with dots keep their wire names': [
    'UserFileV2Params',
    "{ user_id: string; 'file.name': string }",
  ],
  'prompt arguments named after reserved words': [
    'ForClassArgs',
    "{ class: string; 'first-name'?: string; '2nd'?: string }",
  ],
};

describe('generated types match the schemas (tsc --strict)', () => {
  let types: string;
  beforeAll(async () => {
    const result = await generate({ manifest: path.join(CASE, 'mcpgen.yaml'), outDir: CASE, generatorVersion: null });
    types = result.files.find((f) => f.path === 'src/generated/types.ts')!.content;
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path.join(DIR, 'types.ts'), types);
  });

  it('every construct has the hand-written type', async () => {
    const names = [...new Set(Object.values(expectations).map(([t]) => t))];
    const lines = [
      `import type { ${names.join(', ')} } from './types.js';`,
      'type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;',
      // Interfaces and object literal types differ to Equals only by identity of nested names: flatten one level.
      'type Flat<T> = { [K in keyof T]: T[K] };',
      ...Object.entries(expectations).map(
        ([what, [generated, written]], i) =>
          `// ${what}\nexport const check${i}: Equals<Flat<${generated}>, Flat<${written}>> = true;`,
      ),
      // The check can fail: a nullable field is not a plain string.
      'export const canFail: Equals<Flat<NullableInput>, Flat<{ a: string }>> = false;',
      // `unknown`, never `any`: a free-form value must be narrowed before use.
      'declare const m: MapsInput;',
      '// @ts-expect-error unknown is not any',
      'export const notAny: number = m.value;',
    ];
    writeFileSync(path.join(DIR, 'check.ts'), `${lines.join('\n')}\n`);
    writeFileSync(
      path.join(DIR, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          skipLibCheck: true,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    const r = await run(TSC, ['-p', 'tsconfig.json'], DIR);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);

  it('shared schemas are exported once, under their own names', () => {
    for (const name of ['Address', 'City', 'Category']) {
      expect(types.match(new RegExp(`^export (?:interface|type) ${name}\\b`, 'gm'))).toHaveLength(1);
    }
    // A `title` inside a schema never becomes a type of its own.
    expect(types).not.toMatch(/export (?:interface|type) Old\b/);
  });

  it('descriptions and deprecation become JSDoc', () => {
    expect(types).toMatch(/\/\*\* A postal address \*\/\nexport interface Address/);
    expect(types).toMatch(/\* Do not use\n\s*\* @deprecated\n\s*\*\/\n\s*old\?: string;/);
    // A description next to a `$ref` documents the property.
    expect(types).toMatch(/\/\*\* Office \*\/\n\s*work\?: Address;/);
  });
});
