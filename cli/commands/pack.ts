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
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { IR } from '../normalize/ir.js';
import { BUNDLED_PACKAGES, bundleContents, dependencyEntries } from '../pack/contents.js';
import { checkBuild } from '../pack/build-check.js';
import { filesUnder } from '../pack/files.js';
import { mcpbManifest, type ProjectPackage } from '../pack/mcpb-manifest.js';
import { hostTarget, MCPB_PLATFORMS, platformOf } from '../pack/native.js';
import { bundlePath, type Output, writeAllOrNothing } from '../pack/output.js';
import { readJsonObject } from '../load/json-object.js';
import { registryNameProblem, serverJson } from '../pack/server-json.js';
import { checkServesStdio } from '../pack/stdio.js';
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
  if (opts.out !== undefined && !isFolder(projectDir))
    throw new UsageError(
      `-o ${opts.out}: ${existsSync(projectDir) ? 'is not a folder' : 'no such folder'}; name the project folder (where \`mcpgen generate\` wrote the project)`,
    );
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
  checkServesStdio(ir, manifest, projectDir, rel);
  const pkgPath = path.join(projectDir, 'package.json');
  if (!existsSync(pkgPath))
    throw new UsageError(`no package.json in ${rel(projectDir)}: run \`mcpgen generate\` first`);
  const pkg = readJsonObject(pkgPath, rel(pkgPath)) as ProjectPackage & Record<string, unknown>;
  // The Registry refuses a server.json whose name breaks its schema: said before anything is packed.
  if (opts.registryName !== undefined) {
    const problem = registryNameProblem(opts.registryName, ir.server.packageName);
    if (problem) throw new UsageError(`--registry-name: ${problem}`);
  } else if (pkg.mcpName !== undefined) {
    const problem =
      typeof pkg.mcpName === 'string'
        ? registryNameProblem(pkg.mcpName, ir.server.packageName)
        : `${JSON.stringify(pkg.mcpName)} is not a string`;
    if (problem) throw new UsageError(`${rel(pkgPath)}: mcpName ${problem}; fix it, or pass --registry-name`);
  }
  const baseName = String(mcpbManifest(ir, pkg, MCPB_PLATFORMS).name);
  const defaultName = `${baseName}-${ir.server.version}.mcpb`;
  const singlePath =
    opts.bundle !== undefined
      ? bundlePath(opts.bundle, io.cwd, projectDir, defaultName, rel)
      : path.join(projectDir, defaultName);

  if (opts.build) {
    io.stdout(`building: npm run build\n`);
    // Under --json stdout is the envelope's alone: the build's output goes to stderr.
    const status = await withProgress(io, 'npm run build', runBuild(projectDir, io.outcome !== undefined));
    if (status !== 0) {
      io.stderr(`✖ npm run build failed (exit ${status}); nothing was packed\n`);
      return EXIT_PROBLEMS;
    }
  }
  checkBuild(projectDir, rel);

  const bundled = existsSync(path.join(projectDir, 'dist', 'src', 'chunks'));
  const host = hostTarget();
  // Reading the production packages and compressing them takes a few seconds on a large project.
  io.stdout('packing: the built server and its production packages\n');
  const contents = bundleContents(projectDir, host, bundled, rel);
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
  // Messages name a bundle as the user named it: `--bundle out/x.mcpb` (out/x-linux-x64.mcpb).
  const bundleLabel = (file: string) =>
    opts.bundle === undefined
      ? rel(file)
      : file === singlePath
        ? `--bundle ${opts.bundle}`
        : `--bundle ${opts.bundle} (${rel(file)})`;
  writeAllOrNothing([
    ...bundles.map((b): Output => ({ file: b.file, label: bundleLabel(b.file), data: b.archive })),
    {
      file: serverJsonPath,
      label: rel(serverJsonPath),
      data: Buffer.from(`${JSON.stringify(registry.json, null, 2)}\n`),
    },
  ]);

  for (const w of contents.warnings) io.stderr(`! ${w}\n`);
  const what = `${contents.packages.length} packages, ${ir.tools.length} tool(s), ${ir.prompts.length} prompt(s)`;
  for (const b of bundles) {
    const kb = (b.archive.length / 1024).toFixed(0);
    const where = b.target ? platformOf(b.target) : contents.platforms.join(', ');
    io.stdout(`✔ ${rel(b.file)}: ${kb} KiB, ${b.files} files (${what}), for ${where}\n  sha256 ${b.sha256}\n`);
  }
  io.stdout(
    `✔ ${rel(serverJsonPath)}: ${String(registry.json.name)} ${ir.server.version}, npm package ${ir.server.packageName}, ${bundles.length} bundle(s)\n`,
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

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
