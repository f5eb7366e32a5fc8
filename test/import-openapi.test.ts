/**
 * `mcpgen import openapi`: the mapping from operations to tools (3.0 and 3.1 documents, refs,
 * nullable, readOnly/writeOnly, security schemes), the merge on re-import (user edits and comments
 * kept, unedited entries updated or removed, other entries never touched), and the CLI's errors
 * at file:line. Imported manifests must validate.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli/main.js';
import { pathMatches, snake, toolName } from '../cli/import/openapi/operations.js';
import { checkManifestFile } from '../cli/mcp/check-manifest.js';
import { memoryIO, REPO, scratch } from './helpers/project.js';

const PETSTORE = readFileSync(path.join(import.meta.dirname, 'fixtures/openapi/petstore-3.0.yaml'), 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML and JSON results, read field by field in assertions
type Obj = Record<string, any>;

async function importInto(dir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO(dir);
  const code = await runCli(['import', 'openapi', ...args], io);
  return { code, out: io.out, err: io.err };
}

function manifest(dir: string): Obj {
  return parse(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8'));
}

function valid(dir: string): void {
  const checked = checkManifestFile(path.join(dir, 'mcpgen.yaml'), 'mcpgen.yaml');
  expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
}

describe('mapping an OpenAPI 3.0 document', () => {
  const dir = scratch('import-openapi-30');
  writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);

  it('writes a new manifest with the server, the api and a tool per operation', async () => {
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('6 added');
    const m = manifest(dir);
    expect(m.server).toEqual({
      name: 'Swagger Petstore',
      package: 'swagger-petstore-mcp',
      version: '1.0.0',
      description: 'A sample pet store.',
    });
    expect(m.apis).toEqual({
      petstore: {
        baseUrl: { env: 'PETSTORE_URL', default: 'https://eu.petstore.example.com/v1' },
        auth: { type: 'bearer', env: 'PETSTORE_TOKEN' },
      },
    });
    expect(Object.keys(m.tools)).toEqual([
      'list_pets',
      'create_pet',
      'show_pet_by_id',
      'replace_pet',
      'delete_pet',
      'get_inventory',
    ]);
    valid(dir);
  });

  it('places parameters: path in the template, query listed, headers by name', () => {
    const t = manifest(dir).tools.list_pets;
    expect(t.http).toEqual({
      api: 'petstore',
      method: 'GET',
      path: '/pets',
      query: ['limit'],
      headers: { 'X-Request-Id': 'x_request_id' },
    });
    expect(t.input.properties.limit).toEqual({
      type: 'integer',
      format: 'int32',
      maximum: 100,
      description: 'How many items to return at one time (max 100)',
    });
    expect(t.annotations).toEqual({ readOnlyHint: true });
    // A path item's shared parameter (a $ref to components.parameters) reaches every operation.
    const show = manifest(dir).tools.show_pet_by_id;
    expect(show.input.required).toEqual(['petId']);
    expect(show.input.properties.petId.description).toBe('The id of the pet to retrieve');
  });

  it("flattens an object body into the tool's arguments, without readOnly properties", () => {
    const t = manifest(dir).tools.create_pet;
    expect(t.http).toEqual({
      api: 'petstore',
      method: 'POST',
      path: '/pets',
      body: ['name', 'tag', 'status', 'owner', 'secret'],
    });
    expect(Object.keys(t.input.properties)).not.toContain('id');
    expect(t.input.required).toEqual(['name']);
    expect(manifest(dir).tools.replace_pet.annotations).toEqual({ idempotentHint: true });
    expect(manifest(dir).tools.delete_pet.annotations).toEqual({ destructiveHint: true });
  });

  it('writes outputs without writeOnly properties, and converts nullable, example and exclusiveMinimum', () => {
    const m = manifest(dir);
    const out = m.tools.show_pet_by_id.output;
    expect(out.type).toBe('object');
    expect(Object.keys(out.properties)).not.toContain('secret');
    expect(out.properties.tag).toEqual({ type: ['string', 'null'] });
    expect(out.properties.status).toEqual({ type: ['string', 'null'], enum: ['available', 'sold', null] });
    expect(out.properties.name).toEqual({ type: 'string', examples: ['Rex'] });
    expect(m.schemas.Owner.properties.age).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    // Shared components become shared schemas; xml is dropped.
    expect(m.tools.list_pets.output.properties.items.items).toEqual({ $ref: '#/schemas/Pet' });
    expect(m.schemas.Pet.xml).toBeUndefined();
    expect(m.tools.get_inventory.output).toEqual({ type: 'object', additionalProperties: { type: 'integer' } });
    expect(m.tools.delete_pet.output).toBeUndefined();
  });

  it('marks every entry with its operation and a digest', () => {
    const mark = manifest(dir).tools.list_pets.imported;
    expect(mark.from).toBe('openapi.yaml');
    expect(mark.operation).toBe('listPets');
    expect(mark.digest).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a second import of the same document changes nothing', async () => {
    const before = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('0 added, 0 updated, 0 kept (edited), 0 removed, 0 skipped, 6 unchanged');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(before);
  });
});

describe('the golden case', () => {
  it('test/cases/openapi-petstore is what the importer writes today (a re-import there changes nothing)', async () => {
    const dir = scratch('import-openapi-golden');
    const text = readFileSync(path.join(import.meta.dirname, 'cases/openapi-petstore/mcpgen.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.out).toContain('0 added, 0 updated, 0 kept (edited), 0 removed, 0 skipped, 6 unchanged');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(text);
  });
});

describe('an OpenAPI 3.1 document', () => {
  it('keeps 2020-12 schemas, maps apiKey and basic auth, names operations without an id by method and path', async () => {
    const dir = scratch('import-openapi-31');
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Notes API', version: '2.0' },
      servers: [{ url: 'https://notes.example.com/' }],
      security: [{ key: [] }],
      components: {
        securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
        schemas: {
          'note-item': {
            type: 'object',
            properties: {
              id: { type: 'string' },
              text: { type: ['string', 'null'] },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['id'],
          },
        },
      },
      paths: {
        '/notes/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/note-item' } } },
              },
            },
          },
          patch: {
            operationId: 'notes/update-note',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
            responses: { '204': { description: 'done' } },
          },
        },
      },
    };
    writeFileSync(path.join(dir, 'notes.json'), JSON.stringify(doc, null, 2));
    const r = await importInto(dir, ['notes.json', '--api', 'notes']);
    expect(r.code, r.err).toBe(0);
    const m = manifest(dir);
    expect(m.apis.notes).toEqual({
      baseUrl: { env: 'NOTES_URL', default: 'https://notes.example.com' },
      auth: { type: 'apiKey', in: 'header', name: 'X-API-Key', env: 'NOTES_KEY' },
    });
    expect(Object.keys(m.tools)).toEqual(['get_notes_by_id', 'notes_update_note']);
    expect(m.tools.get_notes_by_id.output.properties.text).toEqual({ type: ['string', 'null'] });
    // A body that is no object stays one argument.
    expect(m.tools.notes_update_note.http).toEqual({
      api: 'notes',
      method: 'PATCH',
      path: '/notes/{id}',
      body: 'body',
    });
    valid(dir);
  });

  it('maps basic auth to two variables', async () => {
    const dir = scratch('import-openapi-basic');
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Legacy', version: '1.0.0' },
      components: { securitySchemes: { b: { type: 'http', scheme: 'basic' } } },
      paths: { '/ping': { get: { operationId: 'ping', responses: { '204': { description: 'pong' } } } } },
    };
    writeFileSync(path.join(dir, 'legacy.json'), JSON.stringify(doc));
    expect((await importInto(dir, ['legacy.json'])).code).toBe(0);
    expect(manifest(dir).apis.legacy.auth).toEqual({
      type: 'basic',
      usernameEnv: 'LEGACY_USER',
      passwordEnv: 'LEGACY_PASSWORD',
    });
  });
});

describe('several documents and files', () => {
  it('two APIs in one manifest: each tool names its api, each document its own marks', async () => {
    const dir = scratch('import-openapi-two');
    writeFileSync(path.join(dir, 'pets.yaml'), PETSTORE);
    writeFileSync(
      path.join(dir, 'weather.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Weather', version: '1.0.0' },
        servers: [{ url: 'https://weather.example.com' }],
        components: { securitySchemes: { k: { type: 'apiKey', in: 'query', name: 'appid' } } },
        paths: {
          '/now': {
            get: { operationId: 'now', summary: 'Weather right now', responses: { '200': { description: 'ok' } } },
          },
        },
      }),
    );
    expect((await importInto(dir, ['pets.yaml', '--tag', 'store'])).code).toBe(0);
    expect((await importInto(dir, ['weather.json'])).code).toBe(0);
    const m = manifest(dir);
    expect(Object.keys(m.apis)).toEqual(['petstore', 'weather']);
    expect(m.apis.weather.auth).toEqual({ type: 'apiKey', in: 'query', name: 'appid', env: 'WEATHER_KEY' });
    expect(m.tools.now.http.api).toBe('weather');
    expect(m.tools.get_inventory.http.api).toBe('petstore');
    // Re-importing one document leaves the other's entries alone.
    expect((await importInto(dir, ['weather.json'])).out).toContain('0 removed, 0 skipped, 1 unchanged');
    valid(dir);
  });

  it('refs into another local file are bundled in', async () => {
    const dir = scratch('import-openapi-external');
    writeFileSync(
      path.join(dir, 'api.yaml'),
      `openapi: 3.1.0
info: { title: Things, version: 1.0.0 }
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: './schemas.yaml#/Thing' } } }
`,
    );
    writeFileSync(
      path.join(dir, 'schemas.yaml'),
      'Thing:\n  type: object\n  properties:\n    id: { type: string }\n    part: { $ref: "#/Part" }\nPart:\n  type: object\n  properties: { name: { type: string } }\n',
    );
    expect((await importInto(dir, ['api.yaml'])).code).toBe(0);
    expect(manifest(dir).tools.get_thing.output.properties.part).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    valid(dir);
  });
});

describe('filters and names', () => {
  it('--tag, --path, --operation and --rename select and name the tools', async () => {
    const dir = scratch('import-openapi-filters');
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    await importInto(dir, ['openapi.yaml', '--tag', 'store', '--rename', 'prefix:shop_']);
    expect(Object.keys(manifest(dir).tools)).toEqual(['shop_get_inventory']);
    await importInto(dir, [
      'openapi.yaml',
      '--path',
      '/pets/*',
      '--operation',
      'deletePet',
      '--rename',
      'deletePet=remove_pet',
    ]);
    expect(Object.keys(manifest(dir).tools)).toEqual(['shop_get_inventory', 'remove_pet']);
  });

  it('snake_case names, path globs and prefixes', () => {
    expect(snake('getPetById')).toBe('get_pet_by_id');
    expect(snake('repos/get-content')).toBe('repos_get_content');
    expect(snake('listHTTPRoutes')).toBe('list_http_routes');
    expect(toolName('get /a/{id}', 'get', '/a/{id}', [])).toBe('get_a_by_id');
    expect(toolName('repos/get', 'get', '/x', [{ strip: 'repos/' }])).toBe('get');
    expect(toolName('x'.repeat(100), 'get', '/x', []).length).toBe(64);
    expect(pathMatches('/pets', '/pets/{petId}')).toBe(true);
    expect(pathMatches('/pets', '/petshop')).toBe(false);
    expect(pathMatches('/repos/*/*/issues', '/repos/{owner}/{repo}/issues')).toBe(true);
    expect(pathMatches('/repos/**', '/repos/{owner}/{repo}/issues/{n}')).toBe(true);
  });
});

