/**
 * Helper names are chosen not to clash with view fields: a helper shadows a field of the same name.
 *
 * Handlebars set up for code, not HTML: an isolated instance, no HTML escaping, strict (a
 * misspelled variable is an error, not empty text), and helpers that escape into the right context.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Handlebars from 'handlebars';
import { literalMarker } from './place-literals.js';
import { CODE_DIR, PACKAGE_ROOT } from '../paths.js';

export const TEMPLATES_DIR = path.join(PACKAGE_ROOT, 'templates');

export type Template = (view: object) => string;

let cache: Map<string, Template> | undefined;

type Instance = typeof Handlebars;
const require = createRequire(import.meta.url);
/** Compiled by scripts/precompile-templates.mjs at build time (absent when running from sources). */
type Precompiled = Record<string, { sha: string; spec: Parameters<Instance['template']>[0] }>;
const COMPILE_OPTIONS = { noEscape: true, strict: true };

function createInstance(hb: Instance): Instance {
  // A data value printed in place once the file is rendered (cli/render/place-literals.ts).
  hb.registerHelper('literal', (v: unknown, options: { data: { root: { __literals?: unknown[] } } }) => {
    const values = options.data.root.__literals;
    if (!values) throw new Error('internal: {{literal}} used in a template rendered without a literal list');
    return literalMarker(values, v);
  });
  // `import [type] { a, b } from 'module';` exactly as prettier prints it.
  hb.registerHelper('importList', (names: unknown, from: unknown, options: { hash: { type?: boolean } }) => {
    const list = (names as string[]).join(', ');
    const head = `import ${options.hash.type ? 'type ' : ''}`;
    const tail = ` from '${String(from)}';`;
    const one = `${head}{ ${list} }${tail}`;
    // A lone specifier never breaks.
    return one.length <= 100 || (names as string[]).length === 1 ? one : `${head}{\n${(names as string[]).map((n) => `  ${n},`).join('\n')}\n}${tail}`;
  });
  return hb;
}

/**
 * All templates under templates/, keyed by path relative to templates/ without `.hbs`: the build's
 * precompiled form when its source hash matches the file, else compiled from the file (and only
 * then is handlebars' compiler loaded).
 */
export function templates(): Map<string, Template> {
  if (cache) return cache;
  let precompiled: Precompiled = {};
  try {
    precompiled = require(path.join(CODE_DIR, 'render/templates.precompiled.cjs')) as Precompiled;
  } catch {
    /* running from sources: compile everything */
  }
  // The runtime alone (what precompiled templates need) is a fraction of handlebars to load; its
  // one-file build, not the 28 modules handlebars/runtime requires.
  const runtime = createInstance((require('handlebars/dist/handlebars.runtime.js') as Instance).create());
  let compiler: Instance | undefined;
  const map = new Map<string, Template>();
  const walk = (dir: string) => {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, ent.name);
      if (ent.isDirectory()) walk(p);
      else if (ent.name.endsWith('.hbs')) {
        const key = path.relative(TEMPLATES_DIR, p).split(path.sep).join('/').replace(/\.hbs$/, '');
        const source = readFileSync(p, 'utf8');
        const built = precompiled[key];
        if (built && built.sha === createHash('sha256').update(source).digest('hex')) {
          const t = runtime.template(built.spec);
          map.set(key, (view) => t(view));
          continue;
        }
        compiler ??= createInstance((require('handlebars') as Instance).create());
        const compiled = compiler.compile(source, COMPILE_OPTIONS);
        map.set(key, (view) => compiled(view));
      }
    }
  };
  walk(TEMPLATES_DIR);
  cache = map;
  return map;
}

export function renderTemplate(name: string, view: object): string {
  const t = templates().get(name);
  if (!t) throw new Error(`internal: no template ${name}.hbs in ${TEMPLATES_DIR}`);
  return t(view);
}
