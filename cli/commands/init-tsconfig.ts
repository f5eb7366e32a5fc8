/**
 * `init` in a folder that already has a tsconfig.json: the file is the user's and is never changed.
 * This reads it as tsc would (comments and trailing commas allowed, `extends` followed) and says
 * what the generated project needs that it lacks, as compilerOptions to set and files to include,
 * so that `npm run build`, `npm test` and `npm start` work once they are set.
 *
 * Read by hand: get-tsconfig reads a file that is not JSON as an empty config, which would be
 * advised on as if it were one; tsconfck's optional peer `typescript@^5` stops `npm install` beside
 * TypeScript 7 (docs/developing.md, "Hand-written parts").
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface TsconfigAdvice {
  /** compilerOptions to set, or null when nothing is missing. */
  set: Record<string, unknown> | null;
  /** One line per problem: which setting, what it is, why the generated project needs otherwise. */
  reasons: string[];
  /** The files tsc would leave out of the project (then `include` needs src/ and test/). */
  leftOut: string[];
}

type Options = Record<string, unknown>;
interface Resolved {
  options: Options;
  /** Each path option resolved against the folder of the config file that set it. */
  paths: { outDir?: string; rootDir?: string };
  include?: string[];
  files?: string[];
}

/** Where Node resolves the generated ES modules' `.js` specifiers and `import.meta` as they run. */
const NODE_MODULES = new Set(['node16', 'node18', 'node20', 'nodenext']);
const NODE_RESOLUTION = new Set(['node16', 'nodenext']);
/** `Object.hasOwn`, `Array.prototype.at`, class fields: the generated code is ES2022. */
const ES2022_OR_LATER = /^es(20(2[2-9]|[3-9]\d)|next)$/;
/** A file of each folder the generated project compiles, as tsc must see them. */
const COMPILED = ['src/main.ts', 'src/generated/server.ts', 'test/generated/contract.test.ts'];

/** The advice, or a sentence saying why the file could not be read (then nothing else is said). */
export function tsconfigAdvice(dir: string): TsconfigAdvice | string {
  let resolved: Resolved;
  try {
    resolved = readConfig(path.join(dir, 'tsconfig.json'), [], dir);
  } catch (err) {
    return (err as Error).message;
  }
  const { options, paths } = resolved;
  const set: Options = {};
  const reasons: string[] = [];
  const lower = (key: string) =>
    typeof options[key] === 'string' ? (options[key] as string).toLowerCase() : undefined;
  const show = (key: string) => JSON.stringify(options[key]);

  const module = lower('module');
  if (module === undefined || !NODE_MODULES.has(module)) {
    set.module = 'NodeNext';
    reasons.push(
      `compilerOptions.module is ${module === undefined ? 'not set' : show('module')}: the generated code is ES modules that Node loads as written ("NodeNext")`,
    );
  }
  const resolution = lower('moduleResolution');
  if (resolution !== undefined && !NODE_RESOLUTION.has(resolution)) {
    set.moduleResolution = 'NodeNext';
    reasons.push(
      `compilerOptions.moduleResolution is ${show('moduleResolution')}: with "module": "NodeNext" it must be "NodeNext"`,
    );
  }
  const target = lower('target');
  if (target !== undefined && !ES2022_OR_LATER.test(target)) {
    set.target = 'ES2022';
    reasons.push(`compilerOptions.target is ${show('target')}: the generated code is ES2022 (Object.hasOwn, for one)`);
  }
  const lib = Array.isArray(options.lib) ? options.lib.map((l) => String(l).toLowerCase()) : undefined;
  if (lib && !lib.some((l) => ES2022_OR_LATER.test(l.split('.')[0]!))) {
    set.lib = [...(options.lib as unknown[]), 'ES2022'];
    reasons.push(`compilerOptions.lib is ${show('lib')}: the generated code needs ES2022's library`);
  }
  const types = Array.isArray(options.types) ? (options.types as unknown[]) : undefined;
  if (types && !types.includes('node')) {
    set.types = [...types, 'node'];
    reasons.push(`compilerOptions.types is ${show('types')}: the generated code needs Node's types ("node")`);
  } else if (options.types === undefined) {
    // TypeScript 7 loads no @types package unless `types` names it (5.x loaded them all).
    set.types = ['node'];
    reasons.push(
      'compilerOptions.types is not set: the generated code needs Node\'s types, which TypeScript 7 loads only when types names them ("node")',
    );
  }
  if (options.noEmit === true) {
    set.noEmit = false;
    reasons.push('compilerOptions.noEmit is true: npm run build and npm test run the compiled project from dist/');
  }
  if (paths.outDir !== path.join(dir, 'dist')) {
    set.outDir = 'dist';
    reasons.push(
      `compilerOptions.outDir is ${paths.outDir === undefined ? 'not set' : show('outDir')}: the scripts and the bin run dist/src/main.js, the tests dist/test/`,
    );
  }
  if (paths.rootDir !== undefined && paths.rootDir !== dir) {
    set.rootDir = '.';
    reasons.push(
      `compilerOptions.rootDir is ${show('rootDir')}: src/ and test/ compile to dist/src/ and dist/test/ from the project folder`,
    );
  }
  const leftOut = COMPILED.filter((f) => !compiles(resolved, dir, f));
  if (leftOut.length)
    reasons.push(`include leaves out ${leftOut.join(', ')}: add "src/**/*.ts" and "test/**/*.ts" to it`);
  return { set: Object.keys(set).length ? set : null, reasons, leftOut };
}