describe('re-import', () => {
  const userManifest = `# My server: comments are kept
version: 1
server: { name: pets, version: 0.1.0 }

tools:
  # A tool of mine, never touched
  hello:
    description: Says hello to someone
    input: { type: object, properties: { who: { type: string, description: Who to greet } } }
`;

  it("keeps comments and the user's entries, updates unedited entries, keeps edited ones, removes gone operations", async () => {
    const dir = scratch('import-openapi-merge');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), userManifest);
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    expect((await importInto(dir, ['openapi.yaml'])).code).toBe(0);
    let text = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    expect(text.startsWith('# My server: comments are kept\n')).toBe(true);
    expect(text).toContain('  # A tool of mine, never touched\n  hello:\n');
    expect(text).toContain('server: { name: pets, version: 0.1.0 }');

    // The user edits one entry's description and adds a comment to another.
    text = text.replace('description: List all pets', 'description: Lists the pets in the shop, 20 a page');
    text = text.replace('  delete_pet:\n', '  # careful: no undo\n  delete_pet:\n');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);

    // The API changes: list_pets and create_pet get new descriptions, getInventory goes away.
    const changed = PETSTORE.replace('summary: List all pets', 'summary: List every pet')
      .replace('summary: Create a pet', 'summary: Create a pet in the store')
      .replace(/\n {2}\/stores\/\{storeId\}\/inventory:[\s\S]*?(?=\ncomponents:)/, '');
    writeFileSync(path.join(dir, 'openapi.yaml'), changed);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/kept +list_pets +\(edited\)/);
    expect(r.out).toMatch(/updated +create_pet/);
    expect(r.out).toMatch(/removed +get_inventory/);
    expect(r.out).toContain('0 added, 1 updated, 1 kept (edited), 1 removed, 0 skipped, 3 unchanged');
    const after = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    const m = parse(after);
    expect(m.tools.list_pets.description).toBe('Lists the pets in the shop, 20 a page');
    expect(m.tools.create_pet.description).toBe('Create a pet in the store');
    expect(m.tools.get_inventory).toBeUndefined();
    expect(m.tools.hello).toEqual({
      description: 'Says hello to someone',
      input: { type: 'object', properties: { who: { type: 'string', description: 'Who to greet' } } },
    });
    expect(after).toContain('# careful: no undo\n  delete_pet:');
    expect(after.startsWith('# My server: comments are kept\n')).toBe(true);
    valid(dir);
  });

  it('an edit to a shared schema keeps the schema and the entries using it', async () => {
    const dir = scratch('import-openapi-merge-schema');
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    await importInto(dir, ['openapi.yaml']);
    const text = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8').replace(
      'age: { type: integer, exclusiveMinimum: 0 }',
      'age: { type: integer, exclusiveMinimum: 0, maximum: 40 }',
    );
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('name: { type: string }\n        age', 'name: { type: string, minLength: 1 }\n        age'),
    );
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.out).toMatch(/kept +create_pet +\(edited\)/);
    expect(manifest(dir).schemas.Owner.properties.age.maximum).toBe(40);
    expect(manifest(dir).schemas.Owner.properties.name).toEqual({ type: 'string' });
  });

  it('an entry whose mark the user deleted is theirs: never updated or removed again', async () => {
    const dir = scratch('import-openapi-adopted');
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    await importInto(dir, ['openapi.yaml', '--tag', 'store']);
    const text = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8').replace(/\n {4}imported:\n( {6}.*\n){3}/, '\n');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('operationId: getInventory', 'operationId: getInventory\n      summary: Stock by status'),
    );
    const r = await importInto(dir, ['openapi.yaml', '--tag', 'store']);
    expect(r.out).toMatch(/skipped +get_inventory +\(an entry of yours/);
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(text);
  });

  it("a name taken by the user's own tool is skipped, --dry-run writes nothing, --json reports", async () => {
    const dir = scratch('import-openapi-taken');
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      'version: 1\nserver: { name: pets, version: 0.1.0 }\ntools:\n  list_pets: { description: My own list of pets }\n',
    );
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    const before = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    const dry = await importInto(dir, ['openapi.yaml', '--dry-run']);
    expect(dry.out).toMatch(
      /skipped +list_pets +\(an entry of yours has the name; --rename imports it under another\)/,
    );
    expect(dry.out).toContain('dry run, nothing written');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(before);
    const json = await importInto(dir, ['openapi.yaml', '--json']);
    const envelope = JSON.parse(json.out);
    expect(envelope.command).toBe('import');
    expect(envelope.ok).toBe(true);
    expect(envelope.import.counts).toMatchObject({ added: 5, skipped: 1 });
    expect(envelope.changes).toEqual([{ action: 'edit', path: 'mcpgen.yaml', owner: 'user', from: null }]);
    expect(manifest(dir).tools.list_pets).toEqual({ description: 'My own list of pets' });
  });
});

