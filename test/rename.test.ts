/**
 * `mcpgen rename` through the real CLI on generated projects: the dry run prints the plan and
 * changes nothing, `--yes` edits the manifest's key only, moves the user's handlers and re-points
 * them, and the project compiles and answers through a real client with the user's code. Every
 * refusal changes nothing; a failed regeneration is undone; generate names the rename after one
 * done by hand in the manifest.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { loadManifest } from '../cli/load/load.js';
import { applyRename } from '../cli/rename/apply.js';
import { KINDS } from '../cli/rename/kinds.js';
import { renameKey } from '../cli/rename/manifest-edit.js';
import { handlerEdits } from '../cli/rename/text-edits.js';
import { planRename } from '../cli/rename/plan.js';
import { buildServer, connectStdio, memoryIO, scratch } from './helpers/project.js';

const MANIFEST = `# The weather server
version: 1
server: { name: rename-e2e, version: 0.1.0, instructions: "Call get_weather for a city; not get_weather2, docs/get_weather or {get_weather}." }
tools:
  # Looks up the weather
  get_weather:   # the old name
    description: Current weather for a city
    input:
      type: object
      properties: { city: { type: string } }
      required: [city]
  echo: { description: "Echoes (the weather is get_weather's)", input: { type: object, properties: { text: { type: string } } } }
resources:
  'Application logs':
    uri: app://logs
    mimeType: text/plain
resourceTemplates:
  user profile:
    uriTemplate: users://{id}
prompts:
  "summarize": { description: Summarizes }
`;

const WEATHER =
  "import type { ToolHandlers } from '../../generated/handlers.js';\n" +
  "import type { GetWeatherInput } from '../../generated/types.js';\n\n" +
  '/** Tool `get_weather`: the real one. */\n' +
  'const sunny = (input: GetWeatherInput) => `Sunny in ${input.city} (user code)`;\n' +
  "export const handler: ToolHandlers['get_weather'] = async (input) => sunny(input);\n";
/** The handler as rename leaves it: the entry's names in it follow the new one. */
const FORECAST = WEATHER.replace('Tool `get_weather`', 'Tool `get_forecast`')
  .replace("['get_weather']", "['get_forecast']")
  .replaceAll('GetWeatherInput', 'GetForecastInput');
const LOGS =
  "import type { ResourceHandlers } from '../../generated/handlers.js';\n\n" +
  "export const read: ResourceHandlers['Application logs'] = async () => 'log line (user code)';\n";
const PROFILE =
  "import type { TemplateHandlers } from '../../generated/handlers.js';\n\n" +
  "import type { UserProfileParams } from '../../generated/types.js';\n\n" +
  "export const read: TemplateHandlers['user profile']['read'] = async (params: UserProfileParams) => `profile ${params.id} (user code)`;\n";
const SUMMARIZE =
  "import type { PromptHandlers } from '../../generated/handlers.js';\n\n" +
  "export const get: PromptHandlers['summarize']['get'] = async () => 'summarize this (user code)';\n";

const SUMMARIZE_TEST =
  "import { get } from '../../../src/handlers/prompts/summarize.js';\n\n" + 'export const rendered = get;\n';

/** Every file under dir (node_modules aside) with its bytes and mtime. */
function snapshot(dir: string): Map<string, { bytes: string; mtime: number }> {
  const out = new Map<string, { bytes: string; mtime: number }>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(r);
      } else
        out.set(r, {
          bytes: readFileSync(path.join(dir, r)).toString('base64'),
          mtime: statSync(path.join(dir, r)).mtimeMs,
        });
    }
  };
  walk('');
  return out;
}

