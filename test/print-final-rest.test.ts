/**
 * The files in PRINTED, whose templates print them in prettier's final layout from the manifest
 * (nothing formats them afterwards): for every manifest — the golden cases, the examples,
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
import { startHttpStatement } from '../cli/render/contract-view.js';
import { REPO } from './helpers/project.js';
import { loadSeeds, makeMutant } from './fuzz/mutant.mjs';
import { writeMutant } from './fuzz/oracle.mjs';

const PRINTED = new Set(
  [
    ...['http', 'oauth', 'paths', 'sse', 'stdio', 'stdio-transport', 'input', 'tasks', 'task-store', 'era', 'listen-topics'],
    ...['runtime', 'tools', 'resources', 'prompts', 'completions', 'pagination', 'request-state', 'sdk-handlers'],
  ].map((n) => `src/generated/${n}.ts`),
);
PRINTED.add('src/main.ts');
PRINTED.add('test/generated/contract.test.ts');
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
  }, 240_000);

  // The contract test's one width-dependent statement, for a tokens variable of every length on
  // each side of its breaks (the manifests above meet only some of them with each auth setting).
  it('the contract test server start, for tokens variables of every width', async () => {
    const wrong: string[] = [];
    for (const oauth of [false, true]) {
      for (let n = 0; n <= 110; n++) {
        const text = `before(async () => {\n${startHttpStatement(n ? 'T'.repeat(n) : null, oauth)}\n});\n`;
        if ((await prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'typescript' })) !== text) wrong.push(text);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('OAuth settings of every width', async () => {
    const dir = path.join(REPO, '.tmp/print-final-rest-oauth');
    for (const [i, text] of oauthManifests().entries()) {
      const at = path.join(dir, String(i));
      mkdirSync(at, { recursive: true });
      writeFileSync(path.join(at, 'mcpgen.yaml'), text);
      expect(await check(path.join(at, 'mcpgen.yaml'))).toBeGreaterThan(0);
    }
  }, 240_000);

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
 * a line, each on both sides of every break prettier may take; the transports, auth, output
 * schemas, tasks, static and dynamic entries and completions vary with the width, so every
 * variant of the contract test meets names of many widths.
 */
