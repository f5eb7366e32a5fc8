#!/usr/bin/env node
// Part of `npm run build` (after tsc): fills dist/format/format-seed.bin, the format cache mcpgen
// ships with (cli/format/cache.ts). Every entry is prettier's own output for an input, keyed by a
// hash of prettier's version, the options and the input, exactly like the per-user cache — so an
// entry can only ever be served for the very text it was computed from.
//
// What is formatted is name-free (cli/format/mask.ts: names become same-width tokens; the header
// stays out), so a corpus covers other projects too: the examples, the golden cases, the `init`
// manifest, one small manifest per combination of the features that change a skeleton, and a sweep
// of entry names of every width up to 48 in the usual spellings (snake_case and kebab-case with 0–3
// separators). A user's first generate then needs prettier only for what
// the corpus has not seen (an unusual option mix, a longer name).
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-format-seed-'));
// Record into an empty cache of our own; never answer from an older seed.
process.env.MCPGEN_CACHE_DIR = path.join(tmp, 'cache');
process.env.MCPGEN_FORMAT_SEED = '0';
const { generate } = await import(path.join(repo, 'dist/generate.js'));
const { FORMAT_SALT } = await import(path.join(repo, 'dist/format/format.js'));

/** Names of width `w` in the spellings the sweep covers (a letter first, separators inside). */
function names(w) {
  const out = new Set();
  for (const sep of ['_', '-']) {
    for (let k = 0; k <= 3; k++) {
      if (k === 0 && sep === '-') continue;
      const letters = w - k;
      if (letters < k + 1) continue;
      // k separators spread over the letters: a…a_a…a_…
      const parts = [];
      let left = letters;
      for (let i = k; i >= 0; i--) {
        const n = i === 0 ? left : Math.max(1, Math.floor(left / (i + 1)));
        parts.push('a'.repeat(n));
        left -= n;
      }
      out.add(parts.join(sep));
    }
  }
  return [...out];
}

/** One manifest with an entry of every kind and common variant per name. */
function sweepManifest(maxWidth) {
  const tools = [];
  const resources = [];
  const templates = [];
  const prompts = [];
  let i = 0;
  for (let w = 1; w <= maxWidth; w++) {
    for (const base of names(w)) {
      // Each variant that changes a shape (output or not, list or not, messages or a handler), under
      // distinct names of the same width and spelling: the letters vary, not the shape.
      for (const variant of [0, 1]) {
        let j = 7 * i++;
        const n = base.replace(/a/g, () => 'abcdefghijklmnopqrstuvwxyz'[j++ % 26]);
        tools.push(
          `  ${n}:`,
          `    description: Does a thing with its input and says what it did`,
          `    input: { type: object, properties: { q: { type: string, maxLength: 100, description: The query text } }, required: [q], additionalProperties: false }`,
          ...(variant ? [`    output: { type: object, properties: { ok: { type: boolean, description: Whether it worked } }, required: [ok] }`] : []),
        );
        // A resource read by a handler, or static text.
        resources.push(`  ${n}:`, `    uri: "sweep://r/${n}"`, `    mimeType: text/plain`, ...(variant ? [`    description: A resource read by a handler`] : [`    text: Some text`]));
        templates.push(
          `  ${n}:`,
          `    uriTemplate: "sweep://t/${n}/{id}"`,
          `    mimeType: application/json`,
          `    description: One item by id`,
          `    params: { id: { type: string, maxLength: 40, description: The item id } }`,
          ...(variant ? [`    list: true`] : [`    complete: { id: [a, b] }`]),
        );
        prompts.push(
          `  ${n}:`,
          `    description: A prompt with one argument`,
          `    arguments: { topic: { description: What to talk about, required: true } }`,
          ...(variant ? [`    messages: [{ role: user, text: "Talk about {topic}" }]`] : []),
        );
      }
    }
  }
  return [
    'version: 1',
    'server: { name: sweep, version: 1.0.0, description: Name widths for the format seed }',
    'tools:',
    ...tools,
    'resources:',
    ...resources,
    'resourceTemplates:',
    ...templates,
    'prompts:',
    ...prompts,
    '',
  ].join('\n');
}

/**
 * Skeletons (a file with its per-entry sections and data taken out) differ by which kinds of
 * entries a server has and how it is reached, not by how many: one small manifest per combination
 * of the features that change them covers any project's skeletons.
 */
