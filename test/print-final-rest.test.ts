/**
 * The files in PRINTED are printed in prettier's final layout by their templates (render.ts yields
 * them `formatted: true`, no prettier pass): for every manifest — the golden cases, the examples,
 * the real-world ones, a realistic 50-tool one, manifests whose names, paths and settings take
 * every width (every {{#if}} variant of the templates), and fuzzed mutants — each must be exactly
 * what prettier prints from it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PRETTIER_OPTIONS } from '../cli/format/style.js';
import { loadManifest } from '../cli/load/load.js';
import { validateManifest } from '../cli/validate/index.js';
import { normalize } from '../cli/normalize/normalize.js';
import { renderFiles } from '../cli/render/render.js';
import { REPO } from './helpers/project.js';
import { loadSeeds, makeMutant } from './fuzz/mutant.mjs';
import { writeMutant } from './fuzz/oracle.mjs';

const PRINTED = new Set(['paths', 'sse', 'stdio', 'stdio-transport', 'input', 'tasks', 'task-store'].map((n) => `src/generated/${n}.ts`));
PRINTED.add('src/main.ts');
const isPrinted = (p: string) => PRINTED.has(p) || p.startsWith('src/handlers/') || p.startsWith('test/handlers/');

/** Each printed file of the manifest's project, with what prettier makes of it. */
async function check(manifest: string): Promise<number> {
  const { manifest: m, diagnostics } = loadManifest(manifest);
  if (!m || [...diagnostics, ...validateManifest(m)].some((d) => d.severity === 'error')) return 0;
  const { ir } = normalize(m, { manifestPath: 'mcpgen.yaml', generatorVersion: null });
  if (!ir) return 0;
  let n = 0;
  const wrong: string[] = [];
  for (const f of renderFiles(ir)) {
    if (!isPrinted(f.path)) continue;
    expect(f.formatted, f.path).toBe(true);
    const want = await prettier.format(f.content, { ...PRETTIER_OPTIONS, parser: 'typescript' });
    if (f.content !== want) {
      // Both texts kept for a diff (`diff -u <file>.printed <file>.prettier`).
      const at = path.join(REPO, '.tmp/print-final-rest-diffs', path.relative(REPO, manifest).replaceAll('/', '_'), f.path);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(`${at}.printed`, f.content);
      writeFileSync(`${at}.prettier`, want);
      wrong.push(`${path.relative(REPO, at)}.printed`);
    }
    n++;
  }
  expect(wrong).toEqual([]);
  return n;
}

const cases = readdirSync(path.join(REPO, 'test/cases'))
  .filter((n) => !n.startsWith('invalid-'))
  .map((n) => `test/cases/${n}/mcpgen.yaml`);
const examples = readdirSync(path.join(REPO, 'examples')).map((n) => `examples/${n}/mcpgen.yaml`);
const realWorld = readdirSync(path.join(REPO, 'test/real-world')).map((n) => `test/real-world/${n}/mcpgen.yaml`);
const manifests = [...cases, ...examples, ...realWorld, 'test/fixtures/realistic-50/mcpgen.yaml'].filter((p) => existsSync(path.join(REPO, p)));

describe('printed in the final layout', () => {
  it.each(manifests)('%s', async (manifest) => {
    expect(await check(path.join(REPO, manifest))).toBeGreaterThan(0);
  });

  it('names, paths and settings of every width', async () => {
    const dir = path.join(REPO, '.tmp/print-final-rest');
    for (const [i, text] of widthManifests().entries()) {
      const at = path.join(dir, String(i));
      mkdirSync(at, { recursive: true });
      writeFileSync(path.join(at, 'mcpgen.yaml'), text);
      expect(await check(path.join(at, 'mcpgen.yaml'))).toBeGreaterThan(0);
    }
  });

  it('fuzzed manifests', async () => {
    const seeds = loadSeeds(REPO);
    const dir = path.join(REPO, '.tmp/print-final-rest-fuzz');
    let checked = 0;
    for (let n = 1; n <= 60; n++) {
      const mutant = makeMutant(n, seeds);
      const at = path.join(dir, String(n));
      writeMutant(mutant, at);
      checked += await check(path.join(at, 'mcpgen.yaml'));
    }
    expect(checked).toBeGreaterThan(40);
  }, 120_000);
});