function widthManifests(): string[] {
  const out: string[] = [];
  for (let w = 1; w <= 110; w += 3) {
    // The variant: every residue of the moduli below meets widths across the whole range.
    const v = (w - 1) / 3;
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
        ...(v % 2 ? { output: { type: 'object', properties: { ok: { type: 'boolean' } } } } : {}),
        ...(v % 3 === 0 ? { execution: { taskSupport: name.startsWith('a') && v % 2 ? 'required' : 'optional' } } : {}),
        ...(name.startsWith('t') && v % 4 < 2 ? { title: `Title ${word('l')}`, annotations: { readOnlyHint: true } } : {}),
        scopes: [`scope:${word('s')}`],
      };
    }
    // A tool without input (its schema is the empty object's), read-only so it is called.
    if (v % 4 === 2) tools[`e${word('e')}`.slice(0, 128)] = { description: 'No input', annotations: { readOnlyHint: true, title: word('h') } };
    const scopes = Array.from({ length: 1 + (v % 7) }, (_, i) => `s${i}:${word('k')}`);
    const http = {
      host: v % 2 ? '0.0.0.0' : `h${word('h')}.example.com`,
      port: 1000 + w * 13,
      path: `/${word('m')}`,
      allowedHosts: Array.from({ length: v % 5 }, (_, i) => `host${i}-${word('a')}.example.com`),
      allowedOrigins: Array.from({ length: v % 4 }, (_, i) => `https://o${i}.${word('o')}.example`),
      maxBodyBytes: 1024 * w,
      sse: v % 4 === 3 ? false : { path: `/sse-${word('e')}`, messagesPath: `/messages-${word('g')}` },
      auth: {
        ...(v % 3 !== 1 ? { bearer: { tokensEnv: `T${word('T')}`.slice(0, 100).replace(/^(.)/, 'T'), requiredScopes: scopes.slice(0, v % 3) } } : {}),
        ...(v % 3 !== 2
          ? {
              oauth: {
                issuer: `https://issuer-${word('i')}.example.com`,
                scopes,
                ...(v % 2 ? { resource: `https://r-${word('r')}.example.com/mcp`, jwksUri: `https://j-${word('j')}.example.com/jwks` } : {}),
                ...(v % 5 === 0 ? { audience: [`aud-${word('u')}`], scopesSupported: [...scopes, 'extra'] } : {}),
                resourceName: `Res ${word('n')}`,
                ...(v % 2 === 0 ? { documentation: `https://docs-${word('c')}.example.com`, introspection: { endpoint: `https://in-${word('x')}.example.com/introspect` } } : {}),
              },
            }
          : {}),
      },
    };
    // Dynamic, static or both; templates and prompts with and without completions.
    const resources = {
      ...(v % 5 === 1 ? {} : { [`r${word('r')}`]: { uri: `test://${word('u')}`, description: 'A resource', scopes: [scopes[0]] } }),
      ...(v % 3 === 2 || v % 5 === 1 ? { [`s${word('s')}`]: { uri: `static://${word('c')}`, mimeType: 'text/plain', text: `Text ${word('x')}` } } : {}),
    };
    const resourceTemplates = {
      [`tpl${word('t')}`]: {
        uriTemplate: `test://t/{${`v${word('v')}`.slice(0, 60)}}/{+rest}`,
        params: { [`v${word('v')}`.slice(0, 60)]: { type: 'string' }, rest: { type: 'string' } },
        ...(v % 3 === 0 ? {} : { complete: { [`v${word('v')}`.slice(0, 60)]: 'handler', rest: ['a', word('b')] } }),
        ...(v % 2 ? { list: true } : {}),
      },
    };
    const prompts = {
      [`p${word('p')}`]: {
        description: 'A prompt',
        arguments: { [`arg${word('a')}`]: { description: 'An argument', ...(v % 3 === 0 ? {} : { complete: 'handler' }), required: true } },
      },
      [`m${word('m')}`]: {
        description: 'Declared',
        arguments: { x: { description: 'x', ...(v % 2 ? { complete: [word('c'), `${word('c')}2`, 'other'] } : {}) } },
        messages: [{ role: 'user', text: `Say {{x}} ${word('w')}` }],
      },
    };
    // Some servers lack a kind of entry, or HTTP: the lists are empty, the HTTP tests absent.
    out.push(
      stringify({
        version: 1,
        server: {
          name: `n${word('n')}`.slice(0, 60),
          version: '1.0.0',
          ...(v % 2 ? { title: `Server ${word('t')}`, description: `About ${word('d')}` } : {}),
          ...(v % 3 === 1 ? { instructions: `Use ${word('i')}` } : {}),
        },
        transports: v % 11 === 5 ? { stdio: {} } : { ...(v % 5 === 4 ? {} : { stdio: {} }), http },
        ...(v % 13 === 6 ? {} : { tools }),
        ...(v % 6 === 5 ? {} : { resources }),
        ...(v % 7 === 6 ? {} : { resourceTemplates }),
        ...(v % 8 === 7 ? {} : { prompts }),
        ...(v % 4 === 1 ? { pagination: { pageSize: 1 + (v % 9) } } : {}),
      }),
    );
  }
  return [...out, ...httpManifests()];
}

/**
 * transports.http in every combination http.ts has a variant for (no HTTP at all; auth none, bearer,
 * OAuth or both; the SSE transport on or off), and its data — host, port, path, allowed hosts and
 * origins, body limit, the token variable, the scopes static tokens carry — at every width from 1
 * to past a line, with quotes and wide characters.
 */
