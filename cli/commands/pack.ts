/**
 * `mcpgen pack`: an MCP Bundle (`<name>-<version>.mcpb`: manifest.json, the built server and its
 * production dependencies, zipped) and the MCP Registry's `server.json`, both from the manifest.
 * Each file is written next to its final name and renamed over it, so a failure leaves no
 * half-written bundle.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { IR } from '../normalize/ir.js';
import { productionDependencies } from '../pack/dependencies.js';
import { filesUnder, newestMtime } from '../pack/files.js';
import { BUNDLE_ENTRY, mcpbManifest, type ProjectPackage } from '../pack/mcpb-manifest.js';
import { serverJson } from '../pack/server-json.js';
import { zip, type ZipEntry } from '../pack/zip.js';
import { generateCommand } from './generate.js';

export interface PackOptions {
  file?: string;
  /** Project folder (default: the manifest's folder). */
  out?: string;
  /** Bundle path (default: `<project>/<name>-<version>.mcpb`). */
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
  const pkgPath = path.join(projectDir, 'package.json');
  if (!existsSync(pkgPath))
    throw new UsageError(`no package.json in ${rel(projectDir)}: run \`mcpgen generate\` first`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as ProjectPackage & Record<string, unknown>;

  if (opts.build) {
    io.stdout(`building: npm run build\n`);
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
      cwd: projectDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) {
      io.stderr(`✖ npm run build failed (exit ${r.status ?? r.signal}); nothing was packed\n`);
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

  const deps = productionDependencies(projectDir);
  const { devDependencies: _dev, scripts: _scripts, ...runtimePkg } = pkg;
  const mcpb = mcpbManifest(ir, pkg);
  const entries: ZipEntry[] = [
    { name: 'manifest.json', data: Buffer.from(`${JSON.stringify(mcpb, null, 2)}\n`), mode: 0o644 },
    { name: 'package.json', data: Buffer.from(`${JSON.stringify(runtimePkg, null, 2)}\n`), mode: 0o644 },
    // The server's code only: no tests, source maps or declaration files.
    ...filesUnder(
      path.join(projectDir, 'dist', 'src'),
      'dist/src/',
      (_r, name) => name.endsWith('.map') || name.endsWith('.d.ts'),
    ),
  ];
  for (const d of deps) {
    // Nested node_modules are placed by productionDependencies; a package's own .bin links are not needed.
    entries.push(...filesUnder(d.from, `${d.to}/`, (r) => r === 'node_modules'));
  }
  for (const extra of ['README.md', 'LICENSE']) {
    const abs = path.join(projectDir, extra);
    if (existsSync(abs)) entries.push({ name: extra, data: readFileSync(abs), mode: 0o644 });
  }
  const archive = zip(entries);
  const bundlePath = path.resolve(
    io.cwd,
    opts.bundle ?? path.join(projectDir, `${String(mcpb.name)}-${ir.server.version}.mcpb`),
  );
  writeAtomically(bundlePath, archive);

  const registry = serverJson(ir, pkg, opts.registryName);
  const serverJsonPath = path.join(projectDir, 'server.json');
  writeAtomically(serverJsonPath, Buffer.from(`${JSON.stringify(registry.json, null, 2)}\n`));

  const sha = createHash('sha256').update(archive).digest('hex');
  const kb = (statSync(bundlePath).size / 1024).toFixed(0);
  io.stdout(
    `✔ ${rel(bundlePath)}: ${kb} KiB, ${entries.length} files (${deps.length} packages), ${ir.tools.length} tool(s), ${ir.prompts.length} prompt(s)\n` +
      `  sha256 ${sha}\n` +
      `✔ ${rel(serverJsonPath)}: ${String(registry.json.name)} ${ir.server.version}, npm package ${ir.server.packageName}\n`,
  );
  for (const n of registry.notes) io.stderr(`! server.json: ${n}\n`);
  return EXIT_OK;
}

/** Writes beside the target and renames over it: readers see the old file or the whole new one. */
function writeAtomically(target: string, data: Buffer): void {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
