/**
 * The packages generated code imports. package.json is the user's after `init`, so mcpgen never
 * rewrites it: it names what is missing and the exact command that adds it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { jsonParseError } from '../load/json-object.js';
import { PACKAGE_ROOT } from '../paths.js';
import { VERSION } from '../version.js';

/** The library generated code runs on, released in lockstep with mcpgen. */
export const RUNTIME_PACKAGE = '@mcpgen/runtime';
/** The runtime versions this mcpgen's generated code works with. */
export const RUNTIME_RANGE = `^${VERSION}`;

/**
 * The SDK is pinned to the minor the runtime is tested with (`~`): the runtime builds on SDK
 * behaviour that a minor release may change (how McpServer installs its handlers, the tools/call
 * result check the tasks extension sits in front of).
 */
export const SDK_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/server': '~2.4.0',
};

/** The runtime's optional peers, needed only by a project that uses their feature. */
const FEATURE_DEPENDENCIES: Record<'oauth' | 'sse', Record<string, string>> = {
  oauth: { jose: '^6.2.18' },
  sse: { '@modelcontextprotocol/server-legacy': '~2.3.1' },
};

/** The features of a project that bring packages of their own. */
export interface Features {
  /** transports.http.auth.oauth */
  oauth: boolean;
  /** a resource with `build:` (a view bundled by `mcpgen build`) */
  views?: boolean;
  /** transports.http.sse */
  sse: boolean;
}

/**
 * The runtime packed into mcpgen's own dist/ by its build (and so shipped in mcpgen's tarball):
 * while neither package is on the npm registry, projects install the runtime from it.
 */
export function runtimeTarball(): string | null {
  const file = path.join(PACKAGE_ROOT, 'dist', `mcpgen-runtime-${VERSION}.tgz`);
  return existsSync(file) ? file : null;
}

/** How a path is written in a `file:` dependency: relative to the project, with `/`. */
const fileSpec = (projectDir: string, target: string) =>
  `file:${path.relative(projectDir, target).split(path.sep).join('/') || '.'}`;

/**
 * What the package.json of a project in `projectDir` names for the runtime and for mcpgen itself
 * (`mcpgen dev`): from where this mcpgen runs while unpublished, else their semver ranges.
 */
export function toolchainSpecs(projectDir: string): { runtime: string; mcpgen: string } {
  const tarball = runtimeTarball();
  if (!tarball) return { runtime: RUNTIME_RANGE, mcpgen: `^${VERSION}` };
  return { runtime: fileSpec(projectDir, tarball), mcpgen: fileSpec(projectDir, PACKAGE_ROOT) };
}

/** The runtime packages a project with `features` needs (`runtime`: how the runtime is named). */
export function runtimeDependencies(features: Features, runtime: string = RUNTIME_RANGE): Record<string, string> {
  const deps: Record<string, string> = { [RUNTIME_PACKAGE]: runtime, ...SDK_DEPENDENCIES };
  for (const key of ['oauth', 'sse'] as const) if (features[key]) Object.assign(deps, FEATURE_DEPENDENCIES[key]);
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The features of a project, read from its generated HTTP entry (the settings it passes the runtime). */
export function featuresOf(projectDir: string): Features {
  let http = '';
  try {
    http = readFileSync(path.join(projectDir, 'src/generated/http.ts'), 'utf8');
  } catch {
    /* no HTTP entry: a stdio server */
  }
  let server = '';
  try {
    server = readFileSync(path.join(projectDir, 'src/generated/server.ts'), 'utf8');
  } catch {
    /* not generated yet */
  }
  return { oauth: /^ {2}oauth: /m.test(http), sse: /^ {2}sse: /m.test(http), views: /\bbuiltView\(/.test(server) };
}

export const DEV_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/client': '~2.4.0',
  '@types/node': '^20.19.0',
  // `mcpgen build` bundles the server and its views with it: small, standard, no configuration.
  esbuild: '^0.28.2',
  typescript: '^5.9.0 || ^7.0.0',
};

/** The extension's `App` class, which starter views use: bundled into the view by `mcpgen build`. */
export const VIEW_DEV_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/ext-apps': '^2.0.4',
};

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

const atLeast = (a: Version, b: Version) =>
  a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] >= b[2])));

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
    // `~` and a 0.x `^` (the runtime's, for one) hold the minor.
    return (!alt.trim().startsWith('~') && min[0] !== 0) || lowest[1] === min[1];
  });
}

/** A message naming missing or too-old packages with the npm command to fix it, or null when all is well. */
export function missingDependencies(projectDir: string, viewFolders?: readonly string[]): string | null {
  const found = dependencyProblems(projectDir, viewFolders);
  if (!found) return null;
  if (found.invalid) return `! ${found.invalid}`;
  return `! package.json does not match what the generated code needs (${found.problems.join('; ')}); run:\n    ${found.commands.join('\n    ')}`;
}

type PackageJson = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, unknown>;
};

/** package.json's data; null when there is none, or why it cannot be read. */
export function readPackageJson(projectDir: string): PackageJson | null | { invalid: string } {
  const file = path.join(projectDir, 'package.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : { invalid: `package.json cannot be read (${code ?? (err as Error).message})` };
  }
  const body = text.replace(/^\uFEFF/, '');
  try {
    const data = JSON.parse(body) as unknown;
    if (data && typeof data === 'object' && !Array.isArray(data)) return data as PackageJson;
    return { invalid: 'package.json is not a JSON object: npm, the build and the checks of its packages need one' };
  } catch (err) {
    const { where, what } = jsonParseError(body, err as Error);
    return {
      invalid: `package.json:${where}: not valid JSON (${what}): npm, the build and the checks of its packages need valid JSON`,
    };
  }
}

