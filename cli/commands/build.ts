/**
 * `mcpgen build`: the project's `npm run build`. dist/ emptied first (tsc never deletes what a
 * removed source compiled to), the project type-checked and compiled with its own tsc, the server
 * bundled over tsc's entry (cli/bundle/server-bundle.ts), the manifest's built views type-checked
 * and bundled into dist/src/views/, and the entry made executable. Nothing of the project's sources is written.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type Diagnostic, hasErrors, UsageError } from '../diagnostics.js';
import { findTsc } from '../dev/build.js';
import { readPackageJson } from '../plan/dependencies.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import { formatReport } from '../report/index.js';
import { slashes } from '../report/outcome.js';
import { writeViewsTsconfig } from '../views/check-views.js';
import { withProgress } from '../progress.js';
import { bundleProblems, projectEsbuild } from '../bundle/esbuild.js';
import { bundleServer, type ServerBundle } from '../bundle/server-bundle.js';
import { Codes } from '../manifest/codes.js';
import { missingHandlers, missingLine, outOfStep, restoreStarters } from '../plan/missing-handlers.js';
import { manifestChangedSince } from '../plan/stamp.js';
import { generateLine } from '../report/outcome.js';
import { buildViews, diagnosticSources, problemDiagnostics, type ViewSpec, viewSpecs } from '../views/build-views.js';

export interface BuildOptions {
  file?: string;
  /** Project folder (default: the manifest's folder). */
  out?: string;
}

