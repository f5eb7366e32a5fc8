/**
 * A project's life, scripted: `init`, then steps that edit handlers by hand and add, change, rename
 * and remove tools, resources, templates and prompts, regenerating after each. After every step:
 * - no byte of a user-owned file changed, except by the script itself;
 * - the plan summary is what the step implies;
 * - the project type-checks, or fails exactly in the files generate named (contract changes, orphans).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { GENERATED_DIRS } from '../cli/plan/plan.js';
import { memoryIO, run, scratch, TSC } from './helpers/project.js';

let dir: string;

/** Every user-owned file (everything outside the generated folders and dist/). */
function userFiles(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === 'dist' || r === 'node_modules' || GENERATED_DIRS.includes(r)) continue;
      if (e.isDirectory()) walk(r);
      else out.set(r, readFileSync(path.join(dir, r), 'utf8'));
    }
  };
  walk('');
  return out;
}

function editManifest(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const file = path.join(dir, 'mcpgen.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  edit(doc);
  writeFileSync(file, doc.toString());
}

const write = (rel: string, text: string) => writeFileSync(path.join(dir, rel), text);
const remove = (rel: string) => rmSync(path.join(dir, rel));

interface StepResult {
  out: string;
  err: string;
  tscErrorFiles: string[];
}

/** Regenerate and check the invariants; returns what the step needs to assert on. */
async function regenerate(): Promise<StepResult> {
  const before = userFiles();
  const io = memoryIO(dir);
  const code = await runCli(['generate'], io);
  expect(code, io.err).toBe(0);
  const after = userFiles();
  // User-owned files: unchanged byte for byte; the only new ones are stubs generate says it created.
  for (const [file, text] of before) expect(after.get(file), file).toBe(text);
  for (const file of after.keys()) if (!before.has(file)) expect(io.out, file).toContain(`create    ${file}`);
  const tsc = await run(TSC, ['-p', 'tsconfig.json', '--noEmit'], dir);
  const tscErrorFiles = [
    ...new Set([...tsc.stdout.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!)),
  ].sort();
  return { out: io.out, err: io.err, tscErrorFiles };
}

/** Files generate named as needing the user's attention (contract changes and orphans). */
function named(r: StepResult): string[] {
  const files = new Set<string>();
  for (const m of r.err.matchAll(/→ update (\S+)(?: and (\S+))?/g)) [m[1], m[2]].forEach((f) => f && files.add(f));
  for (const m of r.err.matchAll(/^! (\S+) is no longer used by the manifest/gm)) files.add(m[1]!);
  for (const m of r.err.matchAll(/^! (\S+): .* so this handler(?:'s test)? is not used/gm)) files.add(m[1]!);
  return [...files].sort();
}

/** tsc passes, or its errors are all in files generate named. */
function expectTypeErrorsOnlyIn(r: StepResult, expected: string[]): void {
  expect(r.tscErrorFiles, `${r.err}\n${r.tscErrorFiles.join('\n')}`).toEqual(expected);
  for (const f of r.tscErrorFiles) expect(named(r)).toContain(f);
}

const summary = (r: StepResult) => /✔ (.*)/.exec(r.out)?.[1];

describe('a project, regenerated through its life', () => {
  beforeAll(async () => {
    const parent = scratch('scenario');
    const io = memoryIO(parent);
    expect(await runCli(['init', 'app'], io), io.err).toBe(0);
    dir = path.join(parent, 'app');
  });

  it('1. starts type-checking, untouched', async () => {
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, 0 updated, 0 removed, \d+ unchanged/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('2. keeps a hand-written handler', async () => {
    write(
      'src/handlers/tools/greet.ts',
      `import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['greet'] = ({ name, excited }) => ({\n  greeting: \`Hello, \${name}\${excited ? '!' : '.'}\`,\n});\n`,
    );
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, 0 updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('3. adds a tool: a stub and a test stub appear', async () => {
    editManifest((d) =>
      d.setIn(
        ['tools', 'add'],
        d.createNode({
          description: 'Add two numbers',
          input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
          output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
          annotations: { readOnlyHint: true },
        }),
      ),
    );
    const r = await regenerate();
    expect(r.out).toContain('create    src/handlers/tools/add.ts');
    expect(r.out).toContain('create    test/handlers/tools/add.test.ts');
    expect(summary(r)).toMatch(/^2 created, [1-9]\d* updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('4. implements the new tool by hand', async () => {
    write(
      'src/handlers/tools/add.ts',
      `import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['add'] = ({ a, b }) => ({ sum: a + b });\n`,
    );
    write(
      'test/handlers/tools/add.test.ts',
      `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { testContext } from '@mcpgen/runtime';\nimport { handler } from '../../../src/handlers/tools/add.js';\n\ntest('adds', async () => {\n  assert.deepEqual(await handler({ a: 1, b: 2 }, testContext()), { sum: 3 });\n});\n`,
    );
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, 0 updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('5. changes the tool input: the handler and its test are named, and only they fail', async () => {
    editManifest((d) => {
      d.setIn(['tools', 'add', 'input', 'properties'], d.createNode({ a: { type: 'number' }, c: { type: 'number' } }));
      d.setIn(['tools', 'add', 'input', 'required'], d.createNode(['a', 'c']));
    });
    const r = await regenerate();
    expect(r.err).toContain(
      '! contract changed: tool add (input) → update src/handlers/tools/add.ts and test/handlers/tools/add.test.ts',
    );
    expectTypeErrorsOnlyIn(r, ['src/handlers/tools/add.ts', 'test/handlers/tools/add.test.ts']);
  });

  it('6. the user fixes the handler and its test', async () => {
    write(
      'src/handlers/tools/add.ts',
      readFileSync(path.join(dir, 'src/handlers/tools/add.ts'), 'utf8').replace(
        '({ a, b }) => ({ sum: a + b })',
        '({ a, c }) => ({ sum: a + c })',
      ),
    );
    write(
      'test/handlers/tools/add.test.ts',
      readFileSync(path.join(dir, 'test/handlers/tools/add.test.ts'), 'utf8').replace(
        '{ a: 1, b: 2 }',
        '{ a: 1, c: 2 }',
      ),
    );
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, 0 updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('7. renames a tool: new stubs, the old handler is reported as orphaned and kept', async () => {
    editManifest((d) => {
      const greet = d.getIn(['tools', 'greet']);
      d.deleteIn(['tools', 'greet']);
      d.setIn(['tools', 'hello'], greet);
    });
    const r = await regenerate();
    expect(r.out).toContain('create    src/handlers/tools/hello.ts');
    expect(r.err).toContain('! src/handlers/tools/greet.ts is no longer used by the manifest; it was kept');
    expect(r.err).toContain('! test/handlers/tools/greet.test.ts is no longer used by the manifest; it was kept');
    expect(existsSync(path.join(dir, 'src/handlers/tools/greet.ts'))).toBe(true);
    // The test stub imports the orphan, so only the orphan itself fails to compile.
    expectTypeErrorsOnlyIn(r, ['src/handlers/tools/greet.ts']);
  });

  it('8. the user moves the code to the new handler and deletes the orphans', async () => {
    write(
      'src/handlers/tools/hello.ts',
      readFileSync(path.join(dir, 'src/handlers/tools/greet.ts'), 'utf8').replace(
        "ToolHandlers['greet']",
        "ToolHandlers['hello']",
      ),
    );
    remove('src/handlers/tools/greet.ts');
    remove('test/handlers/tools/greet.test.ts');
    const r = await regenerate();
    expect(r.err).not.toContain('no longer used');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('9. adds a static text resource: generated code only', async () => {
    editManifest((d) =>
      d.setIn(['resources', 'motd'], d.createNode({ uri: 'info://motd', mimeType: 'text/plain', text: 'Hello' })),
    );
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, [1-9]\d* updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('10. adds a dynamic resource: a stub appears', async () => {
    editManifest((d) =>
      d.setIn(
        ['resources', 'clock'],
        d.createNode({ uri: 'info://clock', mimeType: 'text/plain', description: 'The time' }),
      ),
    );
    const r = await regenerate();
    expect(r.out).toContain('create    src/handlers/resources/clock.ts');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('11. turns the static resource into a file-backed one', async () => {
    write('motd.txt', 'Message of the day\n');
    editManifest((d) => {
      d.deleteIn(['resources', 'motd', 'text']);
      d.setIn(['resources', 'motd', 'file'], './motd.txt');
    });
    const r = await regenerate();
    expect(r.out).toContain('update    src/generated/content.ts');
    expect(readFileSync(path.join(dir, 'src/generated/content.ts'), 'utf8')).toContain('Message of the day');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('12. removes the dynamic resource: its handler and the test of it are orphaned, and compile no more', async () => {
    mkdirSync(path.join(dir, 'test/handlers/resources'), { recursive: true });
    write(
      'test/handlers/resources/clock.test.ts',
      "import { read } from '../../../src/handlers/resources/clock.js';\nexport const reads = read;\n",
    );
    editManifest((d) => d.deleteIn(['resources', 'clock']));
    const r = await regenerate();
    expect(r.err).toContain('! src/handlers/resources/clock.ts is no longer used by the manifest');
    expect(r.err).toContain('! test/handlers/resources/clock.test.ts is no longer used by the manifest');
    expectTypeErrorsOnlyIn(r, ['src/handlers/resources/clock.ts']);
    remove('src/handlers/resources/clock.ts');
    remove('test/handlers/resources/clock.test.ts');
  });

  it('13. adds a template with list and a completion handler', async () => {
    editManifest((d) =>
      d.setIn(
        ['resourceTemplates', 'user'],
        d.createNode({
          uriTemplate: 'users://{id}/profile',
          mimeType: 'application/json',
          params: { id: { type: 'string', pattern: '^[0-9]+$', examples: ['1'] } },
          complete: { id: 'handler' },
          list: true,
        }),
      ),
    );
    const r = await regenerate();
    expect(r.out).toContain('create    src/handlers/templates/user.ts');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('14. implements the template by hand', async () => {
    write(
      'src/handlers/templates/user.ts',
      `import type { TemplateHandlers } from '../../generated/handlers.js';\n\nconst users = ['1', '2', '10'];\n\nexport const read: TemplateHandlers['user']['read'] = ({ id }) => JSON.stringify({ id });\nexport const list: TemplateHandlers['user']['list'] = () => users.map((id) => ({ uri: \`users://\${id}/profile\`, name: \`user \${id}\` }));\nexport const complete: TemplateHandlers['user']['complete'] = { id: (value) => users.filter((u) => u.startsWith(value)) };\n`,
    );
    const r = await regenerate();
    expect(summary(r)).toMatch(/^0 created, 0 updated, 0 removed/);
    expectTypeErrorsOnlyIn(r, []);
  });

  it('15. renames a template variable: named, and only that handler fails', async () => {
    editManifest((d) => {
      d.setIn(['resourceTemplates', 'user', 'uriTemplate'], 'users://{userId}/profile');
      d.setIn(['resourceTemplates', 'user', 'params'], d.createNode({ userId: { type: 'string', examples: ['1'] } }));
      d.setIn(['resourceTemplates', 'user', 'complete'], d.createNode({ userId: 'handler' }));
    });
    const r = await regenerate();
    expect(r.err).toContain(
      '! contract changed: template user (params, complete) → update src/handlers/templates/user.ts',
    );
    expectTypeErrorsOnlyIn(r, ['src/handlers/templates/user.ts']);
    write(
      'src/handlers/templates/user.ts',
      readFileSync(path.join(dir, 'src/handlers/templates/user.ts'), 'utf8')
        .replace('({ id }) => JSON.stringify({ id })', '({ userId }) => JSON.stringify({ id: userId })')
        .replace('{ id: (value)', '{ userId: (value)'),
    );
  });

  it('16. drops the list handler from the manifest: named, and the stale export fails there', async () => {
    editManifest((d) => d.setIn(['resourceTemplates', 'user', 'list'], false));
    const r = await regenerate();
    expect(r.err).toContain('! contract changed: template user (list) → update src/handlers/templates/user.ts');
    expectTypeErrorsOnlyIn(r, ['src/handlers/templates/user.ts']);
    const file = 'src/handlers/templates/user.ts';
    write(file, readFileSync(path.join(dir, file), 'utf8').replace(/^export const list.*\n/m, ''));
  });

  it('17. adds a prompt rendered by a handler', async () => {
    editManifest((d) =>
      d.setIn(
        ['prompts', 'summarize'],
        d.createNode({
          description: 'Summarize a text',
          arguments: { text: { description: 'The text', required: true } },
        }),
      ),
    );
    const r = await regenerate();
    expect(r.out).toContain('create    src/handlers/prompts/summarize.ts');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('18. turns the prompt declarative: the handler file is no longer needed', async () => {
    editManifest((d) =>
      d.setIn(['prompts', 'summarize', 'messages'], d.createNode([{ role: 'user', text: 'Summarize: {{text}}' }])),
    );
    const r = await regenerate();
    // The entry is still there: the orphan is named for what it is, with no rename hinted.
    expect(r.err).toContain(
      '! src/handlers/prompts/summarize.ts: prompt summarize has static messages now (messages:), so this handler is not used; delete it, or remove messages: to serve it again\n',
    );
    expect(r.err).not.toContain('no longer used');
    expectTypeErrorsOnlyIn(r, ['src/handlers/prompts/summarize.ts']);
    remove('src/handlers/prompts/summarize.ts');
  });

  it('19. a hand edit of generated code is put back; a stray generated file is removed', async () => {
    write(
      'src/generated/server.ts',
      `${readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')}\n// hand edit\n`,
    );
    write('src/generated/stray.ts', '// Code generated by mcpgen. DO NOT EDIT.\nexport {};\n');
    const r = await regenerate();
    expect(r.out).toContain('update    src/generated/server.ts');
    expect(r.out).toContain('remove    src/generated/stray.ts');
    expect(readFileSync(path.join(dir, 'src/generated/server.ts'), 'utf8')).not.toContain('// hand edit');
    expectTypeErrorsOnlyIn(r, []);
  });

  it('20. removes most entries: orphans named, nothing of the user deleted', async () => {
    editManifest((d) => {
      d.deleteIn(['tools', 'hello']);
      d.deleteIn(['resourceTemplates', 'user']);
      d.deleteIn(['resourceTemplates', 'greeting']);
    });
    const r = await regenerate();
    expect(existsSync(path.join(dir, 'src/handlers/tools/hello.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/handlers/templates/user.ts'))).toBe(true);
    expectTypeErrorsOnlyIn(r, [
      'src/handlers/templates/greeting.ts',
      'src/handlers/templates/user.ts',
      'src/handlers/tools/hello.ts',
    ]);
  });

  it('21. after cleaning up: type-checks, its own tests pass, and regenerating is a no-op', async () => {
    for (const f of [
      'src/handlers/tools/hello.ts',
      'test/handlers/tools/hello.test.ts',
      'src/handlers/templates/user.ts',
      'src/handlers/templates/greeting.ts',
    ])
      remove(f);
    const r = await regenerate();
    expectTypeErrorsOnlyIn(r, []);
    const again = await regenerate();
    expect(summary(again)).toMatch(/^0 created, 0 updated, 0 removed/);
    const build = await run(TSC, ['-p', 'tsconfig.json'], dir);
    expect(build.code).toBe(0);
    const tests = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(tests.code, tests.stdout.slice(-3000)).toBe(0);
  });
});