/**
 * Manifests whose names, URIs, paths, hosts, token variables and scopes take widths from 1 to past
 * a line, each on both sides of every break prettier may take.
 */
function widthManifests(): string[] {
  const out: string[] = [];
  for (let w = 1; w <= 110; w += 3) {
    const word = (c: string) => c.repeat(w);
    const tools: Record<string, unknown> = {};
    for (const name of [`t${word('x')}`, `a-${word('y')}`, `b.${word('z')}`, `c_${word('q')}`.slice(0, 128)]) {
      tools[name] = {
        description: `Tool ${name}`,
        input: {
          type: 'object',
          properties: { [`p${word('p')}`]: { type: 'string', default: word('d') }, n: { type: 'integer', default: w } },
          required: [`p${word('p')}`],
        },
        ...(w % 2 ? { output: { type: 'object', properties: { ok: { type: 'boolean' } } } } : {}),
        ...(w % 3 === 0 ? { execution: { taskSupport: 'optional' } } : {}),
        scopes: [`scope:${word('s')}`],
      };
    }
    const scopes = Array.from({ length: 1 + (w % 7) }, (_, i) => `s${i}:${word('k')}`);
    const http = {
      host: w % 2 ? '0.0.0.0' : `h${word('h')}.example.com`,
      port: 1000 + w * 13,
      path: `/${word('m')}`,
      allowedHosts: Array.from({ length: w % 5 }, (_, i) => `host${i}-${word('a')}.example.com`),
      allowedOrigins: Array.from({ length: w % 4 }, (_, i) => `https://o${i}.${word('o')}.example`),
      maxBodyBytes: 1024 * w,
      sse: w % 4 === 3 ? false : { path: `/sse-${word('e')}`, messagesPath: `/messages-${word('g')}` },
      auth: {
        ...(w % 3 !== 1 ? { bearer: { tokensEnv: `T${word('T')}`.slice(0, 100).replace(/^(.)/, 'T'), requiredScopes: scopes.slice(0, w % 3) } } : {}),
        ...(w % 3 !== 2
          ? {
              oauth: {
                issuer: `https://issuer-${word('i')}.example.com`,
                scopes,
                ...(w % 2 ? { resource: `https://r-${word('r')}.example.com/mcp`, jwksUri: `https://j-${word('j')}.example.com/jwks` } : {}),
                ...(w % 5 === 0 ? { audience: [`aud-${word('u')}`], scopesSupported: [...scopes, 'extra'] } : {}),
                resourceName: `Res ${word('n')}`,
                ...(w % 2 === 0 ? { documentation: `https://docs-${word('c')}.example.com`, introspection: { endpoint: `https://in-${word('x')}.example.com/introspect` } } : {}),
              },
            }
          : {}),
      },
    };
    const resources = { [`r${word('r')}`]: { uri: `test://${word('u')}`, description: 'A resource', scopes: [scopes[0]] } };
    const resourceTemplates = {
      [`tpl${word('t')}`]: {
        uriTemplate: `test://t/{${`v${word('v')}`.slice(0, 60)}}/{+rest}`,
        params: { [`v${word('v')}`.slice(0, 60)]: { type: 'string' }, rest: { type: 'string' } },
        complete: { [`v${word('v')}`.slice(0, 60)]: 'handler', rest: ['a', word('b')] },
        ...(w % 2 ? { list: true } : {}),
      },
    };
    const prompts = {
      [`p${word('p')}`]: {
        description: 'A prompt',
        arguments: { [`arg${word('a')}`]: { description: 'An argument', complete: 'handler', required: true } },
      },
      [`m${word('m')}`]: { description: 'Declared', arguments: { x: { description: 'x' } }, messages: [{ role: 'user', text: `Say {{x}} ${word('w')}` }] },
    };
    out.push(
      stringify({
        version: 1,
        server: { name: `n${word('n')}`.slice(0, 60), version: '1.0.0' },
        transports: { ...(w % 5 === 4 ? {} : { stdio: {} }), http },
        tools,
        resources,
        resourceTemplates,
        prompts,
      }),
    );
  }
  return out;
}
