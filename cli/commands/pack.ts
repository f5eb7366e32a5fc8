/**
 * `mcpgen pack`: an MCP Bundle (`<name>-<version>.mcpb`: manifest.json, the built server and its
 * production dependencies, zipped; with native dependencies one `<name>-<version>-<platform>-<arch>.mcpb`
 * per platform they have binaries for) and the MCP Registry's `server.json` listing them, all from
 * the manifest. Every file is written next to its final name and renamed over it, so a failure
 * leaves no half-written bundle.
 */
import { spawn } from 'node:child_process';
import { withProgress } from '../progress.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { IR } from '../normalize/ir.js';
import { BUNDLED_PACKAGES, bundleContents, dependencyEntries } from '../pack/contents.js';
import { filesUnder, newestMtime } from '../pack/files.js';
import { BUNDLE_ENTRY, mcpbManifest, type ProjectPackage } from '../pack/mcpb-manifest.js';
import { hostTarget, MCPB_PLATFORMS, platformOf } from '../pack/native.js';
import { serverJson } from '../pack/server-json.js';
import { zip, type ZipEntry } from '../pack/zip.js';
import { slashes } from '../report/outcome.js';
import { generateCommand } from './generate.js';

export interface PackOptions {
  file?: string;
  /** Project folder (default: the manifest's folder). */
  out?: string;
  /** Bundle path (default: `<project>/<name>-<version>.mcpb`; per platform, `-<platform>-<arch>` goes before `.mcpb`). */
  bundle?: string;
  /** Run the project's `npm run build` first. */
  build?: boolean;
  /** server.json `name` (reverse-DNS), overriding package.json `mcpName`. */
  registryName?: string;
}

