/**
 * The packages generated code imports. package.json is the user's after `init`, so mcpgen never
 * rewrites it: it names what is missing and the exact command that adds it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The SDK packages are pinned to the minor the generated runtime is tested with (`~`): it builds
 * on SDK behaviour that a minor release may change (how McpServer installs its handlers, the
 * tools/call result check the tasks extension sits in front of).
 */
export const RUNTIME_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/node': '~2.1.2',
  '@modelcontextprotocol/server': '~2.4.0',
};

/** Packages that only some generated files import, by file: a server without OAuth has no `jose`. */
const FILE_DEPENDENCIES: Record<string, Record<string, string>> = {
  'src/generated/oauth.ts': { jose: '^6.2.18' },
  'src/generated/sse.ts': { '@modelcontextprotocol/server-legacy': '~2.3.1' },
  'src/generated/redis.ts': { ioredis: '^6.0.0' },
};

/** The runtime packages a project whose generated files are `generated` needs. */
export function runtimeDependencies(generated: Iterable<string>): Record<string, string> {
  const deps = { ...RUNTIME_DEPENDENCIES };
  for (const file of generated) Object.assign(deps, FILE_DEPENDENCIES[file]);
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const DEV_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/client': '~2.4.0',
  '@types/node': '^20.19.0',
  typescript: '^5.9.0 || ^7.0.0',
};

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

const atLeast = (a: Version, b: Version) => a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] >= b[2])));

/**
 * Whether the lowest version a listed range admits satisfies one of the required `^x.y.z` or
 * `~x.y.z` alternatives (same major, or same minor for `~`, and no older). Tags, URLs, paths and
 * `*` are the user's call: they are not second-guessed.
 */
export function rangeSatisfies(listed: string, required: string): boolean {
  if (!/^\s*[\^~>=v]*\s*\d/.test(listed)) return true;
  const lowest = parseVersion(listed);
  if (!lowest) return true;
  return required.split('||').some((alt) => {
    const min = parseVersion(alt);
    if (min === null || lowest[0] !== min[0] || !atLeast(lowest, min)) return false;
    return !alt.trim().startsWith('~') || lowest[1] === min[1];
  });
}

/** A message naming missing or too-old packages with the npm command to fix it, or null when all is well. */
export function missingDependencies(projectDir: string, generated: Iterable<string>): string | null {
  const found = dependencyProblems(projectDir, generated);
  return found && `! package.json does not match what the generated code needs (${found.problems.join('; ')}); run:\n    ${found.commands.join('\n    ')}`;
}

/** What is missing or too old, and the npm commands that add it; null when all is well or there is no package.json. */
export function dependencyProblems(projectDir: string, generated: Iterable<string>): { problems: string[]; commands: string[] } | null {
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  } catch {
    return null; // no readable package.json: nothing to compare with (generate creates one when missing)
  }
  const listed: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };
  const problems: string[] = [];
  const need = (deps: Record<string, string>) =>
    Object.entries(deps)
      .filter(([name, range]) => {
        const have = listed[name];
        if (have === undefined) return problems.push(`${name} is not listed`), true;
        if (!rangeSatisfies(have, range)) return problems.push(`${name}@${have} is older than the generated code needs (${range})`), true;
        return false;
      })
      .map(([name, range]) => `${name}@${JSON.stringify(range.split(' || ').pop()!.trim())}`);
  const runtime = need(runtimeDependencies(generated));
  const dev = need(DEV_DEPENDENCIES);
  if (!runtime.length && !dev.length) return null;
  const cmds = [];
  if (runtime.length) cmds.push(`npm install ${runtime.join(' ')}`);
  if (dev.length) cmds.push(`npm install -D ${dev.join(' ')}`);
  return { problems, commands: cmds };
}
