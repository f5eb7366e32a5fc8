/**
 * What goes into a bundle's node_modules: the production packages, each without what nothing loads
 * at run time, and the targets (platform-arch) the bundles are made for.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../diagnostics.js';
import { type BundledPackage, productionDependencies } from './dependencies.js';
import { type FoundFile, listFiles } from './files.js';
import {
  bundlePlatforms,
  isNativeLeftover,
  MCPB_PLATFORMS,
  type NativePackage,
  nativePackage,
  type Target,
} from './native.js';
import { isDroppable } from './prune.js';
import type { ZipEntry } from './zip.js';

export interface Contents {
  packages: { pkg: BundledPackage; files: FoundFile[]; native: NativePackage | null }[];
  /** null: no native package with binaries, one bundle for `platforms`; else one bundle per target. */
  targets: Target[] | null;
  platforms: string[];
  /** Native packages without a binary: bundled as they are, for the platforms the others allow. */
  warnings: string[];
  /** File contents read so far: read once however many bundles hold them. */
  read: (abs: string) => Buffer;
}

/**
 * What a server bundled by `mcpgen build` (dist/src/chunks/) carries inside: the runtime and the
 * SDK. The packages they load from node_modules (the optional peers) are the project's own
 * dependencies when it uses them, so they stay.
 */
export const BUNDLED_PACKAGES = ['@mcpgen/runtime', '@modelcontextprotocol/server'];

/** `rel` names a file in messages (relative to where mcpgen runs). */
export function bundleContents(
  projectDir: string,
  host: Target,
  bundled = false,
  rel: (abs: string) => string = (abs) => abs,
): Contents {
  const packages = productionDependencies(projectDir, bundled ? BUNDLED_PACKAGES : [], rel).map((pkg) => {
    // A package's own node_modules holds what productionDependencies placed elsewhere, or dev tools.
    const all = listFiles(pkg.from, (rel) => rel === 'node_modules');
    const files = all.filter((f) => !isDroppable(f.rel));
    return {
      pkg,
      files,
      native: nativePackage(
        pkg,
        all.map((f) => f.rel),
        host,
      ),
    };
  });
  const natives = packages.flatMap((p) => (p.native ? [p.native] : []));
  const { targets, platforms } = bundlePlatforms(
    natives,
    packages.map((p) => p.pkg.manifest),
  );
  if (!platforms.length) {
    const each = [
      ...natives.filter((n) => n.targets).map((n) => `${n.pkg.name} (${n.why}): ${[...n.targets!].sort().join(', ')}`),
      ...packages
        .filter((p) => p.pkg.manifest.os?.length || p.pkg.manifest.cpu?.length)
        .map(
          (p) =>
            `${p.pkg.name}: os ${JSON.stringify(p.pkg.manifest.os ?? [])}, cpu ${JSON.stringify(p.pkg.manifest.cpu ?? [])}`,
        ),
    ].join('; ');
    throw new UsageError(`cannot bundle: no platform (${MCPB_PLATFORMS.join(', ')}) suits every dependency: ${each}`);
  }
  const warnings = natives
    .filter((n) => !n.targets)
    .map((n) => `${n.pkg.name} has ${n.why} but no compiled module: it is bundled without one`);
  const cache = new Map<string, Buffer>();
  const read = (abs: string) => {
    let data = cache.get(abs);
    if (!data) cache.set(abs, (data = readFileSync(abs)));
    return data;
  };
  return { packages, targets, platforms, warnings, read };
}

/** The node_modules entries of the bundle for `target` (null: every platform). */
export function dependencyEntries(c: Contents, target: Target | null, host: Target): ZipEntry[] {
  const out: ZipEntry[] = [];
  for (const { pkg, files, native } of c.packages) {
    for (const f of files) {
      if (native && isNativeLeftover(f.rel, target, host)) continue;
      out.push({ name: `${pkg.to}/${f.rel}`, data: c.read(f.abs), mode: f.mode });
    }
  }
  return out;
}
