/**
 * Reading an unpacked bundle: its files, and the packages Node reaches from its package.json,
 * compared edge by edge with what they reach in the installed project.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `root`, POSIX paths relative to it, sorted. */
export function bundledFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(root, r)).isDirectory()) walk(r);
      else out.push(r);
    }
  };
  walk('');
  return out;
}

interface Pkg {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = (dir: string): Pkg => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Pkg;

/** Node's lookup of a package folder: node_modules/<name> from `from` upwards, no higher than `top`. */
function lookup(name: string, from: string, top: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const c = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(c, 'package.json'))) return realpathSync(c);
    if (dir === top || path.dirname(dir) === dir) return null;
  }
}

export interface Reachability {
  /** Names of the packages reached. */
  names: Set<string>;
  /** `<package> → <dependency>` not found in the bundle (optional ones excepted). */
  missing: string[];
  /** Packages in the bundle that nothing reaches. */
  unreached: string[];
  /** `<package> → <dependency>`: the bundle's version, then the installed project's, where they differ. */
  mismatched: string[];
}

/** The packages reachable from the bundle's package.json, checked against the installed `projectDir`. */
export function reachablePackages(root: string, projectDir: string): Reachability {
  root = realpathSync(root);
  const names = new Set<string>();
  const missing: string[] = [];
  const mismatched: string[] = [];
  const seen = new Set<string>();
  const queue: [string, string, string][] = [[root, realpathSync(projectDir), '(bundle)']];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [dir, installed, label] = next;
    const m = manifest(dir);
    const optional = new Set(Object.keys(m.optionalDependencies ?? {}));
    const peers = Object.keys(m.peerDependencies ?? {}).filter((n) => !m.peerDependenciesMeta?.[n]?.optional);
    const deps = dir === root ? Object.keys(m.dependencies ?? {}) : [...Object.keys(m.dependencies ?? {}), ...peers];
    for (const name of [...deps, ...optional]) {
      const inBundle = lookup(name, dir, root);
      const inProject = lookup(name, installed, path.parse(installed).root);
      if (!inBundle) {
        if (!optional.has(name) || inProject) missing.push(`${label} → ${name}`);
        continue;
      }
      const a = manifest(inBundle).version;
      const b = inProject ? manifest(inProject).version : '(not installed)';
      if (a !== b) mismatched.push(`${label} → ${name}: ${a} ≠ ${b}`);
      names.add(name);
      if (!seen.has(inBundle) && inProject) {
        seen.add(inBundle);
        queue.push([inBundle, inProject, path.relative(root, inBundle)]);
      }
    }
  }
  const unreached = bundledFiles(root)
    .filter((f) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(f))
    .map((f) => path.join(root, path.dirname(f)))
    .filter((d) => /\/node_modules\/(@[^/]+\/)?[^/]+$/.test(d) && !seen.has(d))
    .map((d) => path.relative(root, d));
  return { names, missing, unreached, mismatched };
}
