/**
 * Names a plain object inherits (`constructor`, `toString`, `valueOf`, `hasOwnProperty`,
 * `__proto__`…) as tool, resource, template, prompt, property, argument, variable and placeholder
 * names: the generated project compiles, passes its own tests, and a real client over stdio sees
 * and calls every entry as a name only (no "already registered", no inherited value read as sent).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { buildFiles } from '../cli/build.js';
import { loadManifest } from '../cli/load/index.js';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, run, scratch } from './helpers/project.js';

/** Handlers that answer with what they were given, so the test sees what reached them. */
const HANDLERS: Record<string, string> = {
  'src/handlers/tools/hasOwnProperty.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['hasOwnProperty'] = async (input) =>
  JSON.stringify({ keys: Object.keys(input), constructor: input.constructor ?? 'absent', toString: input.toString ?? 'absent' });
`,
  'src/handlers/tools/toString.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['toString'] = async () => ({ valueOf: 'v', isPrototypeOf: true });
`,
  'src/handlers/tools/constructor.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['constructor'] = async () => 'made';
`,
  'src/handlers/resources/propertyIsEnumerable.ts': `import type { ResourceHandlers } from '../../generated/handlers.js';
export const read: ResourceHandlers['propertyIsEnumerable'] = async () => 'dynamic text';
`,
  'src/handlers/templates/valueOf.ts': `import type { TemplateHandlers } from '../../generated/handlers.js';
export const read: TemplateHandlers['valueOf']['read'] = async (params) =>
  \`item \${params.constructor} \${params.toString ?? 'absent'}\`;
`,
  'src/handlers/prompts/valueOf.ts': `import type { PromptHandlers } from '../../generated/handlers.js';
export const get: PromptHandlers['valueOf']['get'] = async (args) => \`value \${args.hasOwnProperty ?? 'absent'}\`;
export const complete: PromptHandlers['valueOf']['complete'] = {
  hasOwnProperty: async (value) => ['one', 'two'].filter((v) => v.startsWith(value)),
};
`,
};

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

