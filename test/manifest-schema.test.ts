/**
 * schemas/manifest.v1.json is a published contract: editors use it for completion and
 * hover, the validator for errors, cli/manifest/types.ts for the pipeline's types. These tests keep
 * those three in step and the schema itself tidy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../cli/load/load.js';
import { Codes } from '../cli/manifest/codes.js';
import { API_DEFAULTS, HTTP_DEFAULTS, TASK_DEFAULTS } from '../cli/manifest/defaults.js';
import { PATTERN_WORDS } from '../cli/validate/schema/messages.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { renderManifestTypes, typesFile } from '../scripts/manifest-types.mjs';
// @ts-expect-error: a plain .mjs script without type declarations

type Obj = Record<string, unknown>;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/manifest.v1.json'), 'utf8')) as Obj;
const defs = schema.$defs as Record<string, Obj>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every schema node (not the maps holding them) with its JSON pointer. */
function nodes(node: unknown, pointer = ''): [string, Obj][] {
  if (!isObj(node)) return [];
  const out: [string, Obj][] = [[pointer, node]];
  const esc = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const k of ['properties', '$defs']) {
    for (const [name, sub] of Object.entries((node[k] as Obj | undefined) ?? {}))
      out.push(...nodes(sub, `${pointer}/${k}/${esc(name)}`));
  }
  for (const k of ['items', 'additionalProperties', 'propertyNames']) out.push(...nodes(node[k], `${pointer}/${k}`));
  for (const k of ['anyOf', 'oneOf']) {
    if (Array.isArray(node[k]))
      (node[k] as unknown[]).forEach((sub, i) => out.push(...nodes(sub, `${pointer}/${k}/${i}`)));
  }
  return out;
}

function deref(node: Obj): Obj {
  const ref = node.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? deref(defs[ref.slice(8)]!) : node;
}

test('cli/manifest/types.ts is generated from the current schema', async () => {
  const fresh = (await renderManifestTypes()) as string;
  expect(fs.readFileSync(typesFile as string, 'utf8'), 'run: node scripts/manifest-types.mjs').toBe(fresh);
});

describe('schema', () => {
  test('identifies itself', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://mcpgen.dev/schemas/manifest.v1.json');
    expect(schema.title).toEqual(expect.any(String));
  });

  test('compiles in ajv strict mode (no unknown keywords, no ambiguous types)', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true }); // strictRequired flags the oneOf-of-required idiom
    (addFormatsImport as unknown as { default: (a: unknown) => void }).default(ajv);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  test('every property has a description (its own or its $ref target’s)', () => {
    const missing: string[] = [];
    for (const [pointer, node] of nodes(schema)) {
      if (!isObj(node.properties)) continue;
      for (const [name, prop] of Object.entries(node.properties as Record<string, Obj>)) {
        if (typeof prop.description !== 'string' && typeof deref(prop).description !== 'string')
          missing.push(`${pointer}/properties/${name}`);
      }
      if (isObj(node.propertyNames) && typeof node.propertyNames.description !== 'string')
        missing.push(`${pointer}/propertyNames`);
    }
    expect(missing).toEqual([]);
  });

  // MCP's own open objects stay open: real servers put vendor keys there (lint vendor-keys).
  const OPEN_IN_MCP = ['/$defs/Icon', '/$defs/PromptArgument', '/$defs/ResourceAnnotations', '/$defs/ToolAnnotations'];
  test("every mcpgen object is closed (additionalProperties: false), MCP's open ones open", () => {
    const open = nodes(schema)
      .filter(([, n]) => isObj(n.properties) && n.additionalProperties !== false)
      .map(([p]) => p);
    expect(open.sort()).toEqual(OPEN_IN_MCP);
  });

  test('the type names the pipeline imports exist', () => {
    const types = fs.readFileSync(path.join(root, 'cli/manifest/types.ts'), 'utf8');
    for (const name of [
      'Manifest',
      'Server',
      'Icon',
      'Transports',
      'HttpTransport',
      'StdioTransport',
      'Options',
      'JsonSchema',
      'Meta',
      'Tool',
      'ToolAnnotations',
      'Resource',
      'ResourceAnnotations',
      'ResourceTemplate',
      'Completion',
      'Prompt',
      'PromptArgument',
      'PromptMessage',
      'MediaContent',
      'EmbeddedResource',
    ]) {
      expect(types).toMatch(new RegExp(`export (interface|type) ${name}\\b`));
    }
    expect(types).toMatch(/export interface JsonSchema \{\n\s+\[k: string\]: unknown;\n\}/);
  });

  test('every pattern has words for error messages', () => {
    const patterns = nodes(schema)
      .map(([, n]) => n.pattern)
      .filter((p): p is string => typeof p === 'string');
    expect(patterns.filter((p) => !(p in PATTERN_WORDS))).toEqual([]);
  });

  test('defaults and examples are valid values of their own property', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormatsImport as unknown as { default: (a: unknown) => void }).default(ajv);
    ajv.addSchema(schema);
    const bad: string[] = [];
    for (const [pointer, node] of nodes(schema)) {
      const values = [
        ...('default' in node ? [node.default] : []),
        ...(Array.isArray(node.examples) ? node.examples : []),
      ];
      if (values.length === 0 || pointer === '') continue;
      const validate = ajv.getSchema(`${schema.$id as string}#${pointer}`)!;
      for (const v of values)
        if (!validate(v)) bad.push(`${pointer}: ${JSON.stringify(v)} ${ajv.errorsText(validate.errors)}`);
    }
    expect(bad).toEqual([]);
  });
});