async function cli(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

async function generated(name: string, manifest = MANIFEST): Promise<string> {
  const dir = scratch(name);
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest);
  const r = await cli(dir, 'generate', '-q');
  expect(r.code, r.err).toBe(0);
  return dir;
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('mcpgen rename on a real project', () => {
  let client: Client | undefined;
  afterAll(async () => {
    await client?.close();
  });

  it('dry run prints the plan and writes nothing; --yes renames all four kinds; the project compiles and serves the user code', async () => {
    const dir = await generated('rename-e2e');
    writeFileSync(path.join(dir, 'src/handlers/tools/get_weather.ts'), WEATHER);
    writeFileSync(path.join(dir, 'src/handlers/resources/Application_logs.ts'), LOGS);
    writeFileSync(path.join(dir, 'src/handlers/templates/user_profile.ts'), PROFILE);
    writeFileSync(path.join(dir, 'src/handlers/prompts/summarize.ts'), SUMMARIZE);
    const testStub = read(dir, 'test/handlers/tools/get_weather.test.ts');

    const before = snapshot(dir);
    const dry = await cli(dir, 'rename', 'tool', 'get_weather', 'get_forecast');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toBe(
      [
        'rename tool "get_weather" → "get_forecast"',
        '  edit      mcpgen.yaml:6:3: get_weather → get_forecast',
        '  move      src/handlers/tools/get_weather.ts → src/handlers/tools/get_forecast.ts',
        '  edit      src/handlers/tools/get_forecast.ts:2: GetWeatherInput → GetForecastInput',
        '  edit      src/handlers/tools/get_forecast.ts:4: Tool `get_weather` → Tool `get_forecast`',
        '  edit      src/handlers/tools/get_forecast.ts:5: GetWeatherInput → GetForecastInput',
        "  edit      src/handlers/tools/get_forecast.ts:6: ToolHandlers['get_weather'] → ToolHandlers['get_forecast']",
        '  move      test/handlers/tools/get_weather.test.ts → test/handlers/tools/get_forecast.test.ts',
        "  edit      test/handlers/tools/get_forecast.test.ts:6: from '../../../src/handlers/tools/get_weather.js' → from '../../../src/handlers/tools/get_forecast.js'",
        "  edit      test/handlers/tools/get_forecast.test.ts:19: test('get_weather handler' → test('get_forecast handler'",
        '  generate  the generated code for "get_forecast" (as mcpgen generate)',
        // The manifest's own text naming the old name: listed where it is, left as written.
        `  text      mcpgen.yaml:3:${MANIFEST.split('\n')[2]!.indexOf('get_weather') + 1}: server.instructions names "get_weather"`,
        `  text      mcpgen.yaml:12:${MANIFEST.split('\n')[11]!.indexOf('get_weather') + 1}: tools.echo.description names "get_weather"`,
        `  (rename does not reword the manifest's text: edit these to name "get_forecast")`,
        'dry run, nothing written; run again with --yes to apply',
        '',
      ].join('\n'),
    );
    expect(snapshot(dir)).toEqual(before);
    const json = await cli(dir, 'rename', 'tool', 'get_weather', 'get_forecast', '--json');
    expect(json.code, json.err).toBe(0);
    const next = (JSON.parse(json.out) as { next: { message: string; command: string | null }[] }).next;
    expect(next.filter((n) => n.command === null).map((n) => n.message)).toEqual([
      `mcpgen.yaml:3:${MANIFEST.split('\n')[2]!.indexOf('get_weather') + 1}: server.instructions still names "get_weather": edit it to name "get_forecast"`,
      `mcpgen.yaml:12:${MANIFEST.split('\n')[11]!.indexOf('get_weather') + 1}: tools.echo.description still names "get_weather": edit it to name "get_forecast"`,
    ]);
    expect(snapshot(dir)).toEqual(before);

    const yes = await cli(dir, 'rename', 'tool', 'get_weather', 'get_forecast', '--yes');
    expect(yes.code, yes.err).toBe(0);
    expect(yes.out).toContain('✔ renamed tool "get_weather" to "get_forecast"');
    expect(yes.err).not.toContain('orphan');
    expect(yes.err).toContain(
      `! mcpgen.yaml:3:${MANIFEST.split('\n')[2]!.indexOf('get_weather') + 1}: server.instructions still names "get_weather"\n`,
    );
    expect(yes.err).toMatch(
      /still names "get_weather"\n {2}rename does not reword the manifest's text: edit these to name "get_forecast"\n$/,
    );
    // The key and nothing else: comments, flow style and quoting are the user's.
    expect(read(dir, 'mcpgen.yaml')).toBe(
      MANIFEST.replace('  get_weather:   # the old name', '  get_forecast:   # the old name'),
    );
    expect(existsSync(path.join(dir, 'src/handlers/tools/get_weather.ts'))).toBe(false);
    expect(existsSync(path.join(dir, 'test/handlers/tools/get_weather.test.ts'))).toBe(false);
    expect(read(dir, 'src/handlers/tools/get_forecast.ts')).toBe(FORECAST);
    expect(read(dir, 'test/handlers/tools/get_forecast.test.ts')).toBe(
      testStub
        .replace('tools/get_weather.js', 'tools/get_forecast.js')
        .replace("'get_weather handler'", "'get_forecast handler'"),
    );

    // The other kinds, with names that need quoting in YAML and in the shell.
    const r1 = await cli(dir, 'rename', 'resource', 'Application logs', 'App logs', '--yes');
    expect(r1.code, r1.err).toBe(0);
    expect(r1.out).toContain("  edit      mcpgen.yaml:14:3: 'Application logs' → 'App logs'");
    const r2 = await cli(dir, 'rename', 'template', 'user profile', 'member profile', '--yes');
    expect(r2.code, r2.err).toBe(0);
    // A test of the user's own for a prompt handler moves with it, like a tool's test stub.
    mkdirSync(path.join(dir, 'test/handlers/prompts'), { recursive: true });
    writeFileSync(path.join(dir, 'test/handlers/prompts/summarize.test.ts'), SUMMARIZE_TEST);
    const r3 = await cli(dir, 'rename', 'prompt', 'summarize', 'digest', '--yes');
    expect(r3.code, r3.err).toBe(0);
    expect(r3.out).toContain(
      '  move      test/handlers/prompts/summarize.test.ts → test/handlers/prompts/digest.test.ts\n',
    );
    expect(existsSync(path.join(dir, 'test/handlers/prompts/summarize.test.ts'))).toBe(false);
    expect(read(dir, 'test/handlers/prompts/digest.test.ts')).toBe(
      SUMMARIZE_TEST.replace('prompts/summarize.js', 'prompts/digest.js'),
    );
    expect(read(dir, 'mcpgen.yaml')).toBe(
      MANIFEST.replace('  get_weather:   # the old name', '  get_forecast:   # the old name')
        .replace("'Application logs':", "'App logs':")
        .replace('user profile:', 'member profile:')
        .replace('"summarize":', '"digest":'),
    );
    expect(read(dir, 'src/handlers/resources/App_logs.ts')).toBe(LOGS.replace("['Application logs']", "['App logs']"));
    expect(read(dir, 'src/handlers/templates/member_profile.ts')).toBe(
      PROFILE.replace("['user profile']", "['member profile']").replaceAll('UserProfileParams', 'MemberProfileParams'),
    );
    expect(read(dir, 'src/handlers/prompts/digest.ts')).toBe(SUMMARIZE.replace("['summarize']", "['digest']"));
    for (const gone of ['resources/Application_logs.ts', 'templates/user_profile.ts', 'prompts/summarize.ts'])
      expect(existsSync(path.join(dir, 'src/handlers', gone))).toBe(false);

    const check = await cli(dir, 'generate', '--check');
    expect(check.code, check.out + check.err).toBe(0);
    const tsc = await buildServer(dir);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

    client = await connectStdio(dir);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.sort()).toEqual(['echo', 'get_forecast']);
    const called = await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo' } });
    expect(called.isError).toBeFalsy();
    expect(called.content).toEqual([{ type: 'text', text: 'Sunny in Oslo (user code)' }]);
    const resources = (await client.listResources()).resources;
    expect(resources.map((r) => r.name)).toEqual(['App logs']);
    expect((await client.readResource({ uri: 'app://logs' })).contents[0]).toMatchObject({
      text: 'log line (user code)',
    });
    expect((await client.readResource({ uri: 'users://7' })).contents[0]).toMatchObject({
      text: 'profile 7 (user code)',
    });
    const prompt = await client.getPrompt({ name: 'digest' });
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: 'summarize this (user code)' });
  });
});