describe('prototype-names end to end', () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = scratch('prototype-names', path.join(REPO, 'test/cases/prototype-names'));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    write(dir, HANDLERS);
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    client = await connectStdio(dir);
  }, 180_000);
  afterAll(async () => client?.close());

  it('passes its own tests (contract over both transports and eras, handler tests)', async () => {
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
  }, 180_000);

  it('lists every entry', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      '__defineGetter__',
      'constructor',
      'hasOwnProperty',
      'toString',
    ]);
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual([
      'isPrototypeOf',
      'propertyIsEnumerable',
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(['valueOf']);
    const prompts = (await client.listPrompts()).prompts;
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])).toEqual([
      ['toLocaleString', ['toString', 'constructor', 'valueOf']],
      ['valueOf', ['hasOwnProperty']],
    ]);
  });

  it('calls a tool with and without its optional `constructor` and `toString`', async () => {
    expect(JSON.parse(text(await client.callTool({ name: 'hasOwnProperty', arguments: { value: 'v' } })))).toEqual({
      keys: ['value'],
      constructor: 'absent',
      toString: 'absent',
    });
    expect(
      JSON.parse(
        text(
          await client.callTool({ name: 'hasOwnProperty', arguments: { value: 'v', constructor: 'C', toString: 3 } }),
        ),
      ),
    ).toEqual({
      keys: ['value', 'constructor', 'toString'],
      constructor: 'C',
      toString: 3,
    });
    // Still validated: a wrong type is rejected, an unknown key too (additionalProperties: false).
    const wrong = await client.callTool({ name: 'hasOwnProperty', arguments: { value: 'v', constructor: 1 } });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toMatch(/validation/i);
    expect(text(await client.callTool({ name: 'constructor', arguments: {} }))).toBe('made');
    const out = await client.callTool({ name: 'toString', arguments: {} });
    expect(out.isError, text(out)).toBeFalsy();
    expect(out.structuredContent).toEqual({ valueOf: 'v', isPrototypeOf: true });
  });

  it('reads the resources and the template', async () => {
    expect((await client.readResource({ uri: 'proto://static' })).contents).toEqual([
      { uri: 'proto://static', mimeType: 'text/plain', text: 'static text' },
    ]);
    expect((await client.readResource({ uri: 'proto://dynamic' })).contents[0]).toMatchObject({ text: 'dynamic text' });
    // (The SDK matches a `{?query}` only when the URI has it.)
    expect((await client.readResource({ uri: 'proto://items/abc?toString=x' })).contents[0]).toMatchObject({
      text: 'item abc x',
    });
    await expect(client.readResource({ uri: 'proto://items/ABC?toString=x' })).rejects.toThrow(/Invalid resource URI/);
  });

  it('renders the declarative prompt: inherited placeholder names are arguments, or empty', async () => {
    const got = await client.getPrompt({ name: 'toLocaleString', arguments: { toString: 'cats' } });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Tell me about cats [] in a plain tone' } },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'proto://static', mimeType: 'text/plain', text: 'About cats []' },
        },
      },
    ]);
    const all = await client.getPrompt({
      name: 'toLocaleString',
      arguments: { toString: 'dogs', constructor: 'big', valueOf: 'warm' },
    });
    expect((all.messages[0]!.content as { text: string }).text).toBe('Tell me about dogs [big] in a warm tone');
    expect((await client.getPrompt({ name: 'valueOf', arguments: {} })).messages[0]!.content).toEqual({
      type: 'text',
      text: 'value absent',
    });
    expect(
      (await client.getPrompt({ name: 'valueOf', arguments: { hasOwnProperty: 'h' } })).messages[0]!.content,
    ).toEqual({ type: 'text', text: 'value h' });
  });

  it('completes by argument name, and an argument without a completer completes to nothing', async () => {
    const complete = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value = '',
    ) => (await client.complete({ ref, argument: { name, value } })).completion.values;
    expect(await complete({ type: 'ref/prompt', name: 'toLocaleString' }, 'toString', 'c')).toEqual(['cats']);
    expect(await complete({ type: 'ref/prompt', name: 'toLocaleString' }, 'constructor')).toEqual([]);
    expect(await complete({ type: 'ref/prompt', name: 'valueOf' }, 'hasOwnProperty', 't')).toEqual(['two']);
    expect(
      await complete({ type: 'ref/resource', uri: 'proto://items/{constructor}{?toString}' }, 'constructor', 'b'),
    ).toEqual(['beta']);
    expect(await complete({ type: 'ref/resource', uri: 'proto://items/{constructor}{?toString}' }, 'toString')).toEqual(
      [],
    );
  });
});

/**
 * `__proto__` as an own key of the manifest data (JSON.parse makes one; the YAML loader is checked
 * apart): every downstream stage keeps it an entry, never a prototype. The SDK itself drops a
 * `__proto__` key from request arguments and URI variables (its parsers assign into plain objects),
 * so only what the generated code controls is checked: listing, calling and rendering by that name.
 */
