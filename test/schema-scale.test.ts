/**
 * Scale: scripts/synthetic-schemas.mjs (schema-heavy tools: 5-20 KB input schemas of nested
 * `$defs`) at a CI-sized count: the manifest generates, type-checks with tsc --strict, and serves
 * every schema as declared. The full size (500 tools) is measured by the benchmark suite.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generate } from '../cli/generate.js';
import type { IR } from '../cli/normalize/ir.js';
import { runCli } from '../cli/main.js';
import { connectStdio, memoryIO, run, scratch, TSC } from './helpers/project.js';
// @ts-expect-error plain ESM script without types
import { schemaHeavyManifest } from '../scripts/synthetic-schemas.mjs';

const TOOLS = 6;

describe(`synthetic schema-heavy manifest (${TOOLS} tools)`, () => {
  let dir: string;
  let ir: IR;
  let client: Client | undefined;

  beforeAll(async () => {
    dir = scratch('schema-scale');
    const text = (schemaHeavyManifest as (n: number, o?: object) => string)(TOOLS, { seed: 7 });
    writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    ir = (await generate({ manifest: path.join(dir, 'mcpgen.yaml'), outDir: dir })).ir!;
  }, 180_000);
  afterAll(async () => client?.close());

  it('has the promised shape: 5-20 KB input schemas of nested $defs', () => {
    expect(ir.tools).toHaveLength(TOOLS);
    for (const t of ir.tools) {
      const raw = JSON.stringify(t.inputRaw).length;
      expect(raw).toBeGreaterThanOrEqual(5 * 1024);
      expect(raw).toBeLessThanOrEqual(20 * 1024);
      expect(Object.keys(t.inputRaw!.$defs as object).length).toBeGreaterThan(2);
    }
  });

  it('type-checks with tsc --strict', async () => {
    const r = await run(TSC, ['-p', 'tsconfig.json'], dir, 300_000);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 300_000);

  it('serves every schema as declared and validates against it', async () => {
    client = await connectStdio(dir);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(ir.tools.map((t) => t.name));
    for (const t of ir.tools) expect(tools.find((l) => l.name === t.name)!.inputSchema).toEqual(t.inputSchema);
    const bad = await client
      .callTool({ name: ir.tools[0]!.name, arguments: { request_id: 'not-a-uuid', body: {} } })
      .catch((e: Error) => e);
    expect(JSON.stringify(bad instanceof Error ? bad.message : bad)).toMatch(/validation/i);
  }, 120_000);
});