describe('what rename refuses, with nothing changed', () => {
  let dir: string;
  const refused = async (args: string[], message: string | RegExp) => {
    const before = snapshot(dir);
    const r = await cli(dir, 'rename', ...args);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toContain('internal error');
    expect(snapshot(dir)).toEqual(before);
  };

  it('each refusal exits 2 and leaves every file as it was', async () => {
    dir = await generated('rename-refusals');
    writeFileSync(path.join(dir, 'src/handlers/tools/get_weather.ts'), WEATHER);
    await refused(
      ['tool', 'get_wether', 'get_forecast'],
      'tool "get_wether" is not in mcpgen.yaml; did you mean "get_weather"?',
    );
    await refused(
      ['tool', 'nothing_like_it', 'x'],
      'tool "nothing_like_it" is not in mcpgen.yaml; its tools: echo, get_weather',
    );
    await refused(['tool', 'get_weather', 'echo'], 'tool "echo" already exists in mcpgen.yaml; pick another name');
    await refused(
      ['tool', 'get_weather', 'get weather'],
      /"get weather" is not a valid tool name: Tool name: 1-128 letters/,
    );
    await refused(['prompt', 'summarize', 'a/b'], /"a\/b" is not a valid prompt name/);
    // A derived name taken by another entry: the whole manifest is checked as it would be.
    await refused(['tool', 'echo', 'get-weather'], /would make the manifest invalid\n?/);
    await refused(['tool', 'get_weather', 'get_weather'], 'already has that name');
    await refused(['widget', 'a', 'b'], 'unknown kind "widget": use one of tool, resource, template, prompt');
    writeFileSync(path.join(dir, 'src/handlers/tools/get_forecast.ts'), '// someone else\n');
    await refused(
      ['tool', 'get_weather', 'get_forecast', '--yes'],
      'src/handlers/tools/get_forecast.ts already exists',
    );
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST.replace('version: 0.1.0', 'version: one'));
    await refused(
      ['tool', 'get_weather', 'get_forecast', '--yes'],
      /^mcpgen\.yaml:\d+:\d+: error MCPG1\d\d [\s\S]*has an error; fix it/m,
    );
  });

  it('a regeneration that fails or throws is undone: the project is left byte for byte', async () => {
    dir = await generated('rename-undo');
    writeFileSync(path.join(dir, 'src/handlers/tools/get_weather.ts'), WEATHER);
    const before = snapshot(dir);
    const plan = await planRename('tool', 'get_weather', 'get_forecast', {}, dir);
    expect(plan.moves.map((m) => m.to)).toEqual([
      'src/handlers/tools/get_forecast.ts',
      'test/handlers/tools/get_forecast.test.ts',
    ]);
    expect(await applyRename(plan, async () => 1)).toBe(1);
    expect(new Map([...snapshot(dir)].map(([k, v]) => [k, v.bytes]))).toEqual(
      new Map([...before].map(([k, v]) => [k, v.bytes])),
    );
    await expect(
      applyRename(plan, async () => {
        throw new Error('disk gone');
      }),
    ).rejects.toThrow('disk gone');
    expect(new Map([...snapshot(dir)].map(([k, v]) => [k, v.bytes]))).toEqual(
      new Map([...before].map(([k, v]) => [k, v.bytes])),
    );
  });
});

