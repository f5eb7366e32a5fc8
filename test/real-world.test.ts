/**
 * Real-world round trip: each folder of test/real-world holds the interface a real MCP
 * server lists (source.json: its tools/list, resources/list, resources/templates/list and
 * prompts/list entries, and its serverInfo where known; SOURCE.md says where each came from) and a
 * manifest transcribed from it by hand (mcpgen.yaml). Each manifest must validate without errors,
 * generate, type-check with tsc, and serve over stdio, to a real client of either protocol era,
 * exactly those entries: the same names, titles, descriptions, schemas, annotations, icons, _meta,
 * URIs, MIME types and prompt arguments, compared key by key against source.json.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO, run, scratch, SCRATCH, TSC } from './helpers/project.js';

const ROOT = path.join(REPO, 'test/real-world');
const servers = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Entry = Record<string, unknown> & { name: string };
interface Source {
  serverInfo?: Record<string, unknown>;
  /** The initialize result's capabilities, where the listing was captured from the running server. */
  capabilities?: Record<string, unknown>;
  instructions?: string;
  tools: Entry[];
  resources: Entry[];
  resourceTemplates: Entry[];
  prompts: Entry[];
}

interface Listed {
  serverInfo: Record<string, unknown> | undefined;
  instructions: string | undefined;
  capabilities: Record<string, unknown>;
  tools: Entry[];
  resources: Entry[];
  resourceTemplates: Entry[];
  prompts: Entry[];
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Every difference between what the server declares and what was served, as `path: expected …, got …`. */
function differences(expected: unknown, actual: unknown, at: string): string[] {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [`${at}: expected ${show(expected)}, got ${show(actual)}`];
    return expected.flatMap((e, i) => differences(e, actual[i], `${at}[${i}]`));
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return keys.flatMap((k) => {
      const sub = `${at}.${k}`;
      if (!(k in actual)) return [`${sub}: expected ${show(expected[k])}, not served`];
      if (!(k in expected)) return [`${sub}: not declared, served ${show(actual[k])}`];
      return differences(expected[k], actual[k], sub);
    });
  }
  return Object.is(expected, actual) ? [] : [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Compares two listings entry by entry, matched by `key` (listing order is not part of the interface). */
function compareEntries(kind: string, expected: Entry[], actual: Entry[], key: 'name' | 'uri' = 'name'): string[] {
  const id = (e: Entry) => String(e[key]);
  const served = new Map(actual.map((e) => [id(e), e]));
  const out: string[] = [];
  for (const e of expected) {
    const a = served.get(id(e));
    if (!a) out.push(`${kind}[${id(e)}]: declared, not served`);
    else out.push(...differences(e, a, `${kind}[${id(e)}]`));
    served.delete(id(e));
  }
  for (const extra of served.keys()) out.push(`${kind}[${extra}]: not declared, served`);
  return out;
}

async function pages<T>(
  list: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>,
  key: string,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    all.push(...(page[key] as T[]));
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** Lists every primitive (all pages) the server advertises a capability for. */
async function listAll(client: Client): Promise<Listed> {
  const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, unknown>;
  const c = (cursor?: string) => (cursor ? { cursor } : undefined);
  return {
    serverInfo: client.getServerVersion() as Record<string, unknown> | undefined,
    instructions: client.getInstructions(),
    capabilities,
    tools: capabilities.tools ? await pages<Entry>((cur) => client.listTools(c(cur)), 'tools') : [],
    resources: capabilities.resources ? await pages<Entry>((cur) => client.listResources(c(cur)), 'resources') : [],
    resourceTemplates: capabilities.resources
      ? await pages<Entry>((cur) => client.listResourceTemplates(c(cur)), 'resourceTemplates')
      : [],
    prompts: capabilities.prompts ? await pages<Entry>((cur) => client.listPrompts(c(cur)), 'prompts') : [],
  };
}

interface Built {
  dir: string;
  validate: { code: number; out: string };
  generate: { code: number; out: string };
}

/** Validates and generates one server's manifest into a scratch project. */
async function build(name: string): Promise<Built> {
  const dir = scratch(`real-world/${name}`, path.join(ROOT, name));
  const vio = memoryIO(dir);
  const vcode = await runCli(['validate'], vio);
  const gio = memoryIO(dir);
  const gcode = vcode === 0 ? await runCli(['generate', '-q'], gio) : -1;
  return { dir, validate: { code: vcode, out: vio.out + vio.err }, generate: { code: gcode, out: gio.out + gio.err } };
}

/**
 * Type-checks and compiles every generated project in one tsc program with the projects' own
 * compiler options (they are the same for every project, which this checks): the SDK's types are
 * loaded once rather than once per project. Returns each project's diagnostics.
 */
async function compileAll(root: string, projects: string[]): Promise<Map<string, string>> {
  const configs = projects.map(
    (p) =>
      JSON.parse(readFileSync(path.join(root, p, 'tsconfig.json'), 'utf8')) as {
        compilerOptions: Record<string, unknown>;
        include: string[];
      },
  );
  for (const c of configs) expect(c).toEqual(configs[0]);
  const { compilerOptions, include } = configs[0]!;
  const combined = {
    compilerOptions: { ...compilerOptions, rootDir: '.', outDir: 'dist' },
    include: projects.flatMap((p) => include.map((i) => `${p}/${i}`)),
  };
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify(combined, null, 2));
  const r = await run(TSC, ['-p', 'tsconfig.json'], root);
  // Each project is an ES module package (its package.json says so); the combined output is too.
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist/package.json'), '{ "type": "module" }\n');
  const output = new Map(projects.map((p) => [p, '']));
  for (const line of (r.stdout + r.stderr).split('\n').filter(Boolean)) {
    const owner = projects.find((p) => line.startsWith(`${p}/`)) ?? projects[0]!;
    output.set(owner, `${output.get(owner)}${line}\n`);
  }
  if (r.code !== 0 && [...output.values()].every((o) => o === ''))
    for (const p of projects) output.set(p, `tsc exited with ${r.code}`);
  return output;
}

async function connect(main: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: 'mcpgen-real-world', version: '0.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'pipe' }));
  return client;
}

/** Runs `task` over `items`, at most `limit` at a time (the machine's cores are shared). */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * `execution.taskSupport` (SDK 1.x servers add `forbidden` to every tool, the everything server's
 * research tool says `required`) is a 2025-11-25 field: 2026-07-28 has none (the tasks extension
 * moved it out of the tool), so a 2026 client lists every such tool without it, and nothing else.
 */
const NOT_ON_2026 =
  /^tools\[[^\]]+\]\.execution: expected \{"taskSupport":"(?:forbidden|optional|required)"\}, not served$/;

const built = new Map<string, Built>();
const compiled = new Map<string, string>();
/** What each server listed, or why listing failed (reported by that server's tests, not the whole file). */
const listed = new Map<string, { legacy: Listed; modern: Listed } | Error>();

beforeAll(async () => {
  scratch('real-world');
  for (const s of servers) built.set(s, await build(s));
  const generated = servers.filter((s) => built.get(s)!.generate.code === 0);
  const root = path.join(SCRATCH, 'real-world');
  for (const [s, out] of await compileAll(root, generated)) compiled.set(s, out);
  await pool(generated, 3, async (s) => {
    const main = path.join(root, 'dist', s, 'src/main.js');
    if (compiled.get(s) !== '' || !existsSync(main)) return;
    try {
      const both: Listed[] = [];
      for (const modern of [false, true]) {
        const client = await connect(main, modern);
        try {
          both.push(await listAll(client));
        } finally {
          await client.close();
        }
      }
      listed.set(s, { legacy: both[0]!, modern: both[1]! });
    } catch (e) {
      listed.set(s, e instanceof Error ? e : new Error(String(e)));
    }
  });
}, 180_000);

it('has real-world servers to check', () => {
  expect(servers.length).toBeGreaterThanOrEqual(5);
  for (const s of servers) {
    for (const f of ['mcpgen.yaml', 'source.json', 'SOURCE.md'])
      expect(existsSync(path.join(ROOT, s, f)), `${s}/${f}`).toBe(true);
  }
});

describe.each(servers)('%s', (name) => {
  const source = (): Source => JSON.parse(readFileSync(path.join(ROOT, name, 'source.json'), 'utf8')) as Source;
  const served = (era: 'legacy' | 'modern'): Listed => {
    const l = listed.get(name);
    if (!l) throw new Error(`${name} was not served (see the validate, generate and tsc tests)`);
    if (l instanceof Error) throw new Error(`${name}: listing failed: ${l.message}`);
    return l[era];
  };

  it('validates without errors (warnings allowed)', () => {
    const v = built.get(name)!.validate;
    expect(v.out).not.toMatch(/ error MCPG/);
    expect(v.code, v.out).toBe(0);
  });

  it('generates and type-checks with tsc --strict', () => {
    const b = built.get(name)!;
    expect(b.generate.code, b.generate.out).toBe(0);
    expect(compiled.get(name)).toBe('');
  });

  describe.each(['legacy', 'modern'] as const)('served to a %s client', (era) => {
    it('tools/list: every tool as declared', () => {
      const diffs = compareEntries('tools', source().tools, served(era).tools);
      if (era === 'legacy') return void expect(diffs).toEqual([]);
      expect(diffs.filter((d) => !NOT_ON_2026.test(d))).toEqual([]);
      expect(diffs.filter((d) => NOT_ON_2026.test(d)).length).toBe(
        source().tools.filter((t) => 'execution' in t).length,
      );
    });

    it('resources/list: every resource as declared', () => {
      expect(compareEntries('resources', source().resources, served(era).resources, 'uri')).toEqual([]);
    });

    it('resources/templates/list: every template as declared', () => {
      expect(compareEntries('resourceTemplates', source().resourceTemplates, served(era).resourceTemplates)).toEqual(
        [],
      );
    });

    it('prompts/list: every prompt as declared', () => {
      expect(compareEntries('prompts', source().prompts, served(era).prompts)).toEqual([]);
    });

    it('answers the same list methods (tools, resources, prompts and completions capabilities)', () => {
      const s = source();
      const caps = served(era).capabilities;
      const kinds = ['tools', 'resources', 'prompts', 'completions'] as const;
      // Without a captured initialize result, the capability follows from what is declared.
      const declared = s.capabilities ?? {
        ...(s.tools.length ? { tools: {} } : {}),
        ...(s.resources.length + s.resourceTemplates.length ? { resources: {} } : {}),
        ...(s.prompts.length ? { prompts: {} } : {}),
      };
      const diffs = kinds
        .filter((k) => (s.capabilities || k !== 'completions') && k in declared !== k in caps)
        .map(
          (k) =>
            `capabilities.${k}: ${k in declared ? `declared ${show(declared[k])}, not advertised` : `not declared, advertised ${show(caps[k])}`}`,
        );
      expect(diffs).toEqual([]);
    });

    it('serverInfo and instructions as declared', () => {
      const s = source();
      const got = served(era);
      const diffs = s.serverInfo ? differences(s.serverInfo, got.serverInfo, 'serverInfo') : [];
      if (s.instructions !== undefined) diffs.push(...differences(s.instructions, got.instructions, 'instructions'));
      expect(diffs).toEqual([]);
    });
  });
});
