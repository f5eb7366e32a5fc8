/**
 * `mcpgen mcp`: mcpgen as an MCP server over stdio, driven by a real client (@modelcontextprotocol/client
 * over StdioClientTransport) through the loop a coding agent runs: validate, add_entry, generate,
 * check, a broken edit, explain, rename_entry; and the refusals (unknown code, a name that exists,
 * a path outside the project), each an isError result with the server still serving.
 * Runs bin/mcpgen.js: dist must be built.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO, scratch } from './helpers/project.js';

const BIN = path.join(REPO, 'bin/mcpgen.js');

// Structured results are read as the test expects them; their shapes are checked by the server's output schemas.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Data = Record<string, any>;
type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

describe('mcpgen mcp', () => {
  let dir: string;
  let client: Client;
  let stderr = '';
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await call(name, args);
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    // The text is the structured result as JSON, for clients that read only text.
    expect(JSON.parse(r.content[0]!.text!)).toEqual(r.structuredContent);
    return r.structuredContent as Data;
  };
  const refused = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    expect(r.isError, JSON.stringify(r)).toBe(true);
    return r.content[0]!.text!;
  };
  const manifest = () => readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');

  beforeAll(async () => {
    const parent = scratch('mcp-server');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'proj'], io), io.err).toBe(0);
    dir = path.join(parent, 'proj');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: dir,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    client = new Client({ name: 'mcp-server-test', version: '0.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists its tools with input and output schemas and truthful annotations', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'add_entry',
      'add_view',
      'check',
      'compare',
      'explain',
      'generate',
      'rename_entry',
      'validate',
    ]);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(Object.keys(t.annotations ?? {})).toEqual(
        expect.arrayContaining(['readOnlyHint', 'destructiveHint', 'idempotentHint']),
      );
    }
    expect(byName.add_entry!.inputSchema.required).toEqual(['kind', 'name', 'definition']);
    expect((byName.add_entry!.inputSchema.properties as Record<string, { enum?: string[] }>).kind?.enum).toEqual([
      'tool',
      'resource',
      'template',
      'prompt',
    ]);
    expect(byName.rename_entry!.inputSchema.required).toEqual(['kind', 'old', 'new']);
    expect(byName.explain!.inputSchema.required).toEqual(['code']);
    for (const name of ['validate', 'explain', 'check', 'compare'])
      expect(byName[name]!.annotations?.readOnlyHint, name).toBe(true);
    expect(byName.compare!.inputSchema.required).toEqual(['base']);
    expect(byName.add_view!.inputSchema.required).toEqual(['tool']);
    for (const name of ['add_entry', 'add_view', 'rename_entry', 'generate'])
      expect(byName[name]!.annotations?.readOnlyHint, name).toBe(false);
    expect(byName.generate!.annotations?.idempotentHint).toBe(true);
    expect(byName.add_entry!.annotations?.idempotentHint).toBe(false);
    expect(tools.every((t) => t.annotations?.destructiveHint === false)).toBe(true);
  });

  it('compare: what an edit changes for clients, breaking or not; a base outside the project is refused', async () => {
    const original = manifest();
    writeFileSync(path.join(dir, 'base.yaml'), original);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), original.replace('required: [name]', 'required: [name, excited]'));
    try {
      const compared = await ok('compare', { base: 'base.yaml' });
      expect(compared).toMatchObject({ manifest: 'mcpgen.yaml', base: 'base.yaml', breaking: 1, compatible: 0 });
      expect(compared.changes).toEqual([
        expect.objectContaining({
          kind: 'tool',
          entry: 'greet',
          pointer: '/inputSchema/properties/excited',
          severity: 'breaking',
          file: 'mcpgen.yaml',
        }),
      ]);
      writeFileSync(path.join(dir, '..', 'outside.yaml'), original);
      expect(await refused('compare', { base: '../outside.yaml' })).toMatch(/outside the project folder/);
      expect(await refused('compare', { base: 'no-such-rev' })).toMatch(
        /no such file, nor a revision|not in a git repository/,
      );
    } finally {
      writeFileSync(path.join(dir, 'mcpgen.yaml'), original);
    }
  });

  it('drives the loop: validate, add_entry, generate, check, a broken edit, explain, rename_entry', async () => {
    // A fresh project validates clean.
    const clean = await ok('validate');
    expect(clean).toMatchObject({ manifest: 'mcpgen.yaml', valid: true, errors: 0 });

    // add_entry keeps every byte of the user's text: the entry is inserted after the last tool.
    const before = manifest();
    const added = await ok('add_entry', {
      kind: 'tool',
      name: 'add_numbers',
      definition: {
        description: 'Adds two numbers and returns their sum',
        input: {
          type: 'object',
          properties: {
            a: { type: 'number', description: 'The first number to add' },
            b: { type: 'number', description: 'The second number to add' },
          },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        annotations: { readOnlyHint: true },
      },
    });
    expect(added).toMatchObject({ kind: 'tool', name: 'add_numbers', section: 'tools', layout: 'inserted' });
    const after = manifest();
    const lines = after.split('\n');
    expect(lines[added.line - 1]).toBe('  add_numbers:');
    const insertedLines = lines.slice(added.line - 1).findIndex((l, i) => i > 0 && !l.startsWith('    '));
    const without = [...lines.slice(0, added.line - 1), ...lines.slice(added.line - 1 + insertedLines)].join('\n');
    expect(without).toBe(before);
    expect(after).toContain('# Tools: functions the model can call.');

    // generate writes the generated code and the handler stub.
    const dry = await ok('generate', { dryRun: true });
    expect(dry).toMatchObject({ mode: 'dryRun', written: false });
    expect(existsSync(path.join(dir, 'src/handlers/tools/add_numbers.ts'))).toBe(false);
    const stale = await ok('generate', { check: true });
    expect(stale).toMatchObject({ mode: 'check', ok: false, upToDate: false });
    const gen = await ok('generate');
    expect(gen).toMatchObject({ mode: 'write', ok: true, written: true });
    expect(gen.changes).toContainEqual({ path: 'src/handlers/tools/add_numbers.ts', action: 'create', owner: 'user' });
    expect(gen.changes).toContainEqual({ path: 'src/generated/server.ts', action: 'update', owner: 'generated' });
    expect(existsSync(path.join(dir, 'src/handlers/tools/add_numbers.ts'))).toBe(true);
    expect(await ok('generate', { check: true })).toMatchObject({ ok: true, upToDate: true, changes: [] });

    // check passes (validate, generate --check, tsc) and names the handlers still to write.
    const checked = await ok('check');
    expect(checked.steps).toEqual([
      expect.objectContaining({ name: 'validate', status: 'passed' }),
      expect.objectContaining({ name: 'generate', status: 'passed' }),
      expect.objectContaining({ name: 'typecheck', status: 'passed' }),
    ]);
    expect(checked).toMatchObject({ passed: true, done: false });
    expect(checked.findings).toContainEqual(
      expect.objectContaining({ step: 'handlers', file: 'src/handlers/tools/add_numbers.ts' }),
    );
    expect(checked.summary).toMatch(/^passed .*not implemented/);

    // A handler with a type error: check fails at the line and column tsc gives.
    const handler = path.join(dir, 'src/handlers/tools/add_numbers.ts');
    const stub = readFileSync(handler, 'utf8');
    const body = /export const handler[^\n]*\n[\s\S]*$/.exec(stub)![0];
    writeFileSync(
      handler,
      stub.replace(
        body,
        "export const handler: ToolHandlers['add_numbers'] = async ({ a, b }) => ({ sum: `${a + b}` });\n",
      ),
    );
    const typeError = await ok('check');
    expect(typeError).toMatchObject({ passed: false, done: false });
    expect(typeError.findings).toContainEqual(
      expect.objectContaining({
        step: 'typecheck',
        severity: 'error',
        file: 'src/handlers/tools/add_numbers.ts',
        code: expect.stringMatching(/^TS\d+$/),
      }),
    );
    writeFileSync(
      handler,
      stub.replace(body, "export const handler: ToolHandlers['add_numbers'] = async ({ a, b }) => ({ sum: a + b });\n"),
    );
    const fixed = await ok('check');
    expect(fixed).toMatchObject({ passed: true });
    expect(fixed.findings.map((f: { file: string }) => f.file)).not.toContain('src/handlers/tools/add_numbers.ts');

    // A broken edit: the diagnostic at its line and column, with a hint; check fails at validate.
    const good = manifest();
    writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      good.replace('    description: Adds two numbers', '    descriptin: Adds two numbers'),
    );
    const broken = await ok('validate');
    expect(broken).toMatchObject({ valid: false });
    const d = broken.diagnostics.find((x: { code: string }) => x.code === 'MCPG110');
    const typoLine =
      manifest()
        .split('\n')
        .findIndex((l) => l.includes('descriptin:')) + 1;
    expect(d).toMatchObject({
      severity: 'error',
      file: 'mcpgen.yaml',
      line: typoLine,
      column: 5,
      path: '/tools/add_numbers/descriptin',
    });
    expect(d.hint ?? d.message).toMatch(/description/);
    const failing = await ok('check');
    expect(failing).toMatchObject({ passed: false });
    expect(failing.steps.map((s: { status: string }) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
    // add_entry refuses to add to a manifest with errors.
    expect(
      await refused('add_entry', { kind: 'prompt', name: 'other', definition: { description: 'Another prompt here' } }),
    ).toMatch(/has errors/);

    // explain the code.
    const explained = await ok('explain', { code: d.code });
    expect(explained).toMatchObject({ code: 'MCPG110', category: 'Schema', severity: 'error' });
    expect(explained.summary).toMatch(/unknown key/);
    expect(explained.fix).toMatch(/remove the key|rename/);
    // The documentation as a URL the agent can open, as SARIF's helpUri: not a path in the user's project.
    expect(explained.docs).toMatch(
      /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/v[^/]+\/docs\/manifest-diagnostics\.md#mcpg110$/,
    );
    const lint = await ok('explain', { code: 'missing-description' });
    expect(lint).toMatchObject({
      code: 'MCPG301',
      category: 'Lint',
      rule: { id: 'missing-description', default: 'warn' },
    });
    expect(lint.example).toMatch(/→/);
    writeFileSync(path.join(dir, 'mcpgen.yaml'), good);

    // rename_entry: a dry run changes nothing; apply moves the handler and regenerates.
    const plan = await ok('rename_entry', { kind: 'tool', old: 'add_numbers', new: 'sum_numbers' });
    expect(plan).toMatchObject({ applied: false });
    expect(plan.changes).toContainEqual(
      expect.objectContaining({
        action: 'move',
        file: 'src/handlers/tools/add_numbers.ts',
        to: 'src/handlers/tools/sum_numbers.ts',
      }),
    );
    expect(plan.changes).toContainEqual(
      expect.objectContaining({ action: 'edit', file: 'mcpgen.yaml', before: 'add_numbers', after: 'sum_numbers' }),
    );
    expect(manifest()).toBe(good);
    expect(existsSync(handler)).toBe(true);
    const applied = await ok('rename_entry', { kind: 'tool', old: 'add_numbers', new: 'sum_numbers', apply: true });
    expect(applied).toMatchObject({ applied: true });
    expect(existsSync(handler)).toBe(false);
    expect(readFileSync(path.join(dir, 'src/handlers/tools/sum_numbers.ts'), 'utf8')).toContain(
      "ToolHandlers['sum_numbers'] = async ({ a, b }) => ({ sum: a + b })",
    );
    expect(manifest()).toBe(good.replace('  add_numbers:', '  sum_numbers:'));
    expect(await ok('check')).toMatchObject({ passed: true });
  });

  it('answers errors as isError results and keeps serving', async () => {
    const before = manifest();
    expect(await refused('explain', { code: 'MCPG999' })).toMatch(/unknown diagnostic code "MCPG999"/);
    expect(
      await refused('add_entry', {
        kind: 'tool',
        name: 'greet',
        definition: { description: 'Greets once more, again' },
      }),
    ).toMatch(/tool "greet" already exists/);
    // One that would not validate: refused with its diagnostics, nothing written.
    const invalid = await refused('add_entry', {
      kind: 'tool',
      name: 'bad_tool',
      definition: { description: 'A tool whose input is no object', input: { type: 'string' } },
    });
    expect(invalid).toMatch(/would not validate[\s\S]*MCPG204/);
    // A diagnostic without a hint (as validate gives it): the refusal names the explain call for it.
    const listed = await refused('add_entry', {
      kind: 'prompt',
      name: 'listed_args',
      definition: { description: 'A prompt whose arguments are a list', arguments: [{ name: 'x' }] },
    });
    expect(listed).toMatch(
      /mcpgen\.yaml:\d+:\d+: MCPG111 `arguments`: expected a mapping, got a list\nexplain MCPG111/,
    );
    expect(await refused('add_entry', { kind: 'widget', name: 'x', definition: {} })).toMatch(/kind|widget/);
    expect(await refused('rename_entry', { kind: 'tool', old: 'nope', new: 'other' })).toMatch(/nope/);
    expect(await refused('rename_entry', { kind: 'tool', old: 'sum_numbers', new: 'greet' })).toMatch(/already exists/);
    // Paths leaving the project: `..`, absolute, and through a symbolic link.
    expect(await refused('validate', { manifest: '../../mcpgen.yaml' })).toMatch(/outside the project folder/);
    expect(await refused('validate', { manifest: '/etc/hostname' })).toMatch(/outside the project folder/);
    const outside = mkdtempSync(path.join(tmpdir(), 'mcpgen-mcp-outside-'));
    mkdirSync(path.join(outside, 'sub'));
    writeFileSync(path.join(outside, 'sub', 'mcpgen.yaml'), before);
    symlinkSync(outside, path.join(dir, 'elsewhere'));
    expect(await refused('validate', { manifest: 'elsewhere/sub/mcpgen.yaml' })).toMatch(/symbolic link/);
    expect(
      await refused('add_entry', {
        kind: 'tool',
        name: 'x_tool',
        manifest: 'elsewhere/sub/mcpgen.yaml',
        definition: {},
      }),
    ).toMatch(/outside the project folder/);
    expect(readFileSync(path.join(outside, 'sub', 'mcpgen.yaml'), 'utf8')).toBe(before);
    expect(manifest()).toBe(before);
    // Still serving.
    expect(await ok('validate')).toMatchObject({ valid: true });
    expect(stderr).not.toMatch(/internal error/);
  });

  it('add_view gives a tool a view as `mcpgen add view` does; refuses an unknown tool or a second view', async () => {
    const before = manifest();
    expect(await refused('add_view', { tool: 'nope' })).toMatch(/no tool `nope`/);
    expect(manifest()).toBe(before);
    const added = await ok('add_view', { tool: 'greet' });
    expect(added).toEqual({
      manifest: 'mcpgen.yaml',
      tool: 'greet',
      resource: 'greet_view',
      uri: 'ui://proj/greet',
      folder: 'ui/greet',
      created: ['ui/greet/index.html', 'ui/greet/main.ts'],
      kept: [],
      next: expect.stringContaining('generate'),
    });
    expect(manifest()).toContain('    build: ./ui/greet');
    expect(manifest()).toContain('ui: { resource: greet_view }');
    expect(readFileSync(path.join(dir, 'ui/greet/main.ts'), 'utf8')).toContain("from '@modelcontextprotocol/ext-apps'");
    const after = manifest();
    expect(await refused('add_view', { tool: 'greet' })).toMatch(/already has a view/);
    expect(manifest()).toBe(after);
    expect(await ok('validate')).toMatchObject({ valid: true });
  });

  it('after hand edits, generate and check say what is wrong and which tool call fixes it', async () => {
    const good = manifest();
    const write = (text: string) => writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    const messages = (r: Data) => (r.messages as string[]).join('\n');

    // An output property renamed: generate points at the check tool, check gives tsc's whole diagnostic.
    write(good.replace('        sum:\n', '        count:\n').replace('        - sum\n', '        - count\n'));
    expect(manifest()).not.toBe(good);
    const changed = await ok('generate');
    expect(changed.messages).toContain(
      'contract changed: tool sum_numbers (output) → update src/handlers/tools/sum_numbers.ts and test/handlers/tools/sum_numbers.test.ts to the new types; the check tool type-checks the project and points at what does not match yet',
    );
    expect(messages(changed)).not.toMatch(/npm run typecheck|mcpgen (generate|validate|rename)/);
    const typeError = await ok('check');
    const finding = typeError.findings.find(
      (f: Data) => f.step === 'typecheck' && f.file === 'src/handlers/tools/sum_numbers.ts',
    );
    expect(finding?.message).toMatch(/is not assignable[\s\S]*\n\s*Property 'count' is missing/);

    // A tool removed by hand: its stub is reported once, as an orphan to delete, not as a handler to write.
    write(good);
    await ok('generate');
    const lines = good.split('\n');
    const from = lines.indexOf('  greet:');
    const to = lines.findIndex((l, i) => i > from && /^\S|^ {2}\S/.test(l));
    write([...lines.slice(0, from), ...lines.slice(to)].join('\n'));
    const removed = await ok('check');
    expect(removed.findings.filter((f: Data) => f.file === 'src/handlers/tools/greet.ts')).toEqual([
      expect.objectContaining({
        step: 'generate',
        severity: 'warning',
        message: expect.stringMatching(/no manifest entry uses this file[\s\S]*delete it/),
      }),
    ]);

    // A resource that went static: its handler is named for what changed, not as a rename.
    write(good);
    await ok('add_entry', { kind: 'resource', name: 'readme', definition: { uri: 'notes://readme' } });
    await ok('generate');
    expect(existsSync(path.join(dir, 'src/handlers/resources/readme.ts'))).toBe(true);
    write(manifest().replace(/( +)uri: notes:\/\/readme\n/, '$1uri: notes://readme\n$1text: Hello\n'));
    const wentStatic = await ok('check');
    expect(wentStatic.findings.filter((f: Data) => f.file === 'src/handlers/resources/readme.ts')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^resource readme has static content now \(text:\), so this handler is not used/,
        ),
      }),
    ]);

    // A tool renamed by hand: check and generate name the rename_entry call that finishes it.
    const renamed = good.replace('  sum_numbers:', '  add_up:');
    write(renamed);
    const call = 'rename_entry { kind: "tool", old: "sum_numbers", new: "add_up", apply: true }';
    expect((await ok('check')).findings).toContainEqual(
      expect.objectContaining({ file: 'src/handlers/tools/sum_numbers.ts', message: expect.stringContaining(call) }),
    );
    const regenerated = await ok('generate');
    expect(messages(regenerated)).toContain(call);
    expect(messages(regenerated)).not.toMatch(/mcpgen rename|--yes/);

    // A manifest with errors: generate refuses (isError) as add_entry does, writing nothing; the refusals name the validate tool.
    write(renamed.replace('  add_up:', '  "add up!":'));
    const stamp = readFileSync(path.join(dir, 'src/generated/contracts.json'), 'utf8');
    expect(await refused('generate', {})).toMatch(/mcpgen\.yaml has 1 error[\s\S]*MCPG116/);
    expect(await refused('generate', { check: true })).toMatch(/has 1 error/);
    expect(await refused('add_view', { tool: 'sum_numbers' })).toMatch(
      /has errors; fix them \(the validate tool lists them\)/,
    );
    expect(await refused('rename_entry', { kind: 'tool', old: 'greet', new: 'hello' })).toMatch(/the validate tool/);
    expect(readFileSync(path.join(dir, 'src/generated/contracts.json'), 'utf8')).toBe(stamp);
    write(good);

    // What generate says of the user's own files: src/main.ts against transports in tool words,
    // package.json's scripts quoted as they are (a script naming `mcpgen generate` is not reworded).
    await ok('generate');
    const pkgFile = path.join(dir, 'package.json');
    const pkg = readFileSync(pkgFile, 'utf8');
    const build = JSON.parse(pkg).scripts.build;
    writeFileSync(pkgFile, pkg.replace(JSON.stringify(build), '"tsc && npm run mcpgen generate"'));
    write(`${good}\ntransports:\n  http: {}\n`);
    const ownFiles = await ok('generate');
    writeFileSync(pkgFile, pkg);
    write(good);
    await ok('generate');
    expect(ownFiles.messages).toContain(
      'src/main.ts serves stdio, which transports no longer declares: take out its runStdio call, or delete src/main.ts and call the generate tool to have a new one written for the transports declared',
    );
    expect(ownFiles.messages).toContainEqual(
      expect.stringMatching(
        /^package\.json does not match [^\n]*scripts\.build \("tsc && npm run mcpgen generate"\) does not run `mcpgen build`[^\n]*: run `npm pkg set 'scripts\.build=tsc && npm run mcpgen generate && mcpgen build'` in the project folder \(a shell command; no mcpgen tool does it\)$/,
      ),
    );

    // A folder without a manifest: the agent is told what it can do, not to run a command itself.
    const empty = scratch('mcp-server-empty');
    const bare = new Client({ name: 'mcp-server-test', version: '0.0.0' });
    await bare.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: empty, stderr: 'pipe' }),
    );
    try {
      const r = (await bare.callTool({ name: 'check', arguments: {} })) as Result;
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/ask the user to run `npx mcpgen init`[\s\S]*`manifest`/);
    } finally {
      await bare.close();
    }
  });
});
