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
import { docLines, lineComment } from './escape.js';
import { printLiteral, printString, propertyKey } from './literal.js';
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
  // Manifest data as a literal (cli/render/literal.ts); `indent` is the column its line starts at.
  hb.registerHelper('literal', (v: unknown, options: { hash: { indent?: number } }) =>
    printLiteral(v, options.hash.indent ?? 0),
  );
  hb.registerHelper('str', (v: unknown) => printString(String(v)));
  hb.registerHelper('strings', (v: unknown) => (v as string[]).map(printString).join(', '));
  hb.registerHelper('key', (v: unknown) => propertyKey(String(v)));
  // Text inside a one-line `/** … */` or `//` comment: cannot end the comment or the line.
  hb.registerHelper('comment', (v: unknown) => docLines(lineComment(String(v))).join(' '));
  // `import [type] { a, b } from 'module';`, one name per line when that is long.
  hb.registerHelper('importList', (names: unknown, from: unknown, options: { hash: { type?: boolean } }) => {
    const list = names as string[];
    const head = `import ${options.hash.type ? 'type ' : ''}`;
    const one = `${head}{ ${list.join(', ')} } from '${String(from)}';`;
    return one.length <= 100 ? one : `${head}{\n${list.map((n) => `  ${n},`).join('\n')}\n} from '${String(from)}';`;
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
        const key = path
          .relative(TEMPLATES_DIR, p)
          .split(path.sep)
          .join('/')
          .replace(/\.hbs$/, '');
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
