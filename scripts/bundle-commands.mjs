// After `tsc`: bundles the commands whose runs are timed against their targets — validate (the
// ~55 modules of load/, validate/, lint/ and report/) and generate (those, plan/ and write/, and the
// build's normalize/, render/ and format/, loaded as before only when needed: its own chunk). Loading
// an ES module costs about a millisecond of resolving, reading and linking: unbundled, that is a fifth
// of a CI check of a large manifest, and a cold generate of 10 tools loads 91 modules. main.js
// still loads a command on demand. Kept as modules: packages, and what main.js shares with the
// commands (UsageError must stay one class for `instanceof`, and so on), and cli/paths.ts, from whose
// place mcpgen finds its templates, and precompiled templates.
// Without the bundler (a production install), dist keeps the modules tsc wrote: the same program.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = ['diagnostics.js', 'io.js', 'version.js', 'paths.js'].map((f) => path.join(root, 'dist', f));
// The few small CommonJS files of packages the precompiled validators and ajv.js use (ajv's runtime
// helpers, ajv-formats' formats): bundled too. Loaded on their own, through createRequire and the ESM
// loader's CommonJS translation, they cost more time to resolve, read and compile than they hold.
const INLINED = /^(?:ajv\/dist\/runtime\/(?:equal|ucs2length)|ajv-formats\/dist\/formats|fast-deep-equal)(?:\.js)?$/;
const COMPILED = /[\\/]validate[\\/]schema[\\/]compiled-[^\\/]+\.js$/;
const CREATE_REQUIRE =
  "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  console.error('bundle-commands: rolldown is not installed; dist/commands/ stays unbundled');
  process.exit(0);
}

/** The modules `from` imports statically, transitively, in the ES modules tsc wrote (one import per statement). */
function staticClosure(from) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || SHARED.includes(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s(?:[^;]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/gm))
      visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(from);
  return seen;
}
const manifestStage = staticClosure(path.join(root, 'dist/generate.js'));

for (const command of ['validate', 'generate']) {
  const entry = path.join(root, `dist/commands/${command}.js`);
  if (!existsSync(entry)) throw new Error(`bundle-commands: ${path.relative(root, entry)} is missing: run tsc first`);
  if (readFileSync(entry, 'utf8').startsWith('// Bundled'))
    throw new Error('bundle-commands: already bundled; run tsc again first');
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    // Packages (and node: builtins) stay imports; so do the modules main.js shares with the command.
    external: (id, importer) => {
      if (INLINED.test(id)) return false;
      if (!id.startsWith('.') && !path.isAbsolute(id)) return true;
      const abs = importer && !path.isAbsolute(id) ? path.resolve(path.dirname(importer), id) : id;
      return SHARED.includes(abs);
    },
    logLevel: 'warn',
    plugins: [
      {
        // The generated validators require() their runtime helpers through createRequire; without it,
        // `require` is the bundler's, which bundles them (with CommonJS semantics, as before).
        name: 'inline-validator-requires',
        transform(code, id) {
          if (!COMPILED.test(id)) return null;
          if (!code.includes(CREATE_REQUIRE))
            throw new Error(`bundle-commands: ${id} no longer starts with createRequire; update the plugin`);
          return { code: code.replace(CREATE_REQUIRE, ''), map: null };
        },
      },
    ],
  });
  await bundle.write({
    dir: path.dirname(entry),
    entryFileNames: `${command}.js`,
    chunkFileNames: `${command}.[name].js`,
    // What generate imports on demand stays on demand, in two chunks beside it: a no-op generate
    // loads neither, an invalid manifest does not load the build (normalize, render, format).
    // Without groups, every module shared by two of them became a chunk of its own.
    codeSplitting:
      command === 'validate'
        ? false
        : {
            groups: [
              { name: 'core', tags: ['$initial'], test: (id) => id !== entry, priority: 3 },
              // The manifest stage: what dist/generate.js imports statically, so a manifest that fails
              // to load, validate or lint never loads the build.
              { name: 'manifest', test: (id) => manifestStage.has(id), priority: 2 },
              { name: 'build', test: (id) => id !== entry && /[\\/]dist[\\/]/.test(id), priority: 1 },
            ],
          },
    format: 'esm',
    // Source text Node decodes and V8 parses at every start: without the JSDoc (the sources and
    // the source maps keep it) and in ASCII (a single non-ASCII character, a `—` in a comment,
    // makes the whole file a two-byte string, slower to decode and to scan). Licences stay.
    comments: { legal: true, annotation: true, jsdoc: false },
    charset: 'ascii',
    sourcemap: true,
    banner: '// Bundled by scripts/bundle-commands.mjs from the modules tsc wrote to dist/ (see there).',
  });
  await bundle.close();
}
