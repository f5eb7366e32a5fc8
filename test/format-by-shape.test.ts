/**
 * Formatting by shape (cli/format/mask.ts, sections.ts) and printed data (splice.ts, literal.ts)
 * must give exactly what prettier gives on the plain rendered text. Checked on the golden cases
 * and on a manifest whose names, titles and descriptions take every width and awkward form, so
 * prettier's line breaking (long names, long paths) is exercised on both paths.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generate } from '../cli/generate.js';
import { formatFile } from '../cli/format/format.js';
import { collapseSections, fillSections, withSections } from '../cli/format/sections.js';
import { spliceData, withJson } from '../cli/format/splice.js';
import { unmask } from '../cli/format/mask.js';
import { loadManifest } from '../cli/load/load.js';
import { normalize } from '../cli/normalize/normalize.js';
import { renderFiles } from '../cli/render/render.js';
import { REPO } from './helpers/project.js';

/** Every file the slow way: the whole rendered text, data as JSON, through prettier. */
async function plainWay(manifest: string): Promise<Map<string, string>> {
  const { manifest: m } = loadManifest(manifest);
  const { ir } = normalize(m!, { manifestPath: 'mcpgen.yaml', generatorVersion: null });
  const out = new Map<string, string>();
  for (const f of renderFiles(ir!)) {
    // The fast path must really be taken: every stub is printed as it stands (its template's
    // layout, test/print-final-rest.test.ts), every section fits its file.
    if (f.owner === 'user' && f.path.includes('handlers/')) expect(f.formatted, f.path).toBe(true);
    if (f.sections) {
      const skeleton = await formatFile(f.path, collapseSections(f.content));
      const filled = await fillSections(f.data ? spliceData(skeleton, f.data)! : skeleton, f.sections, (c) => formatFile(f.path, c), (c) => formatFile(f.path, c));
      expect(filled, f.path).not.toBeNull();
      expect(f.sections.every((x) => x.shape !== null || x.kind === 'verbatim' || x.kind === 'printed'), f.path).toBe(true);
    }
    const text = withJson(f.sections ? withSections(f.content, f.sections) : f.content, f.data ?? []);
    out.set(f.path, await formatFile(f.path, text));
  }
  return out;
}

async function expectSameAsPlain(manifest: string) {
  const outDir = path.dirname(manifest);
  const fast = await generate({ manifest, outDir, generatorVersion: null, formatCache: false });
  expect(fast.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const plain = await plainWay(manifest);
  expect(fast.files.map((f) => f.path).sort()).toEqual([...plain.keys()].sort());
  for (const f of fast.files) expect(f.content, f.path).toBe(plain.get(f.path));
}

/** Names of widths 1–90 and of every kind a manifest allows: hyphens, dots, digits first, reserved words. */
function awkwardManifest({ overlong = true } = {}): string {
  const tools: Record<string, unknown> = {};
  const names = ['a', 'class', 'default', '1st', 'get-user', 'x.y', ...(overlong ? [`max-${'m'.repeat(124)}`] : [])];
  for (let w = 2; w <= 90; w += 3) names.push(`t${'x'.repeat(w - 2)}${w % 2 ? '-' : '_'}`);
  for (const [i, name] of names.entries()) {
    tools[name] = {
      description: i % 3 ? `Does thing ${i} with a */ comment end, "quotes" and 'apostrophes' and ünïcödé` : `Short ${i}`,
      ...(i % 4 === 1 ? { title: `Title ${'long '.repeat(i % 9)}` } : {}),
      input: {
        type: 'object',
        properties: {
          [`${'p'.repeat(1 + (i % 40))}`]: { type: 'string', description: 'A property with a long description '.repeat(1 + (i % 3)) },
          'with-dash': { type: 'integer', minimum: 0 },
          nested: { type: 'object', properties: { deep: { type: 'array', items: { type: 'number' } } } },
        },
        required: i % 2 ? ['with-dash'] : [],
      },
      ...(i % 2 ? { output: { type: 'object', properties: { ok: { type: 'boolean' } } } } : {}),
    };
  }
  const resources: Record<string, unknown> = {};
  const templates: Record<string, unknown> = {};
  const prompts: Record<string, unknown> = {};
  for (let w = 1; w <= 70; w += 7) {
    const n = `r${'y'.repeat(w)}`;
    resources[n] = { uri: `test://${n}`, description: `Resource ${w}` };
    templates[`${n}-tpl`] = { uriTemplate: `test://t/${n}/{id}`, params: { id: { type: 'string' } }, complete: { id: 'handler' } };
    prompts[`${n}.prompt`] = { description: `Prompt ${w}`, arguments: { [`arg-${'z'.repeat(w)}`]: { description: 'An argument', complete: 'handler' } } };
  }
  return stringify({ version: 1, server: { name: 'awkward', version: '1.0.0' }, transports: { stdio: {} }, tools, resources, resourceTemplates: templates, prompts });
}

describe('formatting by shape is what prettier prints', () => {
  it.each(['kitchen-sink', 'minimal', 'schema-constructs', 'schema-refs-defs'])('golden case %s', async (name) => {
    await expectSameAsPlain(path.join(REPO, 'test/cases', name, 'mcpgen.yaml'));
  });

  it('names, paths and descriptions of every width and kind', async () => {
    const dir = path.join(REPO, '.tmp/format-by-shape');
    mkdirSync(dir, { recursive: true });
    const manifest = path.join(dir, 'mcpgen.yaml');
    writeFileSync(manifest, awkwardManifest());
    await expectSameAsPlain(manifest);
  });

  // schemas.ts is printed in its final layout (views.ts printedMembers) at every width, its
  // validators too where they no longer fit on their line: no sections, no prettier pass.
  it('members printed directly, keys of every width that fits', async () => {
    const dir = path.join(REPO, '.tmp/format-by-shape-printed');
    mkdirSync(dir, { recursive: true });
    const manifest = path.join(dir, 'mcpgen.yaml');
    writeFileSync(manifest, awkwardManifest({ overlong: false }));
    await expectSameAsPlain(manifest);
    const { manifest: m } = loadManifest(manifest);
    const { ir } = normalize(m!, { manifestPath: 'mcpgen.yaml', generatorVersion: null });
    const schemas = [...renderFiles(ir!)].find((f) => f.path === 'src/generated/schemas.ts')!;
    expect(schemas.formatted).toBe(true);
    expect(schemas.sections).toBeUndefined();
  });
});

describe('unmask', () => {
  const a = String.fromCharCode(0xc0);
  const b = String.fromCharCode(0xc1);
  const c = String.fromCharCode(0xc2);
  it('puts every kind of token back in one pass, never rescanning real text', () => {
    const tokens: [string, string][] = [[a.repeat(3), 'foo'], [`'${b}-${b}'`, "'a-b'"], [`/** ${c} */`, `/** ${a.repeat(3)} */`]];
    expect(unmask(`${a.repeat(3)}(${`'${b}-${b}'`});\n/** ${c} */`, tokens)).toBe(`foo('a-b');\n/** ${a.repeat(3)} */`);
  });
  it('tokens side by side, or an identifier token the template quoted, go token by token', () => {
    const tokens: [string, string][] = [[a.repeat(2), 'ab'], [b.repeat(3), 'cde']];
    expect(unmask(`${a.repeat(2)}${b.repeat(3)} '${a.repeat(2)}'`, tokens)).toBe(`abcde 'ab'`);
  });
});