describe('generate names the rename after one done by hand', () => {
  it('prints the exact command, which then moves the handler over the untouched stub', async () => {
    const dir = await generated('rename-hint');
    writeFileSync(path.join(dir, 'src/handlers/tools/get_weather.ts'), WEATHER);
    const byHand = MANIFEST.replace('  get_weather:', '  get_forecast:');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), byHand);
    // In CI, generate --check names it too, first: regenerating alone would leave the handler behind.
    const check = await cli(dir, 'generate', '--check', '--json');
    expect(check.code).toBe(1);
    expect(JSON.parse(check.out).next[0]).toEqual({
      message:
        'tool "get_weather" was removed and "get_forecast" added; if it was renamed, run: mcpgen rename tool get_weather get_forecast --yes',
      command: 'mcpgen rename tool get_weather get_forecast --yes',
      cwd: '.',
    });
    const gen = await cli(dir, 'generate');
    expect(gen.code, gen.err).toBe(0);
    expect(gen.err).toContain(
      'hint: tool "get_weather" was removed and "get_forecast" added; if it was renamed, run: mcpgen rename tool get_weather get_forecast --yes\n',
    );
    // The stubs generate just made for the new name are recognised and replaced, nothing else.
    const stub = read(dir, 'src/handlers/tools/get_forecast.ts');
    expect(stub).toContain('NotImplementedError');
    const r = await cli(dir, 'rename', 'tool', 'get_weather', 'get_forecast', '--yes');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('(mcpgen.yaml already names it "get_forecast")');
    expect(r.out).toContain('replacing the untouched stub generate made there');
    expect(read(dir, 'mcpgen.yaml')).toBe(byHand);
    expect(read(dir, 'src/handlers/tools/get_forecast.ts')).toBe(FORECAST);
    expect(existsSync(path.join(dir, 'src/handlers/tools/get_weather.ts'))).toBe(false);
    expect(existsSync(path.join(dir, 'test/handlers/tools/get_weather.test.ts'))).toBe(false);
    expect(read(dir, 'test/handlers/tools/get_forecast.test.ts')).toContain(
      "'../../../src/handlers/tools/get_forecast.js'",
    );
    const again = await cli(dir, 'generate');
    expect(again.err).not.toMatch(/orphan|no longer used|^hint: /m);

    // Names that need the shell's quotes, and -f, are in the command as typed.
    writeFileSync(path.join(dir, 'mcpgen.yaml'), byHand.replace("'Application logs':", "'App logs':"));
    writeFileSync(path.join(dir, 'src/handlers/resources/Application_logs.ts'), LOGS);
    const gen2 = await cli(dir, 'generate', '-f', 'mcpgen.yaml');
    expect(gen2.err).toContain(
      `hint: resource "Application logs" was removed and "App logs" added; if it was renamed, run: mcpgen rename resource 'Application logs' 'App logs' -f mcpgen.yaml --yes\n`,
    );
  });

  it('no hint when two entries of a kind were removed and added, or the old handler is gone', async () => {
    const dir = await generated('rename-no-hint');
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      MANIFEST.replace('  get_weather:', '  a1:').replace('  echo:', '  b2:'),
    );
    const gen = await cli(dir, 'generate');
    expect(gen.code, gen.err).toBe(0);
    expect(gen.err).toContain('no longer used by the manifest');
    expect(gen.err).not.toMatch(/^hint: /m);
  });
});