function httpManifests(): string[] {
  const manifest = (w: number, bearer: boolean, oauth: boolean, sse: boolean, odd = '') => {
    const word = (c: string) => c.repeat(w);
    const scopes = Array.from({ length: 1 + (Math.floor(w / 7) % 3) }, (_, i) => `s${i}:${word('k')}`);
    const auth = bearer || oauth;
    const http = {
      host: `${odd}h${word('h')}`,
      port: (w * 613) % 65536,
      path: `/${odd}${word('m')}`,
      allowedHosts: Array.from({ length: w % 4 }, (_, i) => `${odd}host${i}-${word('a')}.example.com`),
      allowedOrigins: Array.from({ length: (w >> 2) % 3 }, (_, i) => `https://o${i}.${word('o')}.example`),
      maxBodyBytes: 1 + w ** 4,
      sse: sse ? { path: `/sse-${word('e')}` } : false,
      ...(auth
        ? {
            auth: {
              ...(bearer ? { bearer: { tokensEnv: `T${word('T')}`, requiredScopes: scopes.slice(0, w % 3) } } : {}),
              ...(oauth ? { oauth: { issuer: 'https://issuer.example.com', scopes: scopes.slice(0, 1 + (w % 2)) } } : {}),
            },
          }
        : {}),
    };
    return stringify({
      version: 1,
      server: { name: 'http-widths', version: '1.0.0' },
      transports: { stdio: {}, http },
      tools: { t: { description: 'A tool', ...(auth ? { scopes: scopes.slice(-1 - (w % 2)) } : {}) } },
    });
  };
  const out = [stringify({ version: 1, server: { name: 'no-http', version: '1.0.0' }, transports: { stdio: {} }, tools: { t: { description: 'A tool' } } })];
  for (const w of [1, 40, 90]) {
    for (let v = 0; v < 8; v++) out.push(manifest(w, (v & 1) > 0, (v & 2) > 0, (v & 4) > 0, w === 40 ? "it's 日本 \"q\" " : ''));
  }
  // Every width with the token variable and scopes present, through OAuth and SSE on and off.
  for (let w = 1; w <= 110; w++) out.push(manifest(w, true, w % 2 === 0, (w >> 1) % 2 === 0));
  return out;
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Manifests whose transports.http.auth.oauth sets each option or leaves it out (every setting on,
 * every other one off, none at all), with URLs, names, scopes and lists of every width, quotes and
 * non-ASCII text in the resource name.
 */
function oauthManifests(): string[] {
  const manifest = (oauth: Record<string, unknown>, scopes: string[] = []) =>
    stringify({
      version: 1,
      server: { name: 'o', version: '1.0.0' },
      transports: { http: { auth: { oauth } } },
      tools: { t: { description: 'A tool', ...(scopes.length ? { scopes } : {}) } },
    });
  const names = [(w: string) => `Res ${w}`, (w: string) => `It's "${w}"`, (w: string) => `日本語 ${w}`, (w: string) => `Ünïcödé ${w} 🔐`];
  const out = [manifest({})];
  for (let n = 0; n <= 60; n++) {
    const w = 1 + 2 * n;
    const word = (c: string) => c.repeat(w);
    const all: Record<string, unknown> = {
      issuer: `https://issuer.example.com/${word('i')}`,
      resource: `https://r.example.com/${word('r')}`,
      audience: n % 3 === 0 ? `api://${word('u')}` : Array.from({ length: 1 + (n % 4) }, (_, i) => `aud${i}-${word('u')}`),
      scopes: Array.from({ length: n % 6 }, (_, i) => `s${i}:${word('k')}`),
      scopesSupported: Array.from({ length: 1 + (n % 5) }, (_, i) => `x${i}:${word('x')}`),
      jwksUri: `https://j.example.com/${word('j')}/jwks`,
      algorithms: ALGORITHMS.slice(0, 1 + (n % ALGORITHMS.length)),
      clockToleranceSeconds: (n * 7) % 301,
      introspection:
        n % 2
          ? { endpoint: `https://in.example.com/${word('e')}`, clientIdEnv: `ID_${word('I')}`, clientSecretEnv: `SECRET_${word('S')}` }
          : {},
      resourceName: names[n % names.length]!(word('n')),
      documentation: `https://docs.example.com/${word('d')}${n % 4 === 1 ? "?q='x'" : ''}`,
    };
    const tool = [`t:${word('t')}`];
    // Each member's layout depends on its own width only: every other one left out, alternating.
    const some = Object.fromEntries(Object.entries(all).filter((_, i) => (i + n) % 2 === 0));
    out.push(manifest(all, tool), manifest(some, tool));
  }
  return out;
}