describe('__proto__ names (JSON-built manifest) end to end', () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = scratch('proto-key');
    const yaml = `version: 1
server: { name: proto-key, version: 1.0.0 }
transports: { stdio: {} }
tools: { plain: { description: A tool with an ordinary name } }
`;
    writeFileSync(path.join(dir, 'mcpgen.yaml'), yaml);
    const { manifest } = loadManifest(path.join(dir, 'mcpgen.yaml'));
    manifest!.data = JSON.parse(`{
      "version": 1,
      "server": { "name": "proto-key", "version": "1.0.0" },
      "transports": { "stdio": {} },
      "tools": {
        "__proto__": { "description": "A tool named __proto__", "input": { "type": "object", "properties": { "__proto__": { "type": "string" }, "x": { "type": "string" } } } },
        "plain": { "description": "A tool with an ordinary name" }
      },
      "resourceTemplates": {
        "__proto__": { "uriTemplate": "proto://p/{id}", "params": { "id": { "type": "string" } }, "complete": { "id": ["q1", "q2"] } }
      },
      "prompts": {
        "__proto__": { "description": "A prompt named __proto__", "arguments": { "__proto__": { "description": "An argument named __proto__" }, "other": { "description": "Another argument", "default": "d" } }, "messages": [{ "role": "user", "text": "P [{{__proto__}}] {{other}}" }] }
      }
    }`);
    const built = await buildFiles(manifest!, {
      manifest: path.join(dir, 'mcpgen.yaml'),
      outDir: dir,
      generatorVersion: null,
    });
    expect(built.diagnostics).toEqual([]);
    write(dir, Object.fromEntries(built.files!.map((f) => [f.path, f.content])));
    write(dir, {
      'src/handlers/tools/__proto__.ts': `import type { ToolHandlers } from '../../generated/handlers.js';
export const handler: ToolHandlers['__proto__'] = async (input) => \`proto \${input.x ?? 'absent'}\`;
`,
      'src/handlers/templates/__proto__.ts': `import type { TemplateHandlers } from '../../generated/handlers.js';
export const read: TemplateHandlers['__proto__']['read'] = async (params) => \`p \${params.id}\`;
`,
    });
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    client = await connectStdio(dir);
  }, 180_000);
  afterAll(async () => client?.close());

  it('generates `__proto__` members as computed keys, never as prototypes', async () => {
    const { readFileSync } = await import('node:fs');
    const server = readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8');
    expect(server).toContain("['__proto__']: (server: McpServer) =>");
    expect(server).not.toMatch(/^\s*(__proto__|'__proto__'|"__proto__"):/m);
    const schemas = readFileSync(path.join(dir, 'src/generated/schemas.ts'), 'utf8');
    expect(schemas).toContain("properties: { ['__proto__']: { type: 'string' }, x: { type: 'string' } }");
  });

  it('lists, calls, reads and renders the entries named __proto__', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['__proto__', 'plain']);
    expect(text(await client.callTool({ name: '__proto__', arguments: { x: 'v' } }))).toBe('proto v');
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(['__proto__']);
    expect((await client.readResource({ uri: 'proto://p/abc' })).contents[0]).toMatchObject({ text: 'p abc' });
    expect(
      (
        await client.complete({
          ref: { type: 'ref/resource', uri: 'proto://p/{id}' },
          argument: { name: 'id', value: 'q' },
        })
      ).completion.values,
    ).toEqual(['q1', 'q2']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['__proto__']);
    const got = await client.getPrompt({ name: '__proto__', arguments: {} });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'P [] d' });
  });
});

/**
 * Every inherited name at once, as tools and prompts: server.ts's `Named<…>` unions are too wide
 * for a declaration's head and are declared as type aliases; the project still compiles and serves.
 */
describe('every inherited name at once end to end', () => {
  let dir: string;
  let client: Client;
  const NAMES = [
    '__defineGetter__',
    '__defineSetter__',
    '__lookupGetter__',
    '__lookupSetter__',
    'constructor',
    'hasOwnProperty',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
    'toString',
    'valueOf',
  ];

  beforeAll(async () => {
    dir = scratch('prototype-names-all', path.join(REPO, 'test/cases/prototype-names-all'));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    client = await connectStdio(dir);
  }, 180_000);
  afterAll(async () => client?.close());

  it('lists every tool and prompt, and renders each prompt by its name', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(NAMES);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(NAMES);
    for (const name of NAMES) {
      const got = await client.getPrompt({ name, arguments: { topic: name } });
      expect(got.messages[0]!.content, name).toEqual({ type: 'text', text: `About ${name}` });
    }
  });
});
