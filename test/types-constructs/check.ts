// Type tests of test/types-constructs/mcpgen.yaml (test/types-constructs.test.ts): each valid input
// the server's validator accepts is assignable, each invalid one below is rejected by tsc --strict.
import type { ConstructsInput as I, Money, Tree } from './types.js';

// A property named like an Object.prototype member must be given: TypeScript reads the literal's inherited
// `constructor`, `toString` and `hasOwnProperty` (functions) as present, whatever the printer.
const minimal = { str: 'https://example.com', color: 'red', price: { amount: 1, currency: 'EUR' }, constructor: 'c', toString: 1, hasOwnProperty: true } satisfies I;

export const valid: I[] = [
  minimal,
  {
    ...minimal,
    num: 1.5,
    int: 3,
    bool: false,
    color: 'green',
    version: 2,
    nullableList: null,
    nullableAny: null,
    either: 'x',
    shape: { kind: 'circle', r: 1 },
    both: { a: 'a', b: 1 },
    tree: { label: 'root', children: [{ label: 'leaf', children: [] }] },
    count: 1,
    open: { x: 1, extra: 'allowed: no additionalProperties' },
    openTrue: { x: 1, y: [1] },
    closed: { x: 1 },
    counts: { a: 1, b: 2 },
    headers: { 'x-a': 'v' },
    pair: ['a', 1],
    tags: ['t'],
    id: 'id-1',
    described: 'd',
    titled: { t: 't' },
    'odd-name.with space': 'o',
    constructor: 'c',
    toString: 1,
    hasOwnProperty: true,
  },
  { ...minimal, nullableList: 'x', nullableAny: 2, either: 3, shape: { kind: 'square', side: 2 }, tree: { label: 'alone' } },
];
export const money: Money = { amount: 2, currency: 'USD' };
export const tree: Tree = { label: 'a', children: [{ label: 'b' }] };

// @ts-expect-error a required property is missing
export const e1: I = { color: 'red', price: { amount: 1, currency: 'EUR' } };
// @ts-expect-error string, not number
export const e2: I = { ...minimal, str: 1 };
// @ts-expect-error not in the enum
export const e3: I = { ...minimal, color: 'blue' };
// @ts-expect-error not the const
export const e4: I = { ...minimal, version: 3 };
// @ts-expect-error string or null
export const e5: I = { ...minimal, nullableList: 1 };
// @ts-expect-error integer or null
export const e6: I = { ...minimal, nullableAny: 'x' };
// @ts-expect-error string or number
export const e7: I = { ...minimal, either: true };
// @ts-expect-error no oneOf branch: a circle has r
export const e8: I = { ...minimal, shape: { kind: 'circle', side: 1 } };
// @ts-expect-error allOf needs both parts
export const e9: I = { ...minimal, both: { a: 'a' } };
// @ts-expect-error the shared schema's enum
export const e10: I = { ...minimal, price: { amount: 1, currency: 'YEN' } };
// @ts-expect-error the recursive schema's required label
export const e11: I = { ...minimal, tree: { label: 'a', children: [{}] } };
// @ts-expect-error the local $defs type
export const e12: I = { ...minimal, count: 'one' };
// @ts-expect-error a listed property keeps its type in an open object
export const e13: I = { ...minimal, open: { x: 'no' } };
// @ts-expect-error additionalProperties: false
export const e14: I = { ...minimal, closed: { x: 1, y: 2 } };
// @ts-expect-error additionalProperties schema
export const e15: I = { ...minimal, counts: { a: 'x' } };
// @ts-expect-error patternProperties schema
export const e16: I = { ...minimal, headers: { 'x-a': 1 } };
// @ts-expect-error a tuple of two
export const e17: I = { ...minimal, pair: ['a'] };
// @ts-expect-error a tuple of string and number
export const e18: I = { ...minimal, pair: ['a', 'b'] };
// @ts-expect-error array items
export const e19: I = { ...minimal, tags: [1] };
// @ts-expect-error an odd name keeps its type
export const e20: I = { ...minimal, 'odd-name.with space': 1 };
// @ts-expect-error a property named constructor is a string
export const e21: I = { ...minimal, constructor: 1 };
// @ts-expect-error the root is closed
export const e22: I = { ...minimal, nope: 1 };
// @ts-expect-error a property named toString is a number
export const e23: I = { ...minimal, toString: 'x' };