describe('an entry switching between a handler and static content', () => {
  it('is named as such, not as gone, and no rename is hinted between two entries that both exist', async () => {
    const before = `version: 1
server: { name: switch, version: 0.1.0 }
resources:
  index: { uri: app://index, description: Index, mimeType: text/plain }
  motd: { uri: app://motd, description: Motd, mimeType: text/plain, text: Hello }
`;
    const dir = await generated('rename-switch', before);
    mkdirSync(path.join(dir, 'test/handlers/resources'), { recursive: true });
    writeFileSync(
      path.join(dir, 'test/handlers/resources/index.test.ts'),
      "import { read } from '../../../src/handlers/resources/index.js';\nexport const r = read;\n",
    );
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      before.replace('mimeType: text/plain }', "mimeType: text/plain, text: '# Notes' }").replace(', text: Hello', ''),
    );
    const gen = await cli(dir, 'generate');
    expect(gen.code, gen.err).toBe(0);
    expect(gen.err).toContain(
      '! src/handlers/resources/index.ts: resource index has static content now (text:), so this handler is not used; delete it, or remove text: to serve it again\n',
    );
    expect(gen.err).toContain(
      "! test/handlers/resources/index.test.ts: resource index has static content now (text:), so this handler's test is not used; delete it, or remove text: to serve it again\n",
    );
    expect(gen.err).not.toContain('no longer used');
    expect(gen.err).not.toMatch(/^hint: /m);
  });
});

describe('the edits themselves', () => {
  it('renames the key where it stands, in its own quoting, in block and flow style', () => {
    const dir = scratch('rename-keys');
    const cases: [string, string, string, string][] = [
      ['tools:\n  a: {}   # keep\n  b: {}\n', 'a', 'c', 'tools:\n  c: {}   # keep\n  b: {}\n'],
      ['tools: { a: {}, b: {} }\n', 'b', 'x.y', 'tools: { a: {}, x.y: {} }\n'],
      ["tools:\n  'a': {}\n", 'a', "it's", "tools:\n  'it''s': {}\n"],
      ['tools:\n  "a": {}\n', 'a', '123', 'tools:\n  "123": {}\n'],
      ['tools:\n  a: {}\n', 'a', '123', "tools:\n  '123': {}\n"],
    ];
    for (const [body, from, to, want] of cases) {
      const file = path.join(dir, 'm.yaml');
      writeFileSync(file, `version: 1\nserver: { name: k, version: 0.1.0 }\n${body}`);
      const { manifest } = loadManifest(file, 'm.yaml');
      const edit = renameKey(manifest!, 'tools', from, to);
      expect('error' in edit ? edit.error : edit.text).toBe(`version: 1\nserver: { name: k, version: 0.1.0 }\n${want}`);
    }
  });

  it("replaces the entry's type names as whole words, not another entry's or a named schema's", () => {
    const text =
      "import type { GreetInput, GreetInputInput, GreetOutputItem, GreetInputShape, MyGreetInput } from '../../generated/types.js';\n";
    const types = {
      from: 'Greet',
      to: 'SayHello',
      suffixes: ['Input', 'Output'],
      taken: (id: string) => id.startsWith('GreetInputInput') || id === 'GreetInputShape',
    };
    const { text: out } = handlerEdits(
      KINDS.tool,
      text,
      { from: 'greet', to: 'say_hello' },
      { from: 'x', to: 'y' },
      types,
    );
    expect(out).toBe(
      "import type { SayHelloInput, GreetInputInput, SayHelloOutputItem, GreetInputShape, MyGreetInput } from '../../generated/types.js';\n",
    );
  });
});