export async function buildCommand(opts: BuildOptions, io: CliIO): Promise<number> {
  const manifest = findManifest(io.cwd, opts.file);
  const projectDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  const rel = (p: string) => path.relative(io.cwd, p) || '.';
  if (io.outcome) io.outcome.project = projectDir;
  const views = viewSpecs(manifest, rel(manifest));
  if (report(views.diagnostics, io)) return EXIT_PROBLEMS;
  const tsc = findTsc(projectDir);
  if (!tsc) throw new UsageError(`TypeScript is not installed in ${rel(projectDir)}: run \`npm install\` there first`);
  // tsc reads package.json (its "type" decides how .js files load): a broken one would show as
  // dozens of module errors instead of one line saying where.
  const pkg = readPackageJson(projectDir);
  if (pkg && 'invalid' in pkg)
    throw new UsageError(`${rel(projectDir) === '.' ? '' : `${rel(projectDir)}/`}${pkg.invalid}`);
  if (!existsSync(path.join(projectDir, 'tsconfig.json')))
    throw new UsageError(`no tsconfig.json in ${rel(projectDir)}: run \`mcpgen generate\` first`);

  // Build compiles the generated code as it is: made from another manifest, it would build a server
  // the manifest does not describe, without a word.
  if (manifestChangedSince(projectDir, manifest)) {
    io.outcome?.next.push({
      message: 'the manifest changed since the last generate: regenerate, then build',
      command: generateLine(opts),
      cwd: '.',
    });
    io.stderr(
      `✖ ${rel(manifest)} changed since the last generate, so the generated code does not match it: run ${generateLine(opts)}, then build again: nothing was built\n`,
    );
    return EXIT_PROBLEMS;
  }

  // A handler the generated code imports and that is gone would show as TypeScript's "Cannot find
  // module": name the entry it implements and how to get its starter back instead.
  const missing = missingHandlers(projectDir, existsSync);
  if (missing.length) {
    for (const [file, entry] of missing) io.stderr(`${missingLine(rel(path.join(projectDir, file)), entry)}\n`);
    io.outcome?.next.push({
      message: 'handler files the generated code imports are missing: generate writes their starters',
      command: generateLine(opts),
      cwd: '.',
    });
    io.stderr(`✖ ${outOfStep(0, missing.length, '', '')}; ${restoreStarters(generateLine(opts))}: nothing was built\n`);
    return EXIT_PROBLEMS;
  }

  rmSync(path.join(projectDir, 'dist'), { recursive: true, force: true });
  const t0 = performance.now();
  const compiled = await withProgress(io, 'tsc -p tsconfig.json', compile(projectDir, tsc, io));
  if (compiled !== 0) {
    io.stderr(`✖ tsc failed (exit ${compiled}): nothing else was built\n`);
    return EXIT_PROBLEMS;
  }
  const tscMs = performance.now() - t0;
  const esbuild = await projectEsbuild(projectDir);
  const t1 = performance.now();
  let bundle: ServerBundle;
  try {
    bundle = await withProgress(io, 'bundling the server (esbuild)', bundleServer(esbuild, projectDir));
  } catch (err) {
    const problems = bundleProblems(err, projectDir, path.join(projectDir, 'src/main.ts'));
    report(problemDiagnostics(problems, Codes.BUNDLE_FAILED, io.cwd), io);
    return EXIT_PROBLEMS;
  }
  const bundleMs = performance.now() - t1;
  const checked = await withProgress(io, 'tsc on the views', checkViews(projectDir, tsc, views.specs, io));
  if (checked !== 0) {
    io.stderr(`✖ tsc failed on the views (exit ${checked}): they were not bundled\n`);
    return EXIT_PROBLEMS;
  }
  const built = await withProgress(
    io,
    `bundling ${views.specs.length} view(s)`,
    buildViews(esbuild, projectDir, views.specs, io.cwd),
  );
  if (report(built.diagnostics, io)) return EXIT_PROBLEMS;
  const entry = path.join(projectDir, 'dist', 'src', 'main.js');
  // The bin runs as a command; a no-op on Windows.
  if (existsSync(entry)) chmodSync(entry, 0o755);

  const chunks = bundle.files.length - 1;
  io.stdout(
    `✔ built ${rel(path.join(projectDir, 'dist'))}: tsc ${(tscMs / 1000).toFixed(1)} s, bundle ${(bundleMs / 1000).toFixed(1)} s (dist/src/main.js and ${chunks} chunk(s), ${kib(bundle.files.reduce((n, f) => n + f.bytes, 0))} in all)\n`,
  );
  for (const v of built.built) io.stdout(`  view ${v.name}: ${v.file} (${kib(v.bytes)})\n`);
  if (io.outcome) {
    io.outcome.applied = true;
    io.outcome.extra.views = built.built.map((v) => ({ name: v.name, file: slashes(v.file), bytes: v.bytes }));
    for (const v of built.built)
      io.outcome.changes.push({
        action: 'create',
        path: slashes(path.relative(projectDir, v.target)),
        owner: 'generated',
        from: null,
      });
  }
  return EXIT_OK;
}

const kib = (n: number) => `${Math.ceil(n / 102.4) / 10} KiB`;

/** Prints a stylish report of the diagnostics; true when any is an error. */
function report(diags: Diagnostic[], io: CliIO): boolean {
  if (!diags.length) return false;
  if (io.outcome) io.outcome.diagnostics.push(...diags);
  else io.stderr(formatReport('stylish', diags, { sources: diagnosticSources(diags, io.cwd), color: false }));
  return hasErrors(diags);
}

/** Type-checks the views' TypeScript (cli/views/check-views.ts); 0 when there is none or it passes. */
async function checkViews(projectDir: string, tsc: string, specs: readonly ViewSpec[], io: CliIO) {
  const config = writeViewsTsconfig(projectDir, specs);
  if (config === null) return 0;
  try {
    return await compile(projectDir, tsc, io, config);
  } finally {
    rmSync(path.join(projectDir, config), { force: true });
  }
}

/** The project's tsc, its diagnostics passed on (to stderr under --json: stdout is the envelope's). */
function compile(projectDir: string, tsc: string, io: CliIO, config = 'tsconfig.json'): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', config], {
      cwd: projectDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = (d: Buffer) => (io.outcome ? io.stderr(String(d)) : io.stdout(String(d)));
    child.stdout.on('data', out);
    child.stderr.on('data', (d: Buffer) => io.stderr(String(d)));
    child.on('error', () => resolve('not started'));
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
}