describe('an import that would break the manifest', () => {
  it('is refused with the errors, nothing written, exit 1', async () => {
    const dir = scratch('import-openapi-refused');
    const text =
      'version: 1\nserver: { name: pets, version: 0.1.0 }\ntools:\n  list-pets: { description: My own list of pets }\n';
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'error MCPG270 tool `list_pets` and tool `list-pets` both become the identifier `listPets`',
    );
    // The line is the merged text's, never written: said so, with the entry's path.
    expect(r.err).toContain('mcpgen.yaml:5:3 (in the merged result) at /tools/list_pets: error MCPG270');
    expect(r.err).toContain('would not validate (1 error); nothing was written');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(text);
    // Named otherwise, it goes in.
    expect((await importInto(dir, ['openapi.yaml', '--rename', 'listPets=list_all_pets'])).code).toBe(0);
    expect(Object.keys(manifest(dir).tools)).toContain('list_all_pets');
  });
});

describe('errors', () => {
  const dir = scratch('import-openapi-errors');
  mkdirSync(dir, { recursive: true });
  const cases: [string, string, RegExp][] = [
    [
      'broken.yaml',
      'openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\n',
      /^mcpgen: broken\.yaml:3: not valid YAML: Nested mappings are not allowed in compact mappings\n$/,
    ],
    ['broken.json', '{\n  "openapi": "3.0.3",\n  "info": {\n}}}\n', /^mcpgen: broken\.json:4: not valid JSON/],
    [
      'missing-ref.yaml',
      'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: "#/components/schemas/Nope" }\n',
      /^mcpgen: missing-ref\.yaml:11: Missing \$ref pointer "#\/components\/schemas\/Nope"/,
    ],
    [
      'not-required.yaml',
      'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths:\n  /a/{id}:\n    get:\n      parameters:\n        - name: id\n          in: path\n          schema: { type: string }\n      responses: { "200": { description: ok } }\n',
      /^mcpgen: not-required\.yaml:7: .*required/,
    ],
    [
      'swagger.yaml',
      'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths: {}\n',
      /^mcpgen: swagger\.yaml:1: Swagger 2\.0 is not supported/,
    ],
    ['missing.yaml', '', /^mcpgen: nothing\.yaml: no such file/],
  ];
  for (const [file, text, expected] of cases)
    it(`${file}: one line at file:line, exit 2, no stack, nothing written`, async () => {
      if (text) writeFileSync(path.join(dir, file), text);
      const r = await importInto(dir, [text ? file : 'nothing.yaml']);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(expected);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(existsSync(path.join(dir, 'mcpgen.yaml'))).toBe(false);
    });

  it('refuses URLs and unknown formats', async () => {
    expect((await importInto(dir, ['https://example.com/openapi.json'])).err).toContain('local files only');
    const io = memoryIO(dir);
    expect(await runCli(['import', 'graphql', 'schema.graphql'], io)).toBe(2);
    expect(io.err).toContain('unknown import format');
  });
});