/** Whether tsc's file list (`files`, `include` with its default, `exclude` not counted) holds `file`. */
function compiles(config: Resolved, dir: string, file: string): boolean {
  if (config.files?.some((f) => path.resolve(dir, f) === path.join(dir, file))) return true;
  // tsc includes everything when neither is given, nothing from `include` when only `files` is.
  const include = config.include ?? (config.files ? [] : ['**/*']);
  return include.some((pattern) => globRegExp(pattern).test(file));
}

/** A tsconfig `include` pattern (`*`, `?`, `**`/, a folder meaning everything in it) as a RegExp over relative paths. */
function globRegExp(pattern: string): RegExp {
  let p = pattern.replace(/^\.\//, '').replace(/\/$/, '');
  // A last segment without a wildcard or extension names a folder: everything in it.
  if (!/[*?]/.test(p.split('/').pop() ?? '') && !/\.[a-z]+$/i.test(p)) p += '/**/*';
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (p.startsWith('**/', i)) {
      re += '(?:[^/]+/)*';
      i += 2;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** One config file with what it extends merged under it, as tsc merges them; `chain` from the project's own. */
function readConfig(file: string, chain: string[], dir: string): Resolved {
  const name = path.relative(dir, file) || file;
  if (chain.includes(file))
    throw new Error(`${name} extends itself (${[...chain, file].map((f) => path.relative(dir, f)).join(' → ')})`);
  const root = chain[0] ?? file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(plainJson(text));
  } catch (err) {
    throw new Error(`${name} is not JSON with comments, as tsc reads it: ${(err as Error).message}`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${name} is not a JSON object`);
  const config = json as { extends?: unknown; compilerOptions?: unknown; include?: unknown; files?: unknown };
  const bases = config.extends === undefined ? [] : Array.isArray(config.extends) ? config.extends : [config.extends];
  let merged: Resolved = { options: {}, paths: {} };
  for (const base of bases) {
    if (typeof base !== 'string') throw new Error(`${name}: "extends" must name a file or a package`);
    const next = readConfig(resolveExtends(base, file, name), [...chain, file], dir);
    merged = {
      options: { ...merged.options, ...next.options },
      paths: { ...merged.paths, ...next.paths },
      include: next.include ?? merged.include,
      files: next.files ?? merged.files,
    };
  }
  const options =
    config.compilerOptions && typeof config.compilerOptions === 'object' ? (config.compilerOptions as Options) : {};
  const here = path.dirname(file);
  const paths = { ...merged.paths };
  for (const key of ['outDir', 'rootDir'] as const)
    if (typeof options[key] === 'string') paths[key] = path.resolve(here, options[key] as string);
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined);
  // `include` and `files` of a base are relative to that base: rebased onto the project's folder.
  const rebase = (list: string[] | undefined) =>
    list?.map((p) => path.relative(path.dirname(root), path.resolve(here, p)).split(path.sep).join('/'));
  return {
    options: { ...merged.options, ...options },
    paths,
    include: rebase(strings(config.include)) ?? merged.include,
    files: rebase(strings(config.files)) ?? merged.files,
  };
}

/** `extends`: a path relative to the config, or a package (its tsconfig.json, or a file in it). */
function resolveExtends(spec: string, from: string, name: string): string {
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const file = path.resolve(path.dirname(from), spec);
    return existsSync(file) || file.endsWith('.json') ? file : `${file}.json`;
  }
  const require = createRequire(from);
  for (const candidate of [spec, `${spec}.json`, `${spec}/tsconfig.json`]) {
    try {
      return require.resolve(candidate);
    } catch {
      /* the next form */
    }
  }
  throw new Error(
    `${name} extends "${spec}", which is not installed yet, so mcpgen could not check it. The generated project needs "module": "NodeNext" and "outDir": "dist" in compilerOptions, with src/ and test/ included`,
  );
}

/** JSON with comments and trailing commas, as tsc reads it, as plain JSON (strings left as they are). */
function plainJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (text.startsWith('//', i)) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += text[i];
  }
  // With the comments gone, a comma before `}` or `]` outside a string is a trailing one.
  let plain = '';
  for (let i = 0; i < out.length; i++) {
    if (out[i] === '"') {
      const end = stringEnd(out, i);
      plain += out.slice(i, end);
      i = end - 1;
    } else if (out[i] !== ',') plain += out[i];
    else {
      let next = i + 1;
      while (/\s/.test(out[next] ?? '')) next++;
      if (out[next] !== '}' && out[next] !== ']') plain += ',';
    }
  }
  return plain;
}

/** The index just past the JSON string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
