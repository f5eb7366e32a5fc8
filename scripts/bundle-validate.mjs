// After `tsc`: bundles the validate command (dist/commands/validate.js and the ~55 modules of
// load/, validate/, lint/ and report/ it imports) into that one file. Loading an ES module costs
// about a millisecond of resolving, reading and linking, and for a CI check of a large manifest that
// was a fifth of the run. main.js still loads the command on demand. Kept as modules: packages, and
// what main.js shares with the command (UsageError must stay one class for `instanceof`, and so on).
// Without the bundler (a production install), dist keeps the modules tsc wrote: the same program.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist/commands/validate.js');
const SHARED = ['diagnostics.js', 'io.js', 'version.js'].map((f) => path.join(root, 'dist', f));

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  console.error('bundle-validate: rolldown is not installed; dist/commands/validate.js stays unbundled');
  process.exit(0);
}
if (!existsSync(entry)) throw new Error(`bundle-validate: ${path.relative(root, entry)} is missing: run tsc first`);
if (readFileSync(entry, 'utf8').startsWith('// Bundled')) throw new Error('bundle-validate: already bundled; run tsc again first');

const bundle = await rolldown({
  input: entry,
  platform: 'node',
  // Packages (and node: builtins) stay imports; so do the modules main.js shares with the command.
  external: (id, importer) => {
    if (!id.startsWith('.') && !path.isAbsolute(id)) return true;
    const abs = importer && !path.isAbsolute(id) ? path.resolve(path.dirname(importer), id) : id;
    return SHARED.includes(abs);
  },
  logLevel: 'warn',
});
await bundle.write({
  file: entry,
  format: 'esm',
  sourcemap: true,
  banner: '// Bundled by scripts/bundle-validate.mjs from the modules tsc wrote to dist/ (see there).',
});
await bundle.close();