function featureManifests() {
  const out = [];
  const pick = (options) => options;
  for (const tools of pick(['none', 'some']))
    for (const resources of pick(['none', 'static', 'dynamic', 'both']))
      for (const templates of pick(['none', 'completed']))
        for (const prompts of pick(['none', 'declarative', 'handler', 'both']))
          for (const transport of pick(['default', 'bearer'])) {
            if (tools === 'none' && resources === 'none' && templates === 'none' && prompts === 'none') continue;
            const m = ['version: 1', `server: { name: features, version: 1.0.0, description: A mix of features for the format seed }`];
            if (transport === 'bearer') m.push('transports:', '  http: { auth: { bearer: { tokensEnv: MCP_TOKENS } } }');
            if (tools === 'some')
              m.push(
                'tools:',
                '  plain_tool: { description: A tool without output, input: { type: object, properties: { q: { type: string, description: The query } }, required: [q] } }',
                '  output_tool: { description: A tool with output, input: { type: object, properties: { q: { type: string, description: The query } } }, output: { type: object, properties: { ok: { type: boolean } }, required: [ok] }, annotations: { readOnlyHint: true } }',
              );
            if (resources !== 'none') m.push('resources:');
            if (resources === 'static' || resources === 'both') m.push('  static_res: { uri: "features://static", mimeType: text/plain, description: A static text, text: hello }');
            if (resources === 'dynamic' || resources === 'both') m.push('  dynamic_res: { uri: "features://dynamic", mimeType: application/json, description: Read by a handler }');
            if (templates === 'completed')
              m.push('resourceTemplates:', '  item: { uriTemplate: "features://items/{id}", mimeType: application/json, description: One item, params: { id: { type: string, description: The id } }, complete: { id: [a, b, c] } }');
            if (prompts !== 'none') m.push('prompts:');
            if (prompts === 'declarative' || prompts === 'both')
              m.push('  declared: { description: A declared prompt, arguments: { topic: { description: The topic, required: true } }, messages: [{ role: user, text: "Write about {{topic}}" }] }');
            if (prompts === 'handler' || prompts === 'both') m.push('  handled: { description: A prompt with a handler, arguments: { topic: { description: The topic, required: true } } }');
            out.push(m.join('\n') + '\n');
          }
  return out;
}

const manifests = [];
for (const [i, text] of featureManifests().entries()) {
  const dir = path.join(tmp, `features-${i}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'mcpgen.yaml'), text);
  manifests.push(path.join(dir, 'mcpgen.yaml'));
}
for (const dir of ['examples', 'test/cases']) {
  for (const name of readdirSync(path.join(repo, dir))) {
    const m = path.join(repo, dir, name, 'mcpgen.yaml');
    if (!name.startsWith('invalid-') && existsSync(m)) manifests.push(m);
  }
}
const sweepDir = path.join(tmp, 'sweep');
mkdirSync(sweepDir, { recursive: true });
writeFileSync(path.join(sweepDir, 'mcpgen.yaml'), sweepManifest(48));
manifests.push(path.join(sweepDir, 'mcpgen.yaml'));

const started = Date.now();
for (const manifest of manifests) {
  const outDir = mkdtempSync(path.join(tmp, 'out-'));
  // --out elsewhere: the manifest path in the header differs, which the seed never sees anyway.
  const r = await generate({ manifest, outDir });
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`format seed: ${manifest} does not generate: ${errors.map((d) => d.message).join('; ')}`);
}

// The cache's entries, as they are on disk: <2 hex>/<38 hex> → formatted text.
const entries = {};
const root = path.join(tmp, 'cache/format');
for (const bucket of readdirSync(root).sort()) {
  for (const f of readdirSync(path.join(root, bucket)).sort()) {
    if (!f.endsWith('.tmp')) entries[bucket + f] = readFileSync(path.join(root, bucket, f), 'utf8');
  }
}
// The file cli/format/seed.ts reads without parsing it whole: a header, a sorted table of
// (key, offset, length) and the texts, each distinct text stored once.
const { encodeSeed } = await import(path.join(repo, 'dist/format/seed.js'));
const out = path.join(repo, 'dist/format/format-seed.bin');
writeFileSync(out, encodeSeed(FORMAT_SALT, entries));
rmSync(tmp, { recursive: true, force: true });
const kb = (readFileSync(out).length / 1024).toFixed(0);
console.error(`format seed: ${Object.keys(entries).length} entries from ${manifests.length} manifests, ${kb} KB, ${((Date.now() - started) / 1000).toFixed(1)} s`);
