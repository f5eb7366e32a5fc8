/**
 * Native dependencies and the platforms a bundle of them works on. A compiled `.node` file outside
 * `prebuilds/` (node-gyp's build/Release, node-pre-gyp's lib/binding, a napi-rs platform package,
 * which npm installs only where its `os` and `cpu` match) was built or installed for this machine; `prebuilds/<platform>-<arch>[+<arch>…]/` (prebuildify,
 * node-gyp-build) hold one for each platform named.
 */
import type { BundledPackage, PackageManifest } from './dependencies.js';

/** The platforms an MCPB manifest can declare (`compatibility.platforms`). */
export const MCPB_PLATFORMS = ['darwin', 'linux', 'win32'] as const;

/** `<platform>-<arch>`, as `process.platform` and `process.arch` name them. */
export type Target = string;

export interface NativePackage {
  pkg: BundledPackage;
  /** What made it native, for messages. */
  why: string;
  /** Where its binaries run; null when it has none (a build that failed or was skipped: it must do without). */
  targets: Set<Target> | null;
}

export const hostTarget = (): Target => `${process.platform}-${process.arch}`;

const PREBUILD = /^prebuilds\/([^/]+)\//;

/** The targets a prebuilds/ folder name covers: `darwin-x64+arm64` → darwin-x64, darwin-arm64. */
function prebuildTargets(folder: string): Target[] {
  const dash = folder.indexOf('-');
  if (dash <= 0) return [];
  const platform = folder.slice(0, dash);
  return folder
    .slice(dash + 1)
    .split('+')
    .map((arch) => `${platform}-${arch}`);
}

/** The package's native side, from its files (relative POSIX paths) and package.json; null for pure JavaScript. */
export function nativePackage(pkg: BundledPackage, files: readonly string[], host: Target): NativePackage | null {
  const prebuilt = new Set<Target>();
  let binary = false;
  for (const f of files) {
    const m = PREBUILD.exec(f);
    if (m) {
      if (f.endsWith('.node')) for (const t of prebuildTargets(m[1]!)) prebuilt.add(t);
    } else if (f.endsWith('.node')) binary = true;
  }
  const gyp = files.includes('binding.gyp') || pkg.manifest.gypfile === true;
  if (!binary && !prebuilt.size && !gyp) return null;
  const why = binary ? 'a compiled .node file' : prebuilt.size ? 'prebuilds/' : 'binding.gyp';
  const targets = binary ? new Set([host, ...prebuilt]) : prebuilt.size ? prebuilt : null;
  return { pkg, why, targets };
}

/** npm's reading of package.json `os` and `cpu`: the values allowed, or `!value`s blocked. */
function allowedBy(list: string[] | undefined, value: string): boolean {
  if (!list?.length) return true;
  if (list.includes(`!${value}`)) return false;
  const allowed = list.filter((v) => !v.startsWith('!'));
  return !allowed.length || allowed.includes(value);
}

export interface Platforms {
  /** null: one bundle for `platforms`; else one bundle per target. */
  targets: Target[] | null;
  platforms: string[];
}

/**
 * Where the bundles work: without a native package that has binaries, one bundle for every
 * platform no package's `os` excludes; else the targets every native package has binaries for
 * and no package's `os` or `cpu` excludes.
 */
export function bundlePlatforms(natives: readonly NativePackage[], packages: readonly PackageManifest[]): Platforms {
  const limiting = natives.filter((n) => n.targets);
  if (!limiting.length)
    return { targets: null, platforms: MCPB_PLATFORMS.filter((p) => packages.every((m) => allowedBy(m.os, p))) };
  let common: Target[] = [...limiting[0]!.targets!];
  for (const n of limiting.slice(1)) common = common.filter((t) => n.targets!.has(t));
  const targets = common
    .filter((t) => (MCPB_PLATFORMS as readonly string[]).includes(platformOf(t)))
    .filter((t) => packages.every((m) => allowedBy(m.os, platformOf(t)) && allowedBy(m.cpu, archOf(t))))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { targets, platforms: [...new Set(targets.map(platformOf))] };
}

const archOf = (t: Target): string => t.slice(t.indexOf('-') + 1);
export const platformOf = (t: Target): string => t.slice(0, t.indexOf('-'));

/** node-gyp's intermediates and the C/C++ sources and build files a compiled module no longer needs. */
const BUILD_LEFTOVER = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx|o|obj|a|lib|gyp|gypi|mk|pdb|exp|ilk|tlog|lastbuildstate)$/i;
/** What a build/ folder keeps: the module and shared libraries it may link at load time. */
const LOADABLE = /\.(node|dll|dylib|so(\.\d+)*)$/;

/**
 * Whether a native package's file is left out of the bundle for `target`: other platforms'
 * prebuilds, this machine's binaries in another platform's bundle (node-gyp-build tries
 * build/Release before prebuilds/, so a foreign binary there would be loaded and fail), and what
 * compiling left behind.
 */
export function isNativeLeftover(rel: string, target: Target | null, host: Target): boolean {
  const m = PREBUILD.exec(rel);
  if (m) return target !== null && !prebuildTargets(m[1]!).includes(target);
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (rel.startsWith('build/')) {
    if (!LOADABLE.test(name)) return true;
    if (/\/(obj\.target|obj|\.deps)\//.test(rel)) return true;
  }
  if (LOADABLE.test(name)) return target !== null && target !== host;
  if (name === 'Makefile' || name === 'config.gypi' || BUILD_LEFTOVER.test(name)) return true;
  return false;
}
