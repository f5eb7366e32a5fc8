/**
 * The built server as one code-split bundle (esbuild): dist/src/main.js and its chunks in
 * dist/src/chunks/, minified, with source maps. What loads on every start is one file of the
 * server's own code, the runtime, the SDK and zod; what only some servers or requests need (the
 * HTTP transport, OAuth, the legacy SSE transport, handler modules) stays behind `import()` in
 * chunks of its own. Written over tsc's dist/src/main.js, so `node dist/src/main.js`, the bin,
 * the Dockerfile and every test that starts the server run the bundle, while tsc's other outputs
 * serve the tests that import modules.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Esbuild from 'esbuild';

/**
 * The runtime's optional peers: loaded only when configured (Redis, OpenTelemetry) or declared
 * (OAuth, the legacy SSE transport, which brings a copy of the SDK's core of its own), and
 * resolved from node_modules then, as the unbundled server does.
 */
const EXTERNAL = ['jose', 'ioredis', '@opentelemetry/*', '@modelcontextprotocol/server-legacy'];

/**
 * What the bundle holds besides the project's own code: the runtime and the SDK, with what they
 * import. Packages the user's code imports stay in node_modules, loaded as they are: native
 * addons, packages that find files beside their own, and anything else a bundler could break.
 */
const BUNDLED = /^(?:@mcpgen\/runtime|@modelcontextprotocol\/(?!server-legacy)[^/]+)(?:\/|$)/;

const userPackagesExternal = (projectDir: string): Esbuild.Plugin => ({
  name: 'user-packages-external',
  setup(build) {
    const nodeModules = `${path.sep}node_modules${path.sep}`;
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || BUNDLED.test(args.path) || args.path.startsWith('node:')) return undefined;
      // Only the project's own imports: what the runtime and the SDK import is bundled with them.
      const own = args.importer.startsWith(projectDir) && !args.importer.includes(nodeModules);
      return own ? { path: args.path, external: true } : undefined;
    });
  },
});

// Chunks are ES modules; a CommonJS package among the bundled ones may still `require` a Node
// built-in, which needs a real `require` in module scope. Stack traces map to the sources.
const BANNER = [
  "import { createRequire as __mcpgenRequire } from 'node:module';",
  'const require = __mcpgenRequire(import.meta.url);',
  'process.setSourceMapsEnabled?.(true);',
].join(' ');

export interface ServerBundle {
  /** The files written, relative to the project, with their sizes. */
  files: { file: string; bytes: number }[];
}

/**
 * The project's own modules keep their functions' and classes' names (`fn.name`,
 * `err.constructor.name`) through minification: each is compiled with esbuild's keepNames, under
 * the project's tsconfig.json, before it is bundled. Only these: keepNames on the whole bundle
 * names every closure the SDK and zod create per request (a property definition each), which cost
 * 7 % of a stdio call and 5 % of a start, and those libraries name what they need explicitly.
 */
const projectNamesKept = (esbuild: typeof Esbuild, projectDir: string, tsconfigRaw: string): Esbuild.Plugin => ({
  name: 'project-names-kept',
  setup(build) {
    const nodeModules = `${path.sep}node_modules${path.sep}`;
    build.onLoad({ filter: /\.(?:[cm]?[jt]s|tsx)$/ }, async (args) => {
      if (!args.path.startsWith(projectDir + path.sep) || args.path.includes(nodeModules)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const ext = path.extname(args.path);
      const loader = ext === '.tsx' ? 'tsx' : ext.endsWith('ts') ? 'ts' : 'js';
      try {
        const out = await esbuild.transform(source, {
          loader,
          tsconfigRaw,
          keepNames: true,
          format: 'esm',
          target: 'node20',
          sourcemap: 'inline',
          sourcefile: args.path,
        });
        return { contents: out.code, loader: 'js', resolveDir: path.dirname(args.path) };
      } catch (error) {
        // esbuild's own messages, with the file, line and column of the module.
        const errors = (error as { errors?: Esbuild.PartialMessage[] }).errors;
        if (errors) return { errors };
        throw error;
      }
    });
  },
});

export async function bundleServer(esbuild: typeof Esbuild, projectDir: string): Promise<ServerBundle> {
  // The generated server is an entry of its own (beside the chunks, not over tsc's
  // generated/server.js, which the project's tests import with the rest of tsc's output), so its
  // code sits in a chunk one folder below dist/src as tsc's dist/src/generated/server.js does:
  // `new URL('../views/…', import.meta.url)` finds the built views in both layouts.
  const entryPoints: Record<string, string> = { main: 'src/main.ts' };
  if (existsSync(path.join(projectDir, 'src/generated/server.ts')))
    entryPoints['chunks/server'] = 'src/generated/server.ts';
  // A tsconfig that extends another has settings the transform would not see (it reads no files):
  // then the whole bundle keeps names, as slow as that is.
  const tsconfigPath = path.join(projectDir, 'tsconfig.json');
  const tsconfig = existsSync(tsconfigPath) ? await readFile(tsconfigPath, 'utf8') : '{}';
  const perModule = !/"extends"\s*:/.test(tsconfig);
  const result = await esbuild.build({
    absWorkingDir: projectDir,
    entryPoints,
    outdir: 'dist/src',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    keepNames: !perModule,
    sourcemap: true,
    external: EXTERNAL,
    banner: { js: BANNER },
    plugins: [
      userPackagesExternal(projectDir),
      ...(perModule ? [projectNamesKept(esbuild, projectDir, tsconfig)] : []),
    ],
    metafile: true,
    logLevel: 'silent',
    allowOverwrite: true,
  });
  const files = Object.entries(result.metafile.outputs)
    .filter(([file]) => !file.endsWith('.map'))
    .map(([file, out]) => ({ file, bytes: out.bytes }))
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  return { files };
}