test('the valid fixtures together use every property of the schema', () => {
  const expected = new Set<string>();
  for (const name of Object.keys(schema.properties as Obj)) expected.add(`Manifest.${name}`);
  for (const [def, node] of Object.entries(defs))
    for (const name of Object.keys((node.properties as Obj | undefined) ?? {})) expected.add(`${def}.${name}`);

  const covered = new Set<string>();
  const cover = (node: Obj, data: unknown, where: string): void => {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
      cover(defs[ref.slice(8)]!, data, ref.slice(8));
      return;
    }
    const props = (node.properties as Record<string, Obj> | undefined) ?? {};
    if (isObj(data)) {
      for (const [k, v] of Object.entries(data)) {
        if (props[k]) {
          covered.add(`${where}.${k}`);
          cover(props[k], v, `${where}.${k}`);
        } else if (isObj(node.additionalProperties)) cover(node.additionalProperties, v, `${where}.*`);
      }
    }
    if (Array.isArray(data) && isObj(node.items)) for (const item of data) cover(node.items, item, `${where}[]`);
    for (const k of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(node[k])) for (const b of node[k] as Obj[]) cover(b, data, where);
  };
  const dir = path.join(root, 'test/fixtures/valid');
  for (const name of fs.readdirSync(dir)) {
    const { manifest } = loadManifest(path.join(dir, name, 'mcpgen.yaml'));
    cover(schema, manifest!.data, 'Manifest');
  }
  expect([...expected].filter((e) => !covered.has(e)).sort()).toEqual([]);
});

test('docs/manifest-diagnostics.md lists every diagnostic code, each once in the registry', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/manifest-diagnostics.md'), 'utf8');
  const codes = Object.values(Codes);
  expect(new Set(codes).size).toBe(codes.length);
  expect(codes.filter((c) => !doc.includes(`| ${c} |`))).toEqual([]);
});

describe('defaults', () => {
  test("cli/manifest/defaults.ts says what the schema's `default`s say", () => {
    const defs = (schema as { $defs: Record<string, { properties: Record<string, { default?: unknown }> }> }).$defs;
    const http = defs.HttpTransport!.properties;
    expect({
      host: http.host!.default,
      port: http.port!.default,
      path: http.path!.default,
      maxBodyBytes: http.maxBodyBytes!.default,
      tokensEnv: (
        http.auth as unknown as { properties: { bearer: { properties: { tokensEnv: { default: unknown } } } } }
      ).properties.bearer.properties.tokensEnv.default,
      sse: {
        path: defs.SseTransport!.properties.path!.default,
        messagesPath: defs.SseTransport!.properties.messagesPath!.default,
      },
    }).toEqual(HTTP_DEFAULTS);
    const execution = defs.ToolExecution!.properties;
    expect({ ttlMs: execution.ttlMs!.default, pollIntervalMs: execution.pollIntervalMs!.default }).toEqual(
      TASK_DEFAULTS,
    );
    expect({ timeoutMs: defs.Api!.properties.timeoutMs!.default }).toEqual(API_DEFAULTS);
  });
});