/** A command line argument, quoted for POSIX shells when it needs it. */
const shellArg = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

const viewDependencyListed = (listed: Record<string, string>) =>
  Object.keys(VIEW_DEV_DEPENDENCIES).every((name) => Object.hasOwn(listed, name));

/** Whether a view's sources import the extension's package (the starter views do). */
function importsExtApps(folders: readonly string[]): boolean {
  const name = Object.keys(VIEW_DEV_DEPENDENCIES)[0]!;
  for (const folder of folders) {
    let files: string[];
    try {
      files = readdirSync(folder, { recursive: true }) as string[];
    } catch {
      continue;
    }
    for (const file of files) {
      if (!/\.(?:[mc]?[jt]sx?|html)$/.test(file) || file.split(/[\\/]/).includes('node_modules')) continue;
      try {
        if (readFileSync(path.join(folder, file), 'utf8').includes(name)) return true;
      } catch {
        /* unreadable: the build says so */
      }
    }
  }
  return false;
}

/**
 * What is missing or too old, and the npm commands that add it; null when all is well or there is
 * no package.json; `invalid` when it cannot be read. `viewFolders`: the manifest's built views'
 * folders, when known, so the extension's package is asked for where a view imports it.
 */
export function dependencyProblems(
  projectDir: string,
  viewFolders?: readonly string[],
): { problems: string[]; commands: string[]; invalid?: string } | null {
  const pkg = readPackageJson(projectDir);
  if (pkg === null) return null; // generate creates one when missing
  if ('invalid' in pkg) return { problems: [pkg.invalid as string], commands: [], invalid: pkg.invalid as string };
  const listed: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };
  const problems: string[] = [];
  const need = (deps: Record<string, string>) =>
    Object.entries(deps)
      .filter(([name, range]) => {
        const have = listed[name];
        if (have === undefined) return (problems.push(`${name} is not listed`), true);
        if (!rangeSatisfies(have, range))
          return (problems.push(`${name}@${have} is older than the generated code needs (${range})`), true);
        return false;
      })
      .map(([name, range]) => `${name}@${JSON.stringify(range.split(' || ').pop()!.trim())}`);
  const specs = toolchainSpecs(projectDir);
  const features = featuresOf(projectDir);
  const runtime = need(runtimeDependencies(features, RUNTIME_RANGE)).map((cmd) =>
    cmd.startsWith(`${RUNTIME_PACKAGE}@`) ? shellArg(`${RUNTIME_PACKAGE}@${specs.runtime}`) : cmd,
  );
  // Listed but installed at a version the generated code does not work with (a stale node_modules).
  const installed = installedVersion(projectDir, RUNTIME_PACKAGE);
  if (installed !== null && !runtime.length && !rangeSatisfies(installed, RUNTIME_RANGE)) {
    problems.push(`${RUNTIME_PACKAGE} ${installed} is installed, the generated code needs ${RUNTIME_RANGE}`);
    runtime.push(shellArg(`${RUNTIME_PACKAGE}@${specs.runtime}`));
  }
  const dev = need({
    ...DEV_DEPENDENCIES,
    // A view's sources are read only when the package is not listed: listed, its range is checked.
    ...(viewFolders && (viewDependencyListed(listed) || importsExtApps(viewFolders)) ? VIEW_DEV_DEPENDENCIES : {}),
    // Its scripts run mcpgen (build, dev): the project's own, so no global install is needed.
    mcpgen: `^${VERSION}`,
  }).map((cmd) => (cmd.startsWith('mcpgen@') ? shellArg(`mcpgen@${specs.mcpgen}`) : cmd));
  // The bundle (and built views) exist only when `npm run build` runs mcpgen build: the
  // Dockerfile, prepack and the tests run it. A build of the user's own keeps its steps, then this.
  const build = pkg.scripts?.build;
  const buildsViews = typeof build === 'string' && build.includes('mcpgen build');
  if (!buildsViews)
    problems.push(
      `scripts.build ${typeof build === 'string' ? `(${JSON.stringify(build)}) ` : ''}does not run \`mcpgen build\`, which bundles the server${features.views ? ' and its views' : ''}`,
    );
  if (!runtime.length && !dev.length && buildsViews) return null;
  const cmds = [];
  if (runtime.length) cmds.push(`npm install ${runtime.join(' ')}`);
  if (dev.length) cmds.push(`npm install -D ${dev.join(' ')}`);
  if (!buildsViews) {
    const script = typeof build === 'string' && build.trim() ? `${build} && mcpgen build` : 'mcpgen build';
    cmds.push(`npm pkg set ${shellArg(`scripts.build=${script}`)}`);
  }
  return { problems, commands: cmds };
}

/** The version of `name` installed in the project's node_modules, or null. */
function installedVersion(projectDir: string, name: string): string | null {
  try {
    const pkg = JSON.parse(readFileSync(path.join(projectDir, 'node_modules', name, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : null;
  } catch {
    return null;
  }
}
