/**
 * The production dependency tree of a project, resolved as Node resolves it (node_modules folders
 * from the package up to the root), laid out for a bundle's own node_modules.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';

export interface BundledPackage {
  name: string;
  version: string;
  /** The installed folder to copy from. */
  from: string;
  /** Where it goes in the bundle, POSIX, e.g. `node_modules/yaml` or `node_modules/a/node_modules/b`. */
  to: string;
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** The folder `name` resolves to from `fromDir`, or null. */
function resolvePackage(name: string, fromDir: string): string | null {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Every package the project needs at run time: `dependencies` and their dependencies and required
 * peers (optional ones only when installed). A version already placed at the top is reused; another
 * version nests under the package that needs it, as npm would.
 */
export function productionDependencies(projectDir: string): BundledPackage[] {
  const placed = new Map<string, BundledPackage>();
  const out: BundledPackage[] = [];
  const visit = (pkgDir: string, bundleDir: string, names: [string, boolean][], chain: string[]) => {
    for (const [name, optional] of names) {
      const from = resolvePackage(name, pkgDir);
      if (!from) {
        if (optional) continue;
        throw new UsageError(
          `cannot bundle: ${name} (needed by ${chain.join(' → ')}) is not installed; run npm install in ${projectDir}`,
        );
      }
      const m = readManifest(from);
      const version = m.version ?? '0.0.0';
      const top = placed.get(`node_modules/${name}`);
      let to: string;
      if (!top) to = `node_modules/${name}`;
      else if (top.version === version) continue;
      else to = `${bundleDir === '' ? '' : `${bundleDir}/`}node_modules/${name}`;
      if (placed.has(to)) continue;
      const entry = { name, version, from, to };
      placed.set(to, entry);
      out.push(entry);
      visit(from, to, depsOf(m), [...chain, name]);
    }
  };
  const root = readManifest(projectDir);
  visit(
    projectDir,
    '',
    Object.keys(root.dependencies ?? {}).map((n) => [n, false]),
    [root.name ?? 'the project'],
  );
  return out.sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
}

function depsOf(m: Manifest): [string, boolean][] {
  // An optional peer is a feature's package (the runtime's jose, ioredis …): bundled only when the
  // project lists it among its own dependencies, not because a dev dependency installed it.
  const peers = Object.keys(m.peerDependencies ?? {})
    .filter((n) => m.peerDependenciesMeta?.[n]?.optional !== true)
    .map((n): [string, boolean] => [n, false]);
  return [
    ...Object.keys(m.dependencies ?? {}).map((n): [string, boolean] => [n, false]),
    ...Object.keys(m.optionalDependencies ?? {}).map((n): [string, boolean] => [n, true]),
    ...peers,
  ];
}
