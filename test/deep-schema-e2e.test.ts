/**
 * Schemas the TypeScript compiler cannot type as literals, and defaults their schema rejects: the
 * generated project still compiles (real tsc) and its server validates as declared (real client).
 * - test/cases/deep-schema: arrays 55 levels deep, an object 50 levels deep through inlined shared schemas (TS2321 without the fix);
 * - objects 150 levels deep, through a JSON-built manifest (deeper than the YAML loader may allow);
 * - test/cases/invalid-schema-default: required properties whose defaults are invalid, which the
 *   handler test's sample must not use (its cast would not compile).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { buildFiles } from '../cli/build.js';
import { loadManifest } from '../cli/load/index.js';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, run, scratch } from './helpers/project.js';

/** `{ o<n>: { o<n-1>: … { leaf } } }`, the value the deep-schema case's objects describe. */
function nestedValue(levels: number, leaf: unknown): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf };
  for (let i = 1; i <= levels; i++) v = { [`o${i}`]: v };
  return v;
}

function nestedArray(levels: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

async function compile(dir: string): Promise<void> {
  const r = await buildServer(dir);
  expect(r.stdout + r.stderr).toBe('');
}

describe('deep-schema end to end', () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = scratch('deep-schema', path.join(REPO, 'test/cases/deep-schema'));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    await compile(dir);
    client = await connectStdio(dir);
  }, 300_000);
  afterAll(async () => client?.close());

  it('passes its own tests (tools/list deep-equals the manifest)', async () => {
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
  }, 180_000);

  it('validates input at every level', async () => {
    const call = (args: Record<string, unknown>) => client.callTool({ name: 'deep', arguments: args });
    const ok = await call({ ...nestedValue(50, 'x'), grid: nestedArray(55, 1) });
    // Valid input reaches the stub.
    expect(JSON.stringify(ok)).toMatch(/not implemented/);
    expect(JSON.stringify(await call(nestedValue(50, 1)))).toMatch(/validation/i);
    expect(JSON.stringify(await call({ ...nestedValue(50, 'x'), grid: nestedArray(55, 'one') }))).toMatch(
      /validation/i,
    );
  });
});

describe('generated code compiles', () => {
  it('for objects nested 150 levels deep (JSON-built manifest)', async () => {
    const dir = scratch('deep-schema-150');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), 'version: 1\n');
    const { manifest } = loadManifest(path.join(dir, 'mcpgen.yaml'));
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 1; i <= 150; i++) schema = { type: 'object', properties: { [`o${i}`]: schema }, required: [`o${i}`] };
    manifest!.data = {
      version: 1,
      server: { name: 'deep-150', version: '1.0.0' },
      transports: { stdio: {} },
      tools: { deep: { description: 'Deep input and output', input: schema, output: schema } },
    };
    const built = await buildFiles(manifest!, {
      manifest: path.join(dir, 'mcpgen.yaml'),
      outDir: dir,
      generatorVersion: null,
    });
    expect(built.diagnostics).toEqual([]);
    for (const f of built.files!) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.content);
    }
    await compile(dir);
  }, 300_000);

  it('for defaults their schema rejects (invalid-schema-default)', async () => {
    const dir = scratch('invalid-schema-default', path.join(REPO, 'test/cases/invalid-schema-default'));
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    await compile(dir);
    const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
    expect(r.code, r.stdout.slice(-4000)).toBe(0);
  }, 300_000);
});