/** The lines of `b` that differ from `a`'s (both the same number of lines). */
function changedLines(a: string, b: string): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  expect(y.length).toBe(x.length);
  return y.filter((line, i) => line !== x[i]);
}

function read(dir: string, file = 'mcpgen.yaml'): string {
  return readFileSync(path.join(dir, file), 'utf8');
}

function petstoreIn(name: string, manifestText?: string): string {
  const dir = scratch(name);
  writeFileSync(path.join(dir, 'openapi.yaml'), PETSTORE);
  if (manifestText !== undefined) writeFileSync(path.join(dir, 'mcpgen.yaml'), manifestText);
  return dir;
}

const OWNER_EMAIL = PETSTORE.replace(
  'name: { type: string }\n        age',
  'name: { type: string }\n        email: { type: string }\n        age',
);

describe('re-import: digests and shared schemas', () => {
  it('a --tag run whose shared schema other entries hold keeps it, and no entry is left out of step with its digest', async () => {
    const dir = petstoreIn('import-merge-held');
    await importInto(dir, ['openapi.yaml']);
    // showPetById moves to the store tag, and Owner (which list_pets and others use too) grows a property.
    const spec = OWNER_EMAIL.replace(/(operationId: showPetById\n.*\n {6}tags: )\[pets\]/, '$1[store]');
    expect(spec).toContain('operationId: showPetById\n      summary: Info for a specific pet\n      tags: [store]');
    writeFileSync(path.join(dir, 'openapi.yaml'), spec);
    const first = await importInto(dir, ['openapi.yaml', '--tag', 'store']);
    expect(first.out).toContain('1 kept (Owner: referred to by entries this import leaves as they are)');
    expect(first.out).toContain('0 kept (edited)');
    const second = await importInto(dir, ['openapi.yaml', '--tag', 'store']);
    expect(second.out).toContain('0 added, 0 updated, 0 kept (edited), 0 removed, 0 skipped, 2 unchanged');
    // The whole document: Owner is updated with every entry that uses it, none is "edited".
    const full = await importInto(dir, ['openapi.yaml']);
    expect(full.out).toContain('schemas:  1 updated');
    expect(full.out).toContain('0 added, 4 updated, 0 kept (edited), 0 removed, 0 skipped, 2 unchanged');
    expect(manifest(dir).schemas.Owner.properties.email).toEqual({ type: 'string' });
    expect((await importInto(dir, ['openapi.yaml'])).out).toContain('6 unchanged');
    valid(dir);
  });

  it("the user's own schema of the same name is left alone: the import's goes under a free name", async () => {
    const mine =
      'version: 1\nserver: { name: pets, version: 0.1.0 }\nschemas:\n  Owner:\n    type: object\n    properties: { login: { type: string } }\ntools:\n  whoami:\n    description: Says who owns the shop\n    output: { $ref: "#/schemas/Owner" }\n';
    const dir = petstoreIn('import-merge-user-schema', mine);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Owner imported as Owner2');
    const m = manifest(dir);
    expect(m.schemas.Owner).toEqual({ type: 'object', properties: { login: { type: 'string' } } });
    expect(m.schemas.Owner2.properties.age).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    expect(m.schemas.Pet.properties.owner).toEqual({ $ref: '#/schemas/Owner2' });
    expect(m.tools.create_pet.input.properties.owner).toEqual({ $ref: '#/schemas/Owner2' });
    expect(read(dir)).toContain('schemas:\n  Owner:\n    type: object\n    properties: { login: { type: string } }\n');
    const again = await importInto(dir, ['openapi.yaml']);
    expect(again.out).toContain('0 added, 0 updated, 0 kept (edited), 0 removed, 0 skipped, 6 unchanged');
    valid(dir);
  });

  it("an unreferenced schema of the user's is not overwritten", async () => {
    const mine =
      'version: 1\nserver: { name: pets, version: 0.1.0 }\nschemas:\n  # for a tool I am writing\n  Owner: { type: object, properties: { login: { type: string } } }\n';
    const dir = petstoreIn('import-merge-user-schema-free', mine);
    expect((await importInto(dir, ['openapi.yaml'])).code).toBe(0);
    expect(manifest(dir).schemas.Owner).toEqual({ type: 'object', properties: { login: { type: 'string' } } });
    expect(manifest(dir).schemas.Pet.properties.owner).toEqual({ $ref: '#/schemas/Owner2' });
    valid(dir);
  });

  it("a second API's schema of the same name does not land on the first's", async () => {
    const dir = petstoreIn('import-merge-two-owners');
    writeFileSync(
      path.join(dir, 'billing.yaml'),
      `openapi: 3.0.3
info: { title: Billing, version: 1.0.0 }
servers: [ { url: https://billing.example.com } ]
paths:
  /invoices/{id}:
    get:
      operationId: getInvoice
      summary: One invoice by its id
      parameters: [ { name: id, in: path, required: true, schema: { type: string } } ]
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Invoice' } } }
components:
  schemas:
    Invoice:
      type: object
      properties:
        total: { type: number }
        owner: { $ref: '#/components/schemas/Owner' }
    Owner:
      type: object
      properties:
        accountId: { type: string }
`,
    );
    await importInto(dir, ['openapi.yaml']);
    const petsOwner = manifest(dir).schemas.Owner;
    expect((await importInto(dir, ['billing.yaml'])).code).toBe(0);
    const m = manifest(dir);
    expect(m.schemas.Owner).toEqual(petsOwner);
    expect(m.schemas.Owner2).toEqual({ type: 'object', properties: { accountId: { type: 'string' } } });
    expect(m.tools.get_invoice.output.properties.owner).toEqual({ $ref: '#/schemas/Owner2' });
    expect((await importInto(dir, ['openapi.yaml'])).out).toContain('6 unchanged');
    expect((await importInto(dir, ['billing.yaml'])).out).toContain(
      '0 kept (edited), 0 removed, 0 skipped, 1 unchanged',
    );
    valid(dir);
  });
});

