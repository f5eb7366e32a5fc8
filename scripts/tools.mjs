// Tools installed from npm into .tools/ (gitignored) when missing: other Node lines, the
// conformance runners. Used by scripts/conformance.mjs and scripts/other-nodes.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOOLS = path.join(ROOT, '.tools');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `cmd`; its stdout, or an error with both outputs when it fails. */
export function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/** npm-installs `pkg@version` into .tools/<dir> unless it is already there at that version. */
export function ensurePackage(dir, pkg, version, log = () => {}) {
  const folder = path.join(TOOLS, dir);
  const manifest = path.join(folder, 'node_modules', pkg, 'package.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === version) return folder;
  log(`installing ${pkg}@${version} into ${path.relative(ROOT, folder)}`);
  mkdirSync(folder, { recursive: true });
  if (!existsSync(path.join(folder, 'package.json'))) {
    writeFileSync(path.join(folder, 'package.json'), '{ "private": true }\n');
  }
  run(npm, ['install', '--no-audit', '--no-fund', '--save-exact', `${pkg}@${version}`], { cwd: folder });
  return folder;
}

/** The version of the `node` package in .tools/<dir>, when it is of `major`. */
function installedNode(dir, major) {
  const manifest = path.join(TOOLS, dir, 'node_modules', 'node', 'package.json');
  if (!existsSync(manifest)) return null;
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  return version.startsWith(`${major}.`) ? version : null;
}

/** A Node binary of line `major` from npm (`node@<version>`, kept in .tools/node<major>). */
export function nodeOf(major, version, log) {
  const dir = `node${major}`;
  const folder = ensurePackage(dir, 'node', installedNode(dir, major) ?? version, log);
  const bin = path.join(folder, 'node_modules', 'node', 'bin', 'node');
  const got = run(bin, ['--version']).trim();
  if (!got.startsWith(`v${major}.`)) throw new Error(`expected Node ${major} in ${bin}, got ${got}`);
  return bin;
}
