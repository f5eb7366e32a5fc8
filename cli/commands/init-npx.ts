/**
 * `init` run by `npx --package=<mcpgen tarball> mcpgen init`: mcpgen runs from npx's cache, which
 * npm clears at will, so the `file:` paths to mcpgen and its runtime tarball (where mcpgen runs)
 * would point at nothing once it is gone. The project gets its own copy of the runtime tarball in
 * vendor/ instead, and mcpgen is named by the tarball npx was given.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { runtimeTarball, toolchainSpecs } from '../plan/dependencies.js';

export interface NpxToolchain {
  /** The folder of npx's cache mcpgen runs from (…/_npx/<hash>). */
  cache: string;
  /** The runtime tarball's copy, relative to the project (vendor/mcpgen-runtime-<version>.tgz). */
  runtime: string;
  /** The mcpgen tarball npx installed from, or null when npx was not given one. */
  tarball: string | null;
  /** Each `file:` spec into the cache → the one to write instead. */
  specs: Map<string, string>;
}

/** The npx cache folder mcpgen runs from (`<cache>/_npx/<hash>/node_modules/mcpgen`), or null. */
function npxCacheDir(root: string = PACKAGE_ROOT): string | null {
  const parts = root.split(path.sep);
  const at = parts.lastIndexOf('_npx');
  return at > 0 && parts[at + 2] === 'node_modules' ? parts.slice(0, at + 2).join(path.sep) : null;
}

/** The tarball npx installed mcpgen from: npm records what it was given in the cache's package.json. */
function npxTarball(cache: string): string | null {
  let pkg: { _npx?: { packages?: unknown } };
  try {
    pkg = JSON.parse(readFileSync(path.join(cache, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
  const given = Array.isArray(pkg._npx?.packages) ? pkg._npx.packages : [];
  for (const spec of given) {
    if (typeof spec !== 'string') continue;
    const file = path.resolve(cache, spec.replace(/^file:/, ''));
    if (/\.t(ar\.)?gz$/.test(file) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

const fileSpec = (projectDir: string, target: string) =>
  `file:${path.relative(projectDir, target).split(path.sep).join('/') || '.'}`;

/**
 * When mcpgen runs from npx's cache: copies the runtime tarball into the project's vendor/ (kept
 * when a file of that name is there) and says which specs replace the ones into the cache; null
 * when mcpgen runs from anywhere else.
 */
export function vendorToolchain(projectDir: string): NpxToolchain | null {
  const cache = npxCacheDir();
  const source = runtimeTarball();
  if (cache === null || source === null) return null;
  const runtime = `vendor/${path.basename(source)}`;
  const target = path.join(projectDir, runtime);
  if (!existsSync(target)) {
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  const tarball = npxTarball(cache);
  const old = toolchainSpecs(projectDir);
  const specs = new Map([[old.runtime, `file:${runtime}`]]);
  if (tarball !== null) specs.set(old.mcpgen, fileSpec(projectDir, tarball));
  return { cache, runtime, tarball, specs };
}

/** `text` (package.json as generate wrote it, an install command) with each spec into the cache replaced. */
export function replaceSpecs(text: string, specs: Map<string, string>, quoted: boolean): string {
  let out = text;
  for (const [from, to] of specs)
    out = quoted ? out.split(JSON.stringify(from)).join(JSON.stringify(to)) : out.split(from).join(to);
  return out;
}