export async function packCommand(opts: PackOptions, io: CliIO): Promise<number> {
  const manifest = findManifest(io.cwd, opts.file);
  const projectDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  const rel = (p: string) => path.relative(io.cwd, p) || '.';
  let ir: IR | undefined;
  // The generated code must match the manifest: a bundle built from stale code would list tools it does not serve.
  const checked = await generateCommand(
    { file: manifest, ...(opts.out ? { out: opts.out } : {}), check: true, fastPath: false, onIR: (r) => (ir = r) },
    io,
  );
  if (checked !== EXIT_OK || !ir) {
    if (ir) io.stderr(`run \`mcpgen generate\` and rebuild, then pack again\n`);
    return EXIT_PROBLEMS;
  }
  // Up to date: pack's changes are the files it writes, not the project's plan.
  if (io.outcome) io.outcome.changes = [];
  const pkgPath = path.join(projectDir, 'package.json');
  if (!existsSync(pkgPath))
    throw new UsageError(`no package.json in ${rel(projectDir)}: run \`mcpgen generate\` first`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as ProjectPackage & Record<string, unknown>;

  if (opts.build) {
    io.stdout(`building: npm run build\n`);
    // Under --json stdout is the envelope's alone: the build's output goes to stderr.
    const status = await withProgress(io, 'npm run build', runBuild(projectDir, io.outcome !== undefined));
    if (status !== 0) {
      io.stderr(`✖ npm run build failed (exit ${status}); nothing was packed\n`);
      return EXIT_PROBLEMS;
    }
  }
  const entry = path.join(projectDir, BUNDLE_ENTRY);
  if (!existsSync(entry)) {
    throw new UsageError(
      `${rel(entry)} does not exist: build the project first (\`npm run build\` in ${rel(projectDir)}, or \`mcpgen pack --build\`)`,
    );
  }
  const src = newestMtime(path.join(projectDir, 'src'), ['.ts']);
  const built = newestMtime(path.join(projectDir, 'dist', 'src'), ['.js']);
  if (src.file && src.mtime > built.mtime) {
    throw new UsageError(
      `${rel(src.file)} is newer than the build in ${rel(path.join(projectDir, 'dist'))}: run \`npm run build\` (or \`mcpgen pack --build\`)`,
    );
  }

  const bundled = existsSync(path.join(projectDir, 'dist', 'src', 'chunks'));
  const host = hostTarget();
  // Reading the production packages and compressing them takes a few seconds on a large project.
  io.stdout('packing: the built server and its production packages\n');
  const contents = bundleContents(projectDir, host, bundled);
  const { devDependencies: _dev, scripts: _scripts, ...runtimePkg } = pkg;
  // A bundled server carries the runtime and the SDK inside: its package.json does not ask for them.
  if (bundled && runtimePkg.dependencies && typeof runtimePkg.dependencies === 'object')
    runtimePkg.dependencies = Object.fromEntries(
      Object.entries(runtimePkg.dependencies).filter(([name]) => !BUNDLED_PACKAGES.includes(name)),
    );
  const own: ZipEntry[] = [
    { name: 'package.json', data: Buffer.from(`${JSON.stringify(runtimePkg, null, 2)}\n`), mode: 0o644 },
    // The server's code only: no tests, source maps or declaration files; of a bundled build
    // (mcpgen build), the bundle and the views alone, not tsc's modules beside them.
    ...filesUnder(
      path.join(projectDir, 'dist', 'src'),
      'dist/src/',
      (r) => r.endsWith('.map') || r.endsWith('.d.ts') || (bundled && !inBundle(r)),
    ),
  ];
  for (const extra of ['README.md', 'LICENSE']) {
    const abs = path.join(projectDir, extra);
    if (existsSync(abs)) own.push({ name: extra, data: readFileSync(abs), mode: 0o644 });
  }
  const baseName = String(mcpbManifest(ir, pkg, MCPB_PLATFORMS).name);
  const defaultPath = path.join(projectDir, `${baseName}-${ir.server.version}.mcpb`);
  const singlePath = path.resolve(io.cwd, opts.bundle ?? defaultPath);
  // One bundle for every platform, or, with native dependencies, one per platform-arch they have binaries for.
  const bundles = (contents.targets ?? [null]).map((target) => {
    const mcpb = mcpbManifest(ir!, pkg, target ? [platformOf(target)] : contents.platforms);
    const entries: ZipEntry[] = [
      { name: 'manifest.json', data: Buffer.from(`${JSON.stringify(mcpb, null, 2)}\n`), mode: 0o644 },
      ...own,
      ...dependencyEntries(contents, target, host),
    ];
    const archive = zip(entries);
    const file = target ? singlePath.replace(/(\.mcpb)?$/, `-${target}$1`) : singlePath;
    return { target, file, archive, files: entries.length, sha256: createHash('sha256').update(archive).digest('hex') };
  });

  const registry = serverJson(
    ir,
    pkg,
    opts.registryName,
    bundles.map((b) => ({ file: path.basename(b.file), sha256: b.sha256 })),
  );
  const serverJsonPath = path.join(projectDir, 'server.json');
  const existed = new Set([...bundles.map((b) => b.file), serverJsonPath].filter((f) => existsSync(f)));
  writeAllOrNothing([
    ...bundles.map((b): [string, Buffer] => [b.file, b.archive]),
    [serverJsonPath, Buffer.from(`${JSON.stringify(registry.json, null, 2)}\n`)],
  ]);

  for (const w of contents.warnings) io.stderr(`! ${w}\n`);
  const what = `${contents.packages.length} packages, ${ir.tools.length} tool(s), ${ir.prompts.length} prompt(s)`;
  for (const b of bundles) {
    const kb = (b.archive.length / 1024).toFixed(0);
    const where = b.target ? platformOf(b.target) : contents.platforms.join(', ');
    io.stdout(`✔ ${rel(b.file)}: ${kb} KiB, ${b.files} files (${what}), for ${where}\n  sha256 ${b.sha256}\n`);
  }
  io.stdout(
    `✔ ${rel(serverJsonPath)}: ${String(registry.json.name)} ${ir.server.version}, npm package ${ir.server.packageName}${
      ir.transports.stdio ? `, ${bundles.length} bundle(s)` : ''
    }\n`,
  );
  for (const n of registry.notes) io.stderr(`! server.json: ${n}\n`);
  if (io.outcome) {
    const fromProject = (file: string) => slashes(path.relative(projectDir, file));
    for (const file of [...bundles.map((b) => b.file), serverJsonPath])
      io.outcome.changes.push({
        action: existed.has(file) ? 'update' : 'create',
        path: fromProject(file),
        owner: 'generated',
        from: null,
      });
    io.outcome.extra.bundles = bundles.map((b) => ({
      path: fromProject(b.file),
      platforms: b.target ? [platformOf(b.target)] : contents.platforms,
      bytes: b.archive.length,
      files: b.files,
      sha256: b.sha256,
    }));
    for (const w of contents.warnings) io.outcome.next.push({ message: w, command: null, cwd: null });
    for (const n of registry.notes) io.outcome.next.push({ message: `server.json: ${n}`, command: null, cwd: null });
    io.outcome.applied = true;
  }
  return EXIT_OK;
}

/** `npm run build` in the project, its output on the terminal: the exit status (or the signal). */
function runBuild(projectDir: string, outputToStderr: boolean): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
      cwd: projectDir,
      stdio: ['ignore', outputToStderr ? 2 : 'inherit', 'inherit'],
      shell: process.platform === 'win32',
    });
    child.on('error', () => resolve('not started'));
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
}

/** What a bundled build runs (dist/src-relative, with `/`): the entry, its chunks and the built views. */
const inBundle = (rel: string) => rel === 'main.js' || rel.startsWith('chunks/') || rel.startsWith('views/');

/**
 * Writes each file beside its target, then renames them all over their targets: a failure while
 * writing leaves every old file as it was, and readers see an old file or a whole new one.
 */
function writeAllOrNothing(files: readonly [string, Buffer][]): void {
  const tmps: string[] = [];
  try {
    for (const [target, data] of files) {
      const tmp = `${target}.${process.pid}.tmp`;
      tmps.push(tmp);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(tmp, data);
    }
    files.forEach(([target], i) => renameSync(tmps[i]!, target));
  } catch (err) {
    for (const tmp of tmps) rmSync(tmp, { force: true });
    throw err;
  }
}
