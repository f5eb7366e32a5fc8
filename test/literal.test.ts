/**
 * The literal printer: what it prints is TypeScript that evaluates to the very value printed, for
 * any JSON data (odd keys, odd strings, deep nesting), in the fixed layout the generated files use.
 */
import { describe, expect, it } from 'vitest';
import { Code, INLINE, printJson, printLiteral, printString, propertyKey } from '../cli/render/literal.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const STRINGS = [
  '',
  'a',
  "it's",
  'say "hi"',
  `both ' and "`,
  'back\\slash',
  'new\nline',
  'tab\t',
  '\u2028\u2029',
  '${x}',
  '`tick`',
  '*/',
  'x'.repeat(120),
  'émoji 🎉',
  '</script>',
  '\ud800 lone',
  '\u0000nul',
  'Кириллица и العربية',
];
const KEYS = [
  'a',
  'type',
  'with-dash',
  '1st',
  '$ref',
  'has space',
  'default',
  'x.y',
  '',
  '__proto__',
  'constructor',
  'toString',
  '日志',
  "it's",
  'k'.repeat(90),
];

function randomValue(r: () => number, depth: number): unknown {
  switch (Math.floor(r() * (depth > 4 ? 4 : 7))) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [0, 1, -1, 3.5, 1e21, 9007199254740991, 0.0001, -0][Math.floor(r() * 8)];
    case 3:
      return STRINGS[Math.floor(r() * STRINGS.length)];
    case 4:
    case 5:
      return Array.from({ length: Math.floor(r() * 6) }, () => randomValue(r, depth + 1));
    default: {
      // Built as data is built in render: no prototype, so `__proto__` is a key like any other.
      const o = Object.create(null) as Record<string, unknown>;
      for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]!] = randomValue(r, depth + 1);
      return o;
    }
  }
}

/** The value a printed literal evaluates to (the printer emits no TypeScript-only syntax; tsc checks generated projects end to end). */
function evaluate(text: string): unknown {
  return new Function(`return (${text});`)();
}

/** JSON with own keys only, so `__proto__` compares as data. */
const canonical = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x)) : x,
  );

describe('printLiteral', () => {
  it('prints TypeScript that evaluates to the value, for 500 random values', () => {
    const r = rng(7);
    for (let n = 0; n < 500; n++) {
      const value = randomValue(r, 0);
      const printed = printLiteral(value, 2);
      expect(canonical(evaluate(printed)), printed).toBe(canonical(value));
      // Deterministic, and the same wherever it stands.
      expect(printLiteral(value, 2)).toBe(printed);
    }
  });

  it('keeps a short object or array on one line, and breaks a long one member per line', () => {
    expect(printLiteral({ type: 'string', enum: ['a', 'b'] })).toBe("{ type: 'string', enum: ['a', 'b'] }");
    expect(printLiteral([])).toBe('[]');
    expect(printLiteral({})).toBe('{}');
    const long = { description: 'd'.repeat(INLINE), type: 'string' };
    expect(printLiteral({ city: long }, 2)).toBe(
      `{\n    city: {\n      description: '${'d'.repeat(INLINE)}',\n      type: 'string',\n    },\n  }`,
    );
  });

  it('quotes keys only where needed, and never lets `__proto__` set a prototype', () => {
    expect(propertyKey('type')).toBe('type');
    expect(propertyKey('日志')).toBe('日志');
    expect(propertyKey('with-dash')).toBe("'with-dash'");
    expect(propertyKey('__proto__')).toBe("['__proto__']");
    const o = Object.create(null) as Record<string, unknown>;
    // biome-ignore lint/suspicious/noProto: the key under test, set as data on an object without a prototype
    o.__proto__ = { polluted: true };
    const back = evaluate(printLiteral(o)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
  });

  it('escapes strings so they cannot end the literal or the line', () => {
    for (const s of STRINGS) expect(evaluate(printString(s))).toBe(s);
    expect(printString("it's")).toBe('"it\'s"');
    expect(printString('say "hi"')).toBe(`'say "hi"'`);
    expect(printString('new\nline')).toBe("'new\\nline'");
  });

  it('prints Code as written', () => {
    expect(printLiteral({ verify: new Code('verifyRequestState') })).toBe('{ verify: verifyRequestState }');
  });

  it('prints JSON files with two-space indentation and a final newline', () => {
    expect(printJson({ a: [1], b: {} })).toBe('{\n  "a": [\n    1\n  ],\n  "b": {}\n}\n');
  });
});
