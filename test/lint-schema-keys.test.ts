/**
 * unknown-schema-keys (MCPG310) beyond its golden cases: what it must never report (every keyword
 * of the drafts, data inside `enum`/`default`/`const`/`examples`, property names, vendor keys,
 * other tools' annotations) and where it looks (every embedded schema root, at any depth).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { lintManifest } from '../cli/lint/index.js';
import { SCHEMA_KEYWORDS } from '../cli/lint/schema-keywords.js';
import { loadManifest } from '../cli/load/index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-schema-keys-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function findings(yaml: string, rule: Record<string, 'off' | 'warn' | 'error'> = {}) {
  const file = path.join(tmp, `m${n++}.yaml`);
  fs.writeFileSync(file, yaml);
  const { manifest, diagnostics } = loadManifest(file, 'mcpgen.yaml');
  expect(diagnostics).toEqual([]);
  return lintManifest(manifest!, rule)
    .filter((d) => d.code === 'MCPG310')
    .map((d) => `${d.line}:${d.column} ${d.severity} ${d.message}${d.hint ? ` | ${d.hint}` : ''}`)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

const HEAD = 'version: 1\nserver: { name: s, version: 1.0.0 }\n';

describe('unknown-schema-keys', () => {
  test('never reports a keyword of the drafts, whatever its value', () => {
    const all = SCHEMA_KEYWORDS.map((k) => `    ${JSON.stringify(k)}: null`).join('\n');
    expect(findings(`${HEAD}schemas:\n  Everything:\n${all}\n`)).toEqual([]);
  });

  test('never looks into data or property names, nor at vendor keys and known annotations', () => {
    const yaml = `${HEAD}schemas:
  Thing:
    type: object
    properties:
      desciption: { type: string, description: A property whose name looks like a typo }
      case-insensitive: { type: [boolean, 'null'], default: }
    patternProperties:
      "^maxlength": { type: string }
    enum: [{ desciption: x, requried: null }]
    default: { maxlength: 1, item: null }
    const: { propertes: null }
    examples: [{ minimun: null }]
    example: { a: 1 }
    nullable: true
    discriminator: { propertyName: kind }
    markdownDescription: A **thing**
    enumDescriptions: [one]
    errorMessage: must be a thing
    x-mcp-header: X-Thing
    x-empty:
    X-Upper: 1
    ui:widget: select
    $comment: note
`;
    expect(findings(yaml)).toEqual([]);
  });

  test('looks at every schema root and every subschema, and names where', () => {
    const yaml = `${HEAD}schemas:
  A: { type: string, description: Shared, used twice }
tools:
  t:
    description: A tool with schemas everywhere
    input:
      type: object
      $defs: { D: { type: string, formt: date } }
      properties:
        deep: { type: array, items: { anyOf: [{ type: string, descripton: x }] } }
    output: { type: object, properties: { r: { type: string, description: Out, really } } }
resourceTemplates:
  n:
    uriTemplate: "n://{id}"
    description: A template with a param
    params: { id: { type: string, description: Id, digits only } }
`;
    expect(findings(yaml)).toEqual([
      '4:43 warning key `used twice` of schema `A` has no value, and is not a JSON Schema keyword | in a flow mapping a comma ends a plain value: quote it, description: "Shared, used twice"',
      '10:35 warning key `formt` of `input.$defs.D` of tool `t` is not a JSON Schema keyword; did you mean `format`? | clients ignore `formt`: rename it to `format` (or prefix it with `x-` if it is your own annotation)',
      '12:63 warning key `descripton` of `input.properties.deep.items.anyOf[0]` of tool `t` is not a JSON Schema keyword; did you mean `description`? | clients ignore `descripton`: rename it to `description` (or prefix it with `x-` if it is your own annotation)',
      '13:80 warning key `really` of `output.properties.r` of tool `t` has no value, and is not a JSON Schema keyword | in a flow mapping a comma ends a plain value: quote it, description: "Out, really"',
      '18:52 warning key `digits only` of `params.id` of resource template `n` has no value, and is not a JSON Schema keyword | in a flow mapping a comma ends a plain value: quote it, description: "Id, digits only"',
    ]);
  });

  test('the fix keeps what was written, quotes and backslashes escaped; no fix when the value was quoted', () => {
    const yaml = `${HEAD}schemas:
  A: { type: string, description: Say "hi" \\ wave, then leave }
  B: { type: string, description: 'Quoted', later }
`;
    expect(findings(yaml)).toEqual([
      '4:52 warning key `then leave` of schema `A` has no value, and is not a JSON Schema keyword | in a flow mapping a comma ends a plain value: quote it, description: "Say \\"hi\\" \\\\ wave, then leave"',
      '5:45 warning key `later` of schema `B` has no value, and is not a JSON Schema keyword | give it a value, or remove it',
    ]);
  });

  // An empty `default:` or `const:` the type refuses is MCPG208 (validate), reported once, not here too.
  test('leaves empty default and const to the invalid-value check', () => {
    const yaml = `${HEAD}schemas:
  A: { type: string, default: , description: Some text }
  D: { type: [string, integer], const: , description: Fixed }
`;
    expect(findings(yaml)).toEqual([]);
  });

  test('is configured like every rule', () => {
    const yaml = `${HEAD}schemas:\n  A: { type: string, desciption: x }\n`;
    expect(findings(yaml, { 'unknown-schema-keys': 'error' })).toEqual([
      '4:22 error key `desciption` of schema `A` is not a JSON Schema keyword; did you mean `description`? | clients ignore `desciption`: rename it to `description` (or prefix it with `x-` if it is your own annotation)',
    ]);
    expect(findings(yaml, { 'unknown-schema-keys': 'off' })).toEqual([]);
    expect(
      findings(
        `${HEAD}lint: { rules: { unknown-schema-keys: off } }\nschemas:\n  A: { type: string, desciption: x }\n`,
      ),
    ).toEqual([]);
  });
});
