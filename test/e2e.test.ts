/**
 * End to end: generate real projects, compile them with tsc (strict), run their own tests, and
 * talk to the built servers over stdio and over HTTP on 127.0.0.1 with the real MCP client:
 * list everything, call each tool, read each resource, get each prompt, complete an argument.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generate } from '../cli/generate.js';
import type { IR } from '../cli/normalize/ir.js';
import { runCli } from '../cli/main.js';
import { validSample } from '../cli/normalize/samples.js';
import {
  buildServer,
  connectHttp,
  connectStdio,
  memoryIO,
  REPO,
  run,
  scratch,
  SCRATCH,
  startHttpServer,
} from './helpers/project.js';

const projects = [
  { name: 'weather', from: path.join(REPO, 'examples/weather') },
  { name: 'notes', from: path.join(REPO, 'examples/notes') },
  { name: 'kitchen-sink', from: path.join(REPO, 'test/cases/kitchen-sink') },
  { name: 'minimal', from: path.join(REPO, 'test/cases/minimal'), stdioOnly: true },
  { name: 'stdio-only', from: path.join(REPO, 'test/cases/stdio-only'), stdioOnly: true },
  // Its contract test reads every template at a URI of one sample item of each list variable.
  { name: 'list-variables', from: path.join(REPO, 'test/cases/list-variables'), stdioOnly: true },
  // Its contract test reads a template of each RFC 6570 operator, several variables in one expression too.
  { name: 'template-operators', from: path.join(REPO, 'test/cases/template-operators'), stdioOnly: true },
];

/** Exercises every primitive of the manifest through a connected client. */
async function exercise(client: Client, ir: IR): Promise<void> {
  const tools = (await client.listTools()).tools;
  expect(tools.map((t) => t.name)).toEqual(ir.tools.map((t) => t.name));
  for (const t of ir.tools) {
    const args = t.inputSchema ? validSample(t.inputSchema) : {};
    if (args === undefined) continue;
    const result = await client.callTool({ name: t.name, arguments: args as Record<string, unknown> });
    // A handler may refuse the sample (isError), but never with a validation or protocol error.
    expect(JSON.stringify(result)).not.toMatch(/Input validation error|Output validation error/);
  }
  const listed = new Set((await client.listResources()).resources.map((r) => r.uri));
  for (const r of ir.resources) {
    expect(listed.has(r.uri)).toBe(true);
    const read = await client.readResource({ uri: r.uri }).catch((e: Error) => e);
    if (read instanceof Error) expect(read.message).toMatch(/not implemented/);
    else expect(read.contents[0]?.uri).toBe(r.uri);
  }
  expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(
    ir.templates.map((t) => t.name),
  );
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(ir.prompts.map((p) => p.name));
  for (const p of ir.prompts) {
    const args = validSample(p.argsSchema) as Record<string, string> | undefined;
    const got = await client.getPrompt({ name: p.name, arguments: args ?? {} }).catch((e: Error) => e);
    if (got instanceof Error) expect(got.message).toMatch(/not implemented/);
    else expect(got.messages.length).toBeGreaterThan(0);
  }
  const completable = ir.prompts.flatMap((p) => p.args.filter((a) => a.completion).map((a) => ({ p, a })))[0];
  if (completable) {
    const c = await client.complete({
      ref: { type: 'ref/prompt', name: completable.p.name },
      argument: { name: completable.a.name, value: '' },
    });
    expect(Array.isArray(c.completion.values)).toBe(true);
  }
}

describe.each(projects)('project $name', ({ name, from, stdioOnly }) => {
  let dir: string;
  let ir: IR;

  beforeAll(async () => {
    dir = scratch(name, from);
    const io = memoryIO(dir);
    const code = await runCli(['generate', '-q'], io);
    expect(code, io.err).toBe(0);
    const result = await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir });
    ir = result.ir!;
  });

  it('type-checks with tsc --strict, untouched', async () => {
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(dir, 'dist/src/main.js'))).toBe(true);
  });

  it('passes its own tests (node --test)', async () => {
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
    expect(r.stdout).toMatch(/^[#ℹ] fail 0$/m);
  });

  it('serves every primitive over stdio (2025 and 2026-07-28 clients)', async () => {
    for (const modern of [false, true]) {
      const client = await connectStdio(dir, modern);
      try {
        await exercise(client, ir);
      } finally {
        await client.close();
      }
    }
  });

  describe.skipIf(stdioOnly)('over HTTP on 127.0.0.1', () => {
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: this describe's own server, after the project's build above
    beforeAll(async () => {
      server = await startHttpServer(dir);
    });
    afterAll(() => server?.stop());

    it('serves every primitive (2025 and 2026-07-28 clients)', async () => {
      expect(server.url.hostname).toBe('127.0.0.1');
      for (const modern of [false, true]) {
        const client = await connectHttp(server.url, modern);
        try {
          await exercise(client, ir);
        } finally {
          await client.close();
        }
      }
    });
  });
});

describe('a stdio-only server', () => {
  const dir = () => path.join(SCRATCH, 'stdio-only');

  it('holds its tool and nothing of HTTP: no HTTP entry, package or flag', () => {
    const generated = readdirSync(path.join(dir(), 'src/generated')).sort();
    expect(generated).toEqual(['contracts.json', 'handlers.ts', 'schemas.ts', 'server.ts', 'types.ts']);
    expect(readdirSync(path.join(dir(), 'test/generated'))).toEqual(['contract.test.ts']);
    const pkg = JSON.parse(readFileSync(path.join(dir(), 'package.json'), 'utf8')) as {
      dependencies: object;
      scripts: object;
    };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@mcpgen/runtime', '@modelcontextprotocol/server']);
    expect(Object.keys(pkg.scripts)).not.toContain('start:http');
    const code = ['src/main.ts', ...generated.map((f) => `src/generated/${f}`), 'test/generated/contract.test.ts'];
    for (const file of code)
      expect(readFileSync(path.join(dir(), file), 'utf8'), file).not.toMatch(
        /runtime\/http|generated\/http|node:http|--http|StreamableHTTP/,
      );
  });

  it('refuses --http with its usage, exit 2', async () => {
    const r = await run(process.execPath, ['dist/src/main.js', '--http'], dir());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'stdio-only: unknown argument --http\nusage: stdio-only   (speaks MCP over stdin and stdout)\n',
    );
  });
});

describe('committed examples', () => {
  it.each(['weather', 'notes'])('examples/%s is up to date with its manifest (generate --check)', async (name) => {
    const io = memoryIO(REPO);
    const code = await runCli(['generate', '--check', '-f', `examples/${name}/mcpgen.yaml`], io);
    expect(io.out + io.err).toContain('up to date');
    expect(code).toBe(0);
  });
});
