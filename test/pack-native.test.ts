/** Which files a bundle leaves out and which platforms it declares (cli/pack/prune.ts, native.ts). */
import { expect, it } from 'vitest';
import type { BundledPackage, PackageManifest } from '../cli/pack/dependencies.js';
import { bundlePlatforms, isNativeLeftover, nativePackage } from '../cli/pack/native.js';
import { isDroppable } from '../cli/pack/prune.js';

const pkg = (manifest: PackageManifest = {}): BundledPackage => ({
  name: manifest.name ?? 'p',
  version: '1.0.0',
  from: '/x',
  to: 'node_modules/p',
  manifest,
});

it('leaves out what only tools and readers use, and keeps what code may load', () => {
  const dropped = [
    'dist/index.js.map',
    'README.md',
    'docs/guide.markdown',
    'dist/index.d.ts',
    'dist/chunk-Ab3.d.mts',
    'dist/index.d.cts',
    'src/index.ts',
    'src/a.mts',
    'test/a.js',
    '__tests__/a.js',
    '.github/workflows/ci.yml',
    '.eslintrc.json',
    '.npmignore',
  ];
  const kept = [
    'dist/index.js',
    'dist/index.cjs',
    'index.mjs',
    'package.json',
    'LICENSE',
    'LICENSE.md',
    'licence.txt',
    'lib/lib.es2020.d.ts',
    'lib/test/helper.js',
    'data/table.json',
    'build/Release/addon.node',
    '.env.example',
  ];
  expect(dropped.filter((f) => !isDroppable(f))).toEqual([]);
  expect(kept.filter((f) => isDroppable(f))).toEqual([]);
});

it('finds native packages and the targets their binaries cover', () => {
  expect(nativePackage(pkg(), ['index.js', 'package.json'], 'linux-x64')).toBeNull();
  expect(nativePackage(pkg(), ['build/Release/a.node'], 'linux-x64')?.targets).toEqual(new Set(['linux-x64']));
  expect(
    nativePackage(pkg(), ['prebuilds/darwin-x64+arm64/a.node', 'prebuilds/win32-ia32/a.node'], 'linux-x64')?.targets,
  ).toEqual(new Set(['darwin-x64', 'darwin-arm64', 'win32-ia32']));
  // A gyp package whose build did not happen has no binary to limit anything.
  expect(nativePackage(pkg({ gypfile: true }), ['index.js'], 'linux-x64')).toMatchObject({ targets: null });
  expect(nativePackage(pkg(), ['binding.gyp'], 'linux-x64')).toMatchObject({ why: 'binding.gyp', targets: null });
});

it('declares the platforms every package allows', () => {
  expect(bundlePlatforms([], [{}])).toEqual({ targets: null, platforms: ['darwin', 'linux', 'win32'] });
  // npm's os field: allowed values, or blocked ones with "!".
  expect(bundlePlatforms([], [{ os: ['!win32'] }])).toEqual({ targets: null, platforms: ['darwin', 'linux'] });
  expect(bundlePlatforms([], [{ os: ['linux', 'freebsd'] }]).platforms).toEqual(['linux']);
  const a = nativePackage(
    pkg(),
    ['prebuilds/linux-x64/a.node', 'prebuilds/darwin-arm64/a.node', 'prebuilds/android-arm64/a.node'],
    'linux-x64',
  )!;
  const b = nativePackage(pkg(), ['build/Release/b.node'], 'linux-x64')!;
  expect(bundlePlatforms([a], [{}])).toEqual({
    targets: ['darwin-arm64', 'linux-x64'],
    platforms: ['darwin', 'linux'],
  });
  expect(bundlePlatforms([a, b], [{}]).targets).toEqual(['linux-x64']);
  expect(bundlePlatforms([a], [{ cpu: ['arm64'] }]).targets).toEqual(['darwin-arm64']);
  expect(bundlePlatforms([a, b], [{ os: ['darwin'] }])).toEqual({ targets: [], platforms: [] });
});

it("keeps each bundle's own binaries and none of the build's leftovers", () => {
  const left = (rel: string, target: string | null) => isNativeLeftover(rel, target, 'linux-x64');
  expect(left('prebuilds/darwin-x64+arm64/a.node', 'darwin-arm64')).toBe(false);
  expect(left('prebuilds/darwin-x64+arm64/a.node', 'linux-x64')).toBe(true);
  expect(left('build/Release/a.node', 'linux-x64')).toBe(false);
  // node-gyp-build would load this machine's build before the prebuild for the bundle's platform.
  expect(left('build/Release/a.node', 'win32-x64')).toBe(true);
  for (const f of [
    'build/Makefile',
    'build/config.gypi',
    'build/a.target.mk',
    'build/Release/obj.target/a.node',
    'build/Release/obj.target/a/src/a.o',
    'build/Release/.deps/Release/a.node.d',
    'src/a.cc',
    'deps/sqlite3/sqlite3.c',
    'deps/sqlite3/sqlite3.h',
    'binding.gyp',
  ])
    expect(left(f, 'linux-x64'), f).toBe(true);
  for (const f of ['index.js', 'lib/binding.js', 'package.json', 'build/Release/libdep.so.1'])
    expect(left(f, 'linux-x64'), f).toBe(false);
});