describe('re-import: the text is edited, not rewritten', () => {
  const layout = `# My pets server
version: 1
server: {name: pets, version: 0.1.0}   # flow map, no inner spaces

tools:
    # A tool of mine
    hello:
        description: >-
            Says hello to someone, with a long folded
            description over two lines
        input: {type: object, properties: {who: {type: string}}}
`;

  it('keeps the layout of everything the import does not write, and writes in the section’s indentation', async () => {
    const dir = petstoreIn('import-text-layout', layout);
    expect((await importInto(dir, ['openapi.yaml'])).code).toBe(0);
    const first = read(dir);
    expect(first.startsWith(layout)).toBe(true);
    expect(first).toContain('\n    list_pets:\n        title: List all pets\n');
    valid(dir);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('summary: Delete a pet', 'summary: Delete a pet forever'),
    );
    expect((await importInto(dir, ['openapi.yaml'])).out).toContain('1 updated');
    expect(changedLines(first, read(dir))).toEqual([
      '        title: Delete a pet forever',
      '        description: Delete a pet forever',
      expect.stringMatching(/^ {12}digest: [0-9a-f]{16}$/),
    ]);
  });

  it('an updated entry takes its own trailing comments along, and leaves the next entry’s comment and spacing', async () => {
    const dir = petstoreIn('import-text-comments');
    await importInto(dir, ['openapi.yaml']);
    const at = read(dir).indexOf('  get_inventory:');
    const commented = `${read(dir).slice(0, at)}      # delete_pet's own note\n\n  # about get_inventory\n${read(dir).slice(at)}`;
    writeFileSync(path.join(dir, 'mcpgen.yaml'), commented);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('summary: Delete a pet', 'summary: Delete a pet forever'),
    );
    expect((await importInto(dir, ['openapi.yaml'])).out).toContain('1 updated');
    const after = read(dir);
    expect(after).toContain('\n\n  # about get_inventory\n  get_inventory:\n');
    expect(after).not.toContain("delete_pet's own note");
    valid(dir);
  });

  it('keeps CRLF line endings and a BOM', async () => {
    const dir = petstoreIn('import-text-crlf');
    await importInto(dir, ['openapi.yaml']);
    const crlf = `\uFEFF${read(dir).replace(/\n/g, '\r\n')}`;
    writeFileSync(path.join(dir, 'mcpgen.yaml'), crlf);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('summary: Delete a pet', 'summary: Delete a pet forever'),
    );
    expect((await importInto(dir, ['openapi.yaml'])).out).toContain('1 updated');
    const after = read(dir);
    expect(after.startsWith('\uFEFFversion: 1\r\n')).toBe(true);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(changedLines(crlf, after)).toHaveLength(3);
  });

  it('`tools:` or `schemas:` with no value is an empty section; `tools: {}` becomes a block map', async () => {
    const text = 'version: 1\nserver: { name: pets, version: 0.1.0 }\nschemas:\ntools: {}   # none yet\n';
    const dir = petstoreIn('import-text-empty', text);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    const after = read(dir);
    expect(after).toContain('\nschemas:\n  Pet:\n    type: object\n');
    expect(after).toContain('\ntools: # none yet\n  list_pets:\n    title: List all pets\n');
    valid(dir);
  });

  it('a section that is a list is refused at its line', async () => {
    const dir = petstoreIn('import-text-list', 'version: 1\nserver: { name: pets, version: 0.1.0 }\ntools: [hello]\n');
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^mcpgen: mcpgen\.yaml:3: `tools` is a list, not a mapping of entries/);
  });

  it('an entry holding an anchor another entry aliases is kept, not replaced', async () => {
    const dir = petstoreIn('import-text-anchor');
    await importInto(dir, ['openapi.yaml']);
    const petId = 'petId: { type: string, description: The id of the pet to retrieve }';
    let text = read(dir);
    const at = text.indexOf(petId, text.indexOf('  delete_pet:'));
    text = `${text.slice(0, at)}petId: &petId { type: string, description: The id of the pet to retrieve }${text.slice(at + petId.length)}`;
    text +=
      '  pet_name:\n    description: The name of a pet, by its id\n    input: { type: object, properties: { petId: *petId } }\n';
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('summary: Delete a pet', 'summary: Delete a pet forever'),
    );
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/kept +delete_pet +\(an alias elsewhere in the manifest refers to an anchor in it\)/);
    expect(read(dir)).toBe(text);
  });

  it('a manifest with more than 100 aliases is read as the loader reads it', async () => {
    const props = Array.from({ length: 120 }, (_, i) => `p${i}: *s`).join(', ');
    const text = `version: 1\nserver: { name: pets, version: 0.1.0 }\ntools:\n  hello:\n    description: Says hello to someone\n    input: { type: object, properties: { p: &s { type: string }, ${props} } }\n`;
    const dir = petstoreIn('import-text-aliases', text);
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(read(dir).startsWith(text)).toBe(true);
  });

  it('a `<<` property is written quoted (unquoted, the loader reads a merge key)', async () => {
    const dir = scratch('import-text-merge-key');
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      `openapi: 3.0.3
info: { title: Merge, version: 1.0.0 }
servers: [ { url: https://m.example.com } ]
paths:
  /diff:
    post:
      operationId: shiftLeft
      summary: Shift a value left by some bits
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { '<<': { type: integer }, value: { type: integer } } }
      responses: { '204': { description: done } }
`,
    );
    writeFileSync(path.join(dir, 'mcpgen.yaml'), 'version: 1\nserver: { name: m, version: 0.1.0 }\ntools:\n');
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.code, r.err).toBe(0);
    expect(manifest(dir).tools.shift_left.input.properties['<<']).toEqual({ type: 'integer' });
    valid(dir);
  });
});

