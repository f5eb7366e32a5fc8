// Types by measurement (issue 33 point 2; docs/types.md): types.ts printed by mcpgen's own printer and by
// json-schema-to-typescript over every golden case, example, real-world manifest and the realistic
// 50-tool one; each output type-checked with tsc --strict.
// Usage: node bench/types-compare.mjs [dist dir, default dist]   (J2T_FORMAT=1: json-schema-to-typescript formats with prettier)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realisticManifest } from './realistic.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.resolve(REPO, process.argv[2] ?? 'dist');
const imp = (m) => import(pathToFileURL(path.join(DIST, m)).href);
const { loadManifest } = await imp('load/load.js');
const { validateManifest } = await imp('validate/index.js');
const { normalize } = await imp('normalize/normalize.js');
const { renderTypes, forEachType } = await imp('render/types.js');
const { compile } = await import('json-schema-to-typescript');

/** Keywords json-schema-to-typescript reads as instructions (type names, raw TypeScript) rather than constraints. */
const J2T_KEYWORDS = new Set(['title', 'tsType', 'tsEnumNames', '$id', 'id']);
/** A copy without those keywords; `__proto__` stays an own key (json-schema-to-typescript calls Object methods, so not a null-prototype object). */
function forJ2t(schema) {
  if (Array.isArray(schema)) return schema.map(forJ2t);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  const set = (o, k, v) =>
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(schema)) if (!J2T_KEYWORDS.has(k)) set(out, k, v);
  for (const k of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']) {
    const m = out[k];
    if (m && typeof m === 'object' && !Array.isArray(m)) {
      const copy = {};
      for (const [n, v] of Object.entries(m)) set(copy, n, forJ2t(v));
      out[k] = copy;
    }
  }
  for (const k of [
    'items',
    'prefixItems',
    'additionalItems',
    'additionalProperties',
    'anyOf',
    'oneOf',
    'allOf',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
  ]) {
    if (k in out) out[k] = forJ2t(out[k]);
  }
  return out;
}

/**
 * types.ts by json-schema-to-typescript over the same combined document as renderTypes: every type a
 * `$defs` member of a root that is left out of the output. additionalProperties: true is what the
 * server's validator does with an object that says nothing about other keys.
 */
async function renderTypesJ2t(ir) {
  const defs = {};
  forEachType(ir, (name, schema) =>
    Object.defineProperty(defs, name, { value: forJ2t(schema), enumerable: true, writable: true, configurable: true }),
  );
  if (Object.keys(defs).length === 0) return 'export {};\n';
  const text = await compile({ $defs: defs, type: 'object', additionalProperties: false }, 'McpgenTypesRoot', {
    bannerComment: '',
    format: process.env.J2T_FORMAT === '1',
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    additionalProperties: true,
    strictIndexSignatures: false,
    unknownAny: true,
  });
  return text.replace(/export interface McpgenTypesRoot \{\s*\}\n?/, '');
}

const OUT = path.join(REPO, '.tmp/types-compare');
rmSync(OUT, { recursive: true, force: true });
const realistic = path.join(OUT, 'realistic-50/mcpgen.yaml');
mkdirSync(path.dirname(realistic), { recursive: true });
writeFileSync(realistic, realisticManifest(50));

const list = (dir) =>
  readdirSync(path.join(REPO, dir))
    .filter((n) => !n.startsWith('invalid-'))
    .map((n) => [n, path.join(REPO, dir, n, 'mcpgen.yaml')]);
const corpora = {
  'golden cases': list('test/cases'),
  examples: list('examples').filter(([n]) => n !== 'notes' || true),
  'real-world': list('test/real-world'),
  'realistic 50 tools': [['realistic-50', realistic]],
};

const printers = {
  own: (ir) => renderTypes(ir),
  j2t: (ir) => renderTypesJ2t(ir),
};

for (const [corpus, manifests] of Object.entries(corpora)) {
  for (const [name, file] of manifests) {
    let loaded;
    try {
      loaded = loadManifest(file);
    } catch {
      continue;
    }
    const m = loaded.manifest;
    if (!m || [...loaded.diagnostics, ...validateManifest(m)].some((d) => d.severity === 'error')) continue;
    const { ir } = normalize(m, { manifestPath: 'mcpgen.yaml', generatorVersion: null });
    if (!ir) continue;
    for (const [printer, render] of Object.entries(printers)) {
      const dir = path.join(OUT, printer, corpus.replace(/\W+/g, '-'));
      mkdirSync(dir, { recursive: true });
      let text;
      try {
        text = await render(ir);
      } catch (e) {
        text = `// FAILED: ${String(e?.message ?? e).split('\n')[0]}\nexport {};\n`;
      }
      writeFileSync(path.join(dir, `${name}.ts`), text);
    }
  }
}

// tsc --strict over each printer's files; errors counted per file.
const compilerOptions = {
  strict: true,
  noEmit: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  skipLibCheck: true,
  types: [],
};
const table = [];
for (const printer of Object.keys(printers)) {
  const dir = path.join(OUT, printer);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts'] }));
  let out = '';
  try {
    execFileSync(path.join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    out = String(e.stdout ?? '') + String(e.stderr ?? '');
  }
  const bad = new Map();
  for (const line of out.split('\n')) {
    const m = /^(.+?\.ts)\(\d+,\d+\): error/.exec(line);
    if (m) bad.set(m[1], (bad.get(m[1]) ?? 0) + 1);
  }
  for (const corpus of Object.keys(corpora)) {
    const sub = corpus.replace(/\W+/g, '-');
    const files = readdirSync(path.join(dir, sub));
    const failed = files.filter((f) => bad.has(`${sub}/${f}`));
    const crashed = files.filter((f) =>
      /^\/\/ FAILED/.test(String(execFileSync('head', ['-c', '12', path.join(dir, sub, f)]))),
    );
    table.push({
      printer,
      corpus,
      files: files.length,
      compile: files.length - failed.length - crashed.length,
      crashed: crashed.length,
      failed: failed.join(' '),
    });
  }
}
console.table(table);

// The construct tests (test/types-constructs/check.ts) against each printer's types.ts.
const constructs = path.resolve(REPO, process.env.CONSTRUCTS ?? 'test/types-constructs');
const { manifest: cm } = loadManifest(path.join(constructs, 'mcpgen.yaml'));
const { ir: cir } = normalize(cm, { manifestPath: 'mcpgen.yaml', generatorVersion: null });
for (const [printer, render] of Object.entries(printers)) {
  const dir = path.join(OUT, `constructs-${printer}`);
  mkdirSync(dir, { recursive: true });
  let text;
  try {
    text = await render(cir);
  } catch (e) {
    console.log(`constructs, ${printer}: generate fails: ${String(e?.message ?? e).split('\n')[0]}`);
    continue;
  }
  writeFileSync(path.join(dir, 'types.ts'), text);
  writeFileSync(path.join(dir, 'check.ts'), readFileSync(path.join(constructs, 'check.ts')));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
  let out = '';
  try {
    execFileSync(path.join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    out = String(e.stdout ?? '');
  }
  console.log(`constructs, ${printer}: ${out.trim() ? `wrong:\n${out.trim()}` : 'all right'}`);
}
console.log(`outputs in ${path.relative(REPO, OUT)}/<printer>/<corpus>/<manifest>.ts`);
