/**
 * Keys that name Object.prototype members (`__proto__`, `constructor`, `toString`…) are plain keys:
 * loading makes them own properties (never a prototype change), on both YAML paths, and
 * duplicates, positions and schema validation treat them like any other name.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadManifest } from '../cli/load/index.js';
import { quickParseYaml } from '../cli/load/quick-yaml.js';
import { validateManifest } from '../cli/validate/validate.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-proto-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function load(text: string) {
  const file = path.join(tmp, `m${n++}.yaml`);
  fs.writeFileSync(file, text);
  return loadManifest(file, 'mcpgen.yaml');
}

const HEAD = 'version: 1\nserver:\n  name: x\n  version: 1.0.0\ntransports:\n  stdio: {}\n';
const at = (d: { line: number; column: number; code: string; message: string }) =>
  `${d.line}:${d.column} ${d.code} ${d.message}`;

describe('prototype-named keys', () => {
  const text = [
    `${HEAD}tools:`, // 1-7
    '  __proto__:', // 8
    '    description: A tool named after the prototype key', // 9
    '    input: { type: object, properties: { __proto__: { type: string, default: a, description: A property } } }', // 10
    '    bogus: 1', // 11
    '  constructor:', // 12
    '    description: 1', // 13
    '  toString:', // 14
    '    description: A tool named toString', // 15
    '',
  ].join('\n');

  test('__proto__ is left to the yaml package, which makes it an own key', () => {
    expect(quickParseYaml(text)).toBeUndefined();
    const { manifest, diagnostics } = load(text);
    expect(diagnostics).toEqual([]);
    const tools = (manifest!.data as { tools: Record<string, unknown> }).tools;
    expect(Object.keys(tools)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    expect(Object.hasOwn(tools, '__proto__')).toBe(true);
    // biome-ignore lint/suspicious/noProto: the manifest's tool named `__proto__`, an own key of a prototype-less record
    const proto = tools.__proto__ as { input: { properties: object } };
    expect(Object.hasOwn(proto.input.properties, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(proto.input.properties)).toBe(Object.prototype);
    expect(manifest!.locate(['tools', '__proto__'], { key: true })).toMatchObject({ line: 8, column: 3 });
    expect(manifest!.locate(['tools', '__proto__', 'input', 'properties', '__proto__'], { key: true })).toMatchObject({
      line: 10,
      column: 42,
    });
  });

  test('validation finds the mistakes inside them, at their positions', () => {
    const { manifest } = load(text);
    const found = validateManifest(manifest!).map(at);
    expect(found).toContain('11:5 MCPG110 unknown key `bogus` in tool `__proto__`');
    expect(found).toContain('13:18 MCPG111 `description`: expected a string, got the number 1');
  });

  test('constructor and toString stay on the quick path, as own keys', () => {
    const quick = `${HEAD}tools:\n  constructor:\n    description: A tool named constructor\n  toString: { description: x }\n`;
    const parsed = quickParseYaml(quick);
    expect(parsed).toBeDefined();
    const { manifest } = load(quick);
    expect(manifest!.aliasFree).toBe(true);
    const tools = (manifest!.data as { tools: Record<string, unknown> }).tools;
    expect(Object.keys(tools)).toEqual(['constructor', 'toString']);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    expect(manifest!.locate(['tools', 'toString', 'description'])).toMatchObject({ line: 10, column: 28 });
    // A key not in the mapping is not found on its prototype either.
    expect(manifest!.locate(['tools', 'hasOwnProperty'])).toEqual(manifest!.locate(['tools']));
  });

  test('a duplicate __proto__ is a duplicate key, in block and flow mappings', () => {
    const dup = `${HEAD}tools:\n  __proto__:\n    description: first one\n  __proto__:\n    description: second one\n`;
    expect(load(dup).diagnostics.map(at)).toEqual(['10:3 MCPG103 duplicate key `__proto__` (first defined on line 8)']);
    const flow = `${HEAD}meta: { __proto__: 1, __proto__: 2 }\n`;
    expect(load(flow).diagnostics.map(at)).toEqual([
      '7:23 MCPG103 duplicate key `__proto__` (first defined on line 7)',
    ]);
  });
});
