// Builds packages/runtime and packs it into dist/mcpgen-runtime-<version>.tgz: mcpgen's tarball
// ships it, and projects install the runtime from it while neither package is on the registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const runtime = path.join(root, 'packages/runtime');
const { version } = JSON.parse(readFileSync(path.join(runtime, 'package.json'), 'utf8'));
const { version: mcpgen } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
if (version !== mcpgen) {
  console.error(`packages/runtime is ${version}, mcpgen ${mcpgen}: they are released in lockstep`);
  process.exit(1);
}
const source = readFileSync(path.join(runtime, 'src/version.ts'), 'utf8');
if (!source.includes(`RUNTIME_VERSION = '${version}'`)) {
  console.error(`packages/runtime/src/version.ts does not say ${version} (package.json's version)`);
  process.exit(1);
}
rmSync(path.join(runtime, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', runtime], {
  stdio: 'inherit',
});
mkdirSync(path.join(root, 'dist'), { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', path.join(root, 'dist')], {
  cwd: runtime,
  stdio: ['ignore', 'ignore', 'inherit'],
});