describe('re-import: which entry is which', () => {
  it('an operationId renamed to one giving the same tool name updates the tool', async () => {
    const dir = petstoreIn('import-merge-same-key');
    await importInto(dir, ['openapi.yaml']);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('operationId: getInventory', 'operationId: get_inventory'),
    );
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.out).toMatch(/updated +get_inventory +\(was getInventory\)/);
    expect(r.out).toContain('0 added, 1 updated, 0 kept (edited), 0 removed, 0 skipped, 5 unchanged');
    expect(manifest(dir).tools.get_inventory.imported.operation).toBe('get_inventory');
  });

  it('a path item that is a $ref keeps its operations', async () => {
    const dir = scratch('import-merge-path-ref');
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      `openapi: 3.1.0
info: { title: Shop, version: 1.0.0 }
servers: [ { url: https://shop.example.com } ]
paths:
  /orders:
    $ref: '#/components/pathItems/Orders'
  /stock:
    get:
      operationId: getStock
      tags: [store]
      summary: Stock levels by item
      responses: { '200': { description: ok } }
components:
  pathItems:
    Orders:
      get:
        operationId: listOrders
        tags: [orders]
        summary: List the orders
        responses: { '200': { description: ok } }
`,
    );
    await importInto(dir, ['openapi.yaml']);
    expect(Object.keys(manifest(dir).tools)).toEqual(['list_orders', 'get_stock']);
    const r = await importInto(dir, ['openapi.yaml', '--tag', 'store']);
    expect(r.out).toContain('0 removed');
    expect(Object.keys(manifest(dir).tools)).toEqual(['list_orders', 'get_stock']);
  });

  it('a copy that kept its mark does not hide the original: each is updated or kept on its own', async () => {
    const dir = petstoreIn('import-merge-copy');
    await importInto(dir, ['openapi.yaml']);
    const text = read(dir);
    const start = text.indexOf('  show_pet_by_id:\n');
    const entry = text.slice(start, text.indexOf('  replace_pet:\n'));
    const copy = entry
      .replace('show_pet_by_id:', 'show_pet_name:')
      .replace('description: Info for a specific pet', 'description: The name of a pet, by its id');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text + copy);
    writeFileSync(
      path.join(dir, 'openapi.yaml'),
      PETSTORE.replace('summary: Info for a specific pet', 'summary: Info for one pet'),
    );
    const r = await importInto(dir, ['openapi.yaml']);
    expect(r.out).toMatch(/updated +show_pet_by_id\n/);
    expect(r.out).toMatch(/kept +show_pet_name +\(showPetById\) +\(edited\)/);
    expect(manifest(dir).tools.show_pet_by_id.description).toBe('Info for one pet');
    expect(manifest(dir).tools.show_pet_name.description).toBe('The name of a pet, by its id');
  });

  it('--rename on a re-import renames the entry it imported, or says why not', async () => {
    const dir = petstoreIn('import-merge-rename');
    await importInto(dir, ['openapi.yaml']);
    const r = await importInto(dir, ['openapi.yaml', '--rename', 'listPets=all_pets']);
    expect(r.out).toMatch(/updated +all_pets +\(listPets\) +\(renamed from list_pets\)/);
    const keys = Object.keys(manifest(dir).tools);
    expect(keys).toContain('all_pets');
    expect(keys).not.toContain('list_pets');
    expect((await importInto(dir, ['openapi.yaml', '--rename', 'listPets=all_pets'])).out).toContain('6 unchanged');
    const taken = await importInto(dir, ['openapi.yaml', '--rename', 'listPets=delete_pet']);
    expect(taken.out).toMatch(
      /unchanged +all_pets +\(listPets\) +\(not renamed to delete_pet: the entry of deletePet has the name\)/,
    );
    valid(dir);
  });
});

