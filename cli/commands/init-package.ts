/**
 * `init` in a folder that already has a package.json: the file is the user's and is never changed.
 * Instead, this works out exactly what it lacks for the generated project (`"type": "module"`, the
 * scripts, the bin) as a JSON fragment to merge in, and the commands the next steps must use so
 * that each of them works once the fragment is merged. A script the user already has under the
 * same name with another command is kept; the generated one is offered as `<name>:mcp` (but see
 * IN_PLACE).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface PackageAdvice {
  /** The keys to merge into package.json, or null when nothing is missing. */
  add: Record<string, unknown> | null;
  /** One line per thing kept as the user wrote it that differs from what mcpgen would write. */
  kept: string[];
  /** Script name to run for each generated script (`test` → `test:mcp` when `test` is the user's). */
  scriptName: Record<string, string>;
}

type Pkg = {
  name?: unknown;
  type?: unknown;
  scripts?: Record<string, unknown>;
  bin?: unknown;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
};

/**
 * Scripts that mean nothing under another name, left alone when the user's differs: lifecycle
 * scripts, and `build`, which the Dockerfile, prepack and the tests run by that name (the steps
 * printed after the fragment add `mcpgen build` to the user's own).
 */
const IN_PLACE = new Set(['prepack', 'prepare', 'postinstall', 'build']);

/** The folder's package.json: null when there is none, 'invalid' when it is not a JSON object. */
export function readPackage(dir: string): Pkg | null | 'invalid' {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return pkg && typeof pkg === 'object' && !Array.isArray(pkg) ? (pkg as Pkg) : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** Compares the user's package.json with the one mcpgen would have written (`wanted`). */
export function packageAdvice(pkg: Pkg, wanted: Record<string, unknown>): PackageAdvice {
  const add: Record<string, unknown> = {};
  const kept: string[] = [];
  if (pkg.type !== 'module') {
    add.type = 'module';
    if (pkg.type !== undefined)
      kept.push(
        `"type" is ${JSON.stringify(pkg.type)}: the generated code is ES modules and needs "module" (other .js files of yours then load as ES modules too)`,
      );
  }
  const have = pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts : {};
  const ours = wanted.scripts as Record<string, string>;
  const scriptName: Record<string, string> = {};
  for (const [name, command] of Object.entries(ours)) {
    if (have[name] === undefined || have[name] === command) scriptName[name] = name;
    else if (!IN_PLACE.has(name)) scriptName[name] = `${name}:mcp`;
  }
  const scripts: Record<string, string> = {};
  for (const [name, command] of Object.entries(ours)) {
    const target = scriptName[name];
    if (target === undefined) {
      kept.push(
        name === 'build'
          ? `scripts.build is yours (${JSON.stringify(have[name])}); the project also needs it to run \`mcpgen build\` (the steps below add it after yours)`
          : `scripts.${name} is yours (${JSON.stringify(have[name])}); mcpgen's would be ${JSON.stringify(command)}`,
      );
      scriptName[name] = name;
      continue;
    }
    // References to a renamed script follow it (`npm run build` → `npm run build:mcp`).
    const text = command.replace(/npm run ([\w:-]+)/g, (m, ref: string) =>
      scriptName[ref] ? `npm run ${scriptName[ref]}` : m,
    );
    if (have[target] === text) continue;
    if (target !== name)
      kept.push(
        `scripts.${name} is yours (${JSON.stringify(have[name])}); the generated project's is offered as scripts.${target}`,
      );
    scripts[target] = text;
  }
  if (Object.keys(scripts).length) add.scripts = scripts;
  if (pkg.bin === undefined && wanted.bin !== undefined) add.bin = wanted.bin;
  return { add: Object.keys(add).length ? add : null, kept, scriptName };
}

/** The fragment as printed: JSON, indented under the message so it is easy to copy. */
export function printFragment(add: Record<string, unknown>): string {
  return JSON.stringify(add, null, 2)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * Where the `yaml-language-server` modeline points: into the project's node_modules when mcpgen is
 * (or is about to be) a dependency of the project, so it resolves on every machine after
 * `npm install`; otherwise the schema of this very version on unpkg, which resolves anywhere.
 */
export function schemaRef(dir: string, pkg: Pkg | null | 'invalid', version: string): string {
  const local = './node_modules/mcpgen/schemas/manifest.v1.json';
  const listed =
    pkg !== null &&
    pkg !== 'invalid' &&
    ['dependencies', 'devDependencies'].some((k) => {
      const deps = pkg[k as 'dependencies'];
      return deps !== null && typeof deps === 'object' && Object.hasOwn(deps, 'mcpgen');
    });
  if (listed || existsSync(path.join(dir, local))) return local;
  return `https://unpkg.com/mcpgen@${version}/schemas/manifest.v1.json`;
}
