/**
 * The quick sample check (cli/render/sample-check.ts) must agree with ajv — the validator the
 * generated server uses — whenever it claims to know the answer.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { quickCheck } from '../cli/manifest/sample-check.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function randomSchema(r: () => number, depth: number): unknown {
  if (depth > 3 || r() < 0.15) return pick(r, [true, false, {}, { type: 'string' }, { type: 'integer' }]);
  const s: Record<string, unknown> = {};
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    switch (Math.floor(r() * 20)) {
      case 0:
        s.type = pick(r, [
          'string',
          'number',
          'integer',
          'boolean',
          'null',
          'array',
          'object',
          ['string', 'null'],
          ['integer', 'boolean'],
        ]);
        break;
      case 1:
        s.enum = pick(r, [['a', 'b'], [1, 'one', true, null], [{ a: 1 }, [1, 2]], [0]]);
        break;
      case 2:
        s.const = pick(r, ['a', 1, null, { k: [1] }, 1.5]);
        break;
      case 3:
        s.minLength = pick(r, [0, 1, 3]);
        break;
      case 4:
        s.maxLength = pick(r, [0, 2, 5]);
        break;
      case 5:
        s.minimum = pick(r, [-1, 0, 1.5, 9007199254740991]);
        break;
      case 6:
        s.maximum = pick(r, [0, 10]);
        break;
      case 7:
        s.exclusiveMinimum = pick(r, [0, 1]);
        break;
      case 8:
        s.exclusiveMaximum = pick(r, [1, 100]);
        break;
      case 9:
        s.minItems = pick(r, [0, 1, 2]);
        break;
      case 10:
        s.maxItems = pick(r, [0, 1, 3]);
        break;
      case 11:
        s.required = pick(r, [['a'], ['a', 'b'], []]);
        break;
      case 12:
        s.items = randomSchema(r, depth + 1);
        break;
      case 13:
        s.properties = { a: randomSchema(r, depth + 1), b: randomSchema(r, depth + 1) };
        break;
      case 14:
        s.additionalProperties = randomSchema(r, depth + 1);
        break;
      case 15:
        s[pick(r, ['anyOf', 'oneOf', 'allOf'])] = [randomSchema(r, depth + 1), randomSchema(r, depth + 1)];
        break;
      case 16:
        s.format = pick(r, ['email', 'uuid', 'json', 'date-time']);
        break;
      case 17:
        s.pattern = '^a';
        break;
      case 18:
        s.minProperties = 1;
        break;
      default:
        s.description = 'annotation';
        s['x-vendor'] = 1;
    }
  }
  return s;
}

const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  9007199254740991,
  '',
  'a',
  'abc',
  'émoji 🎉',
  'abcdef',
  [],
  [1],
  ['a', 'b', 'c'],
  [{ a: 1 }],
  {},
  { a: 'x' },
  { a: 1, b: null },
  { c: true },
  { a: 'abc', b: 2, c: [] },
];

describe('quick sample check agrees with ajv', () => {
  it('on random schemas and values', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, logger: false });
    const r = rng(Number(process.env.SEED ?? 5));
    let decided = 0;
    for (let i = 0; i < Number(process.env.N ?? 1500); i++) {
      const schema = randomSchema(r, 0);
      const validate = ajv.compile(schema as object);
      for (const v of VALUES) {
        const quick = quickCheck(schema, v);
        if (quick === undefined) continue;
        decided++;
        expect(quick, `${JSON.stringify(schema)} on ${JSON.stringify(v)}`).toBe(validate(v));
      }
    }
    // It must decide most cases, or it saves nothing.
    expect(decided).toBeGreaterThan(1500 * VALUES.length * 0.5);
  });
});

describe('samples fall back to ajv where the quick check cannot decide', () => {
  // ajv is loaded on demand; the built CLI (dist, what users run) must load it too.
  it.each([
    ['sources', '../cli/normalize/samples.js'],
    ['the build', '../dist/normalize/samples.js'],
  ])('in %s', async (_label, module) => {
    const { satisfies } = (await import(module)) as typeof import('../cli/normalize/samples.js');
    const pattern = { type: 'string', pattern: '^n[0-9]+$' };
    expect(quickCheck(pattern, 'n1')).toBeUndefined();
    expect(satisfies(pattern, 'n1')).toBe(true);
    expect(satisfies(pattern, 'x1')).toBe(false);
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'string',
      format: 'email',
      pattern: '@',
    };
    expect(satisfies(draft07, 'someone@example.com')).toBe(true);
    expect(satisfies(draft07, 'nobody')).toBe(false);
  });
});

// Found by the manifest fuzzer: a handler test casts its sample to the input type, so a sample
// value the schema refuses (an invalid default, const or enum member, or one beside a `$ref` that
// cannot be checked here) broke compilation.
describe('handler-test samples use only values their schema accepts', () => {
  it('skips invalid or uncheckable defaults, consts and enum members', async () => {
    const { sampleOf } = await import('../cli/normalize/samples.js');
    const input = {
      type: 'object',
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      properties: {
        at: { $ref: '#/$defs/point', default: 15 },
        level: { type: 'integer', const: 'high' },
        mode: { type: 'object', enum: ['fast', { depth: 2 }] },
        size: { type: 'integer', enum: ['big', 3] },
        days: { type: 'integer', default: 'three' },
      },
      required: ['mode', 'size', 'days'],
    };
    expect(sampleOf(input, 0)).toEqual({ mode: { depth: 2 }, size: 3, days: 1 });
    // A required property with no acceptable value: no sample at all (the stub then starts from `{}`).
    expect(sampleOf({ ...input, required: ['at', 'mode'] }, 0)).toBeUndefined();
    expect(sampleOf({ ...input, required: ['level'] }, 0)).toBeUndefined();
  });
});
