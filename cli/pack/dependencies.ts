/**
 * The production dependency tree of a project, resolved as Node resolves it (node_modules folders
 * from the package up to the root), laid out for a bundle's own node_modules.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { readJsonObject } from '../load/json-object.js';

export interface BundledPackage {
  name: string;
  version: string;
  /** The installed folder to copy from. */
  from: string;
  /** Where it goes in the bundle, POSIX, e.g. `node_modules/yaml` or `node_modules/a/node_modules/b`. */
  to: string;
  /** package.json as installed. */
  manifest: PackageManifest;
}

export interface PackageManifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  gypfile?: boolean;
  os?: string[];
  cpu?: string[];
}

/** Past this many nested node_modules a layout is taken to be a cycle of conflicting versions. */
const MAX_DEPTH = 32;

/** `rel` names a file in messages (relative to where mcpgen runs). */
const readManifest = (dir: string, rel: (abs: string) => string): PackageManifest => {
  const file = path.join(dir, 'package.json');
  return readJsonObject(file, rel(file)) as PackageManifest;
};

/** The real folder `name` resolves to from `fromDir`, or null. */
function resolvePackage(name: string, fromDir: string): string | null {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Every package the project needs at run time: `dependencies` and their dependencies and required
 * peers; optional dependencies and optional peers only when installed. Each package goes at the top
 * of the bundle's node_modules when the name is free there, else under the package that needs it,
 * so that Node, resolving inside the bundle, finds for every package exactly the folder it finds
 * in the installed tree. A package's dependencies are all placed before any package nested under
 * it looks for its own, so a later placement never shadows one already resolved.
 */
export function productionDependencies(
  projectDir: string,
  inBundle: readonly string[] = [],
  rel: (abs: string) => string = (abs) => abs,
): BundledPackage[] {
  const placed = new Map<string, BundledPackage>();
  const root = readManifest(projectDir, rel);
  // What the built server already holds (its bundle) is no dependency of the project's own.
  const own = (deps: [string, boolean][]) => deps.filter(([name]) => !inBundle.includes(name));
  interface Pending {
    from: string;
    /** Bundle folder of the package ('' for the project). */
    at: string;
    deps: [string, boolean][];
    chain: string[];
  }
  const queue: Pending[] = [
    {
      from: projectDir,
      at: '',
      // The project's own peers are not its production dependencies.
      deps: own(depsOf({ dependencies: root.dependencies, optionalDependencies: root.optionalDependencies })),
      chain: [root.name ?? 'the project'],
    },
  ];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { from: pkgDir, at, deps, chain } = next;
    for (const [name, optional] of deps) {
      const from = resolvePackage(name, pkgDir);
      if (!from) {
        if (optional) continue;
        throw new UsageError(
          `cannot bundle: ${name} (needed by ${chain.join(' → ')}) is not installed; run npm install in ${projectDir}`,
        );
      }
      if (resolveInBundle(placed, name, at)?.from === from) continue;
      const top = `node_modules/${name}`;
      const to = placed.has(top) && at ? `${at}/node_modules/${name}` : top;
      if (to.split('/node_modules/').length > MAX_DEPTH)
        throw new UsageError(`cannot bundle: ${chain.join(' → ')} → ${name} nests too deep`);
      const manifest = readManifest(from, rel);
      placed.set(to, { name, version: manifest.version ?? '0.0.0', from, to, manifest });
      queue.push({ from, at: to, deps: depsOf(manifest), chain: [...chain, name] });
    }
  }
  return [...placed.values()].sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
}

/** What Node finds for `name` from the bundle folder `at`: the nearest node_modules/<name> going up. */
function resolveInBundle(placed: Map<string, BundledPackage>, name: string, at: string): BundledPackage | undefined {
  for (let dir = at; ; ) {
    const hit = placed.get(dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`);
    if (hit) return hit;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

function depsOf(m: PackageManifest): [string, boolean][] {
  // An optional peer is a feature's package (the runtime's jose, ioredis …): bundled only when the
  // project lists it among its own dependencies, not because a dev dependency installed it.
  const peers = Object.keys(m.peerDependencies ?? {})
    .filter((n) => m.peerDependenciesMeta?.[n]?.optional !== true)
    .map((n): [string, boolean] => [n, false]);
  const optional = new Set(Object.keys(m.optionalDependencies ?? {}));
  return [
    ...Object.keys(m.dependencies ?? {})
      .filter((n) => !optional.has(n))
      .map((n): [string, boolean] => [n, false]),
    ...[...optional].map((n): [string, boolean] => [n, true]),
    ...peers,
  ];
}