describe('re-import: a deleted tool', () => {
  it('comes back unless the selection leaves its operation out, and the summary says so', async () => {
    const dir = petstoreIn('import-merge-deleted');
    await importInto(dir, ['openapi.yaml']);
    const text = read(dir);
    const start = text.indexOf('  get_inventory:\n');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text.slice(0, start));
    const kept = await importInto(dir, ['openapi.yaml', '--tag', 'pets']);
    expect(kept.out).toContain('0 added, 0 updated, 0 kept (edited), 0 removed, 0 skipped, 5 unchanged');
    expect(manifest(dir).tools.get_inventory).toBeUndefined();
    const back = await importInto(dir, ['openapi.yaml']);
    expect(back.out).toMatch(/added +get_inventory\n/);
    expect(back.out).toContain(
      'one whose tool you deleted too: leave operations out with --tag, --path or --operation',
    );
  });
});

describe('re-import: files', () => {
  it('a symlinked manifest stays a symlink; its target is written', async () => {
    const dir = petstoreIn('import-file-symlink');
    mkdirSync(path.join(dir, 'shared'), { recursive: true });
    writeFileSync(path.join(dir, 'shared/mcpgen.yaml'), 'version: 1\nserver: { name: pets, version: 0.1.0 }\n');
    symlinkSync('shared/mcpgen.yaml', path.join(dir, 'mcpgen.yaml'));
    expect((await importInto(dir, ['openapi.yaml'])).code).toBe(0);
    expect(lstatSync(path.join(dir, 'mcpgen.yaml')).isSymbolicLink()).toBe(true);
    expect(read(dir, 'shared/mcpgen.yaml')).toContain('  list_pets:\n');
  });

  it('a duplicate operationId is reported at its line; a JSON document may start with a BOM', async () => {
    const dir = scratch('import-file-read');
    writeFileSync(
      path.join(dir, 'dup.yaml'),
      "openapi: 3.0.3\ninfo: { title: Shop, version: 1.0.0 }\npaths:\n  /a:\n    get:\n      operationId: getThing\n      responses: { '200': { description: ok } }\n  /b:\n    get:\n      operationId: getThing\n      responses: { '200': { description: ok } }\n",
    );
    expect((await importInto(dir, ['dup.yaml'])).err).toMatch(
      /^mcpgen: dup\.yaml:10: The operationId `getThing` is duplicated/,
    );
    writeFileSync(
      path.join(dir, 'bom.json'),
      '\uFEFF{"openapi":"3.0.3","info":{"title":"Bom","version":"1.0.0"},"paths":{"/x":{"get":{"operationId":"getX","responses":{"200":{"description":"ok"}}}}}}',
    );
    const r = await importInto(dir, ['bom.json']);
    expect(r.code, r.err).toBe(0);
    expect(Object.keys(manifest(dir).tools)).toEqual(['get_x']);
  });

  it('a reader that closes stdout early (| head) ends the command quietly', async () => {
    const dir = petstoreIn('import-file-epipe');
    const child = spawn(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), 'import', 'openapi', 'openapi.yaml'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(manifest(dir).tools.list_pets).toBeDefined();
  });
});
