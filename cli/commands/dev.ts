/**
 * `mcpgen dev`: the edit loop. `mcpgen watch` regenerates on manifest changes; on top of that a
 * change to the manifest (or a file it references) or to a source file under src/ rebuilds the
 * project with its own tsc (incremental) and restarts the server over Streamable HTTP.
 *
 * HTTP, not stdio: a stdio server belongs to the client that started it, so a loop cannot restart
 * it under the client. Over HTTP the URL stays the same across restarts (the port is kept) and
 * any client, inspector or `curl` reconnects to it.
 *
 * Views built from sources are type-checked (DOM types) and bundled before the restart, as
 * `mcpgen build` does. A failed generation or build leaves the running server alone: it keeps serving the last good
 * build until a good one replaces it. What no save can fix (TypeScript not installed, the port held
 * by another process when first serving) ends the loop, exit 2. Ctrl-C / SIGTERM stops the
 * watchers, tsc and the server.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { withProgress } from '../progress.js';
import type { FSWatcher } from 'chokidar';
import { UsageError } from '../diagnostics.js';
import { build, findTsc } from '../dev/build.js';
import { portProblem, startServer, type RunningServer } from '../dev/server-process.js';
import { watchPaths } from '../dev/watch-paths.js';
import { EXIT_OK, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { IR } from '../normalize/ir.js';
import { formatReport } from '../report/index.js';
import { projectEsbuild } from '../bundle/esbuild.js';
import { buildViews, diagnosticSources, type ViewSpec } from '../views/build-views.js';
import { writeViewsTsconfig } from '../views/check-views.js';
import { watchCommand } from './watch.js';

/** The manifest's views built from a folder, as the last generation saw them. */
function viewsOf(ir: IR | undefined, manifest: string): ViewSpec[] {
  return (ir?.resources ?? []).flatMap((r) =>
    r.content.kind === 'built'
      ? [
          {
            name: r.name,
            uri: r.uri,
            folder: path.resolve(path.dirname(manifest), r.content.folder),
            output: r.content.output,
          },
        ]
      : [],
  );
}

export interface DevOptions {
  file?: string;
  out?: string;
  /** Port to serve on (default: transports.http.port; 0 picks a free one, then kept across restarts). */
  port?: string;
  host?: string;
  headerVersion?: boolean;
  /** How generated files are laid out, over the manifest's `options.format`. */
  format?: 'mcpgen' | 'prettier';
  debounceMs?: number;
  /** Resolves when the loop should stop (tests); default: SIGINT/SIGTERM. */
  until?: Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function devCommand(opts: DevOptions, io: CliIO): Promise<number> {
  const manifest = findManifest(io.cwd, opts.file);
  const projectDir = path.resolve(io.cwd, opts.out ?? path.dirname(manifest));
  let port: number | undefined;
  if (opts.port !== undefined) {
    port = Number(opts.port);
    if (!/^\d+$/.test(opts.port) || port > 65535) throw new UsageError(`--port must be 0 to 65535, not ${opts.port}`);
  }
  const debounce = opts.debounceMs ?? 100;
  let ir: IR | undefined;
  let server: RunningServer | undefined;
  let killBuild: (() => void) | null = null;
  let stopping = false;
  let reloads = 0;
  let servedPort: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();
  // When the change that started the pending cycle was seen (for "edit → serving" times).
  let changedAt: number | undefined;

  // What saving a file cannot fix (no TypeScript, a port another process holds): the loop ends
  // with it, exit 2.
  let fatal: string | undefined;
  let endLoop = () => {};
  const ended = new Promise<void>((resolve) => (endLoop = resolve));
  const giveUp = (message: string) => {
    fatal = message;
    endLoop();
  };
  const stopped = Promise.race([
    ended,
    opts.until ??
      new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      }),
  ]);

  const cycle = async () => {
    const since = changedAt ?? performance.now();
    changedAt = undefined;
    if (stopping) return;
    const tsc = findTsc(projectDir);
    const where = path.relative(io.cwd, projectDir) || '.';
    // Missing from the start, it is a setup step; gone later (an npm install under way), a save retries.
    if (!tsc && reloads === 0)
      return giveUp(`TypeScript is not installed in ${where}: run \`npm install\` there first, then mcpgen dev again`);
    if (!tsc) return void io.stderr(`✖ typescript is not installed in ${where}: run npm install, then save again\n`);
    const b = await withProgress(
      io,
      'building (tsc --incremental)',
      build(projectDir, tsc, (k) => (killBuild = k)),
    );
    if (stopping) return;
    if (!b.ok) {
      io.stderr(
        `${b.output.trimEnd()}\n✖ build failed in ${seconds(b.ms)}; ${server ? `still serving the last good build at ${server.url.href}` : 'nothing is serving yet'}; fix and save to retry\n`,
      );
      return;
    }
    const views = viewsOf(ir, manifest);
    const viewsConfig = writeViewsTsconfig(projectDir, views);
    if (viewsConfig !== null) {
      const checked = await withProgress(
        io,
        'tsc on the views',
        build(projectDir, tsc, (k) => (killBuild = k), viewsConfig).finally(() =>
          rmSync(path.join(projectDir, viewsConfig), { force: true }),
        ),
      );
      if (stopping) return;
      if (!checked.ok) {
        io.stderr(
          `${checked.output.trimEnd()}\n✖ tsc failed on the views; ${server ? `still serving the last good build at ${server.url.href}` : 'nothing is serving yet'}; fix and save to retry\n`,
        );
        return;
      }
    }
    if (views.length) {
      try {
        const v = await withProgress(
          io,
          `bundling ${views.length} view(s)`,
          projectEsbuild(projectDir).then((esbuild) => buildViews(esbuild, projectDir, views, io.cwd)),
        );
        if (v.diagnostics.length) {
          io.stderr(
            formatReport('stylish', v.diagnostics, { sources: diagnosticSources(v.diagnostics, io.cwd), color: false }),
          );
          io.stderr(
            `✖ views not built; ${server ? `still serving the last good build at ${server.url.href}` : 'nothing is serving yet'}; fix and save to retry\n`,
          );
          return;
        }
      } catch (err) {
        io.stderr(`✖ ${(err as Error).message}\n`);
        return;
      }
    }
    watchViews(views);
    io.stdout(`built in ${seconds(b.ms)}\n`);
    const http = ir?.transports.http;
    if (!http) {
      io.stdout(
        `no transports.http in the manifest: built only (add \`http: {}\` under transports to serve while developing)\n`,
      );
      return;
    }
    const t0 = performance.now();
    // The port the last server had, even one that crashed since: the URL stays the same.
    const keep = servedPort ?? port ?? http.port;
    // Cleared before stopping so its exit is not reported as a crash.
    const old = server;
    server = undefined;
    await old?.stop();
    if (stopping) return;
    try {
      server = await withProgress(
        io,
        'starting the server',
        startServer(projectDir, {
          port: keep,
          ...(opts.host ? { host: opts.host } : {}),
          log: (l) => io.stderr(`  [server] ${l}\n`),
        }),
      );
    } catch (err) {
      // A port never served on that another process holds: no save frees it. A port served on
      // before (a crashed server's) is ours to retry.
      const host = opts.host ?? http.host;
      const busy = servedPort === undefined && keep !== 0 && !stopping ? await portProblem(host, keep) : null;
      if (busy) return giveUp(busy);
      io.stderr(`✖ ${(err as Error).message}; fix and save to retry\n`);
      return;
    }
    if (stopping) return void (await server.stop());
    servedPort = Number(server.url.port);
    const child = server.child;
    child.once('exit', (code, signal) => {
      if (!stopping && server?.child === child) {
        io.stderr(`✖ the server exited (${signal ?? `code ${code}`}); save a file to rebuild and restart it\n`);
        server = undefined;
      }
    });
    reloads++;
    const total = seconds(performance.now() - since);
    io.stdout(
      `${reloads === 1 ? 'started' : 'restarted'} in ${seconds(performance.now() - t0)}\n✔ serving at ${server.url.href} (${reloads === 1 ? `ready in ${total}` : `${total} after the change`})\n`,
    );
  };

  const schedule = (at = performance.now()) => {
    changedAt = Math.min(changedAt ?? at, at);
    clearTimeout(timer);
    timer = setTimeout(() => {
      queue = queue.then(cycle, cycle);
    }, debounce);
  };

  // Handler and other source edits: src/generated/ is written by the generation, which schedules its own build.
  // Started after a generation: in a folder holding only a manifest, src/ does not exist before.
  // The debounce covers chokidar's 50 ms throttle of changes to one file, as in watch.ts.
  // Watched from the project's folder, so src/ deleted and created again (a git checkout) is seen.
  let srcWatcher: Promise<FSWatcher> | undefined;
  const SOURCE = /\.(ts|mts|cts|json)$/;
  const watchSources = () => {
    if (srcWatcher || stopping) return;
    const generated = path.join(projectDir, 'src', 'generated');
    srcWatcher = watchPaths(
      projectDir,
      {
        files: [],
        trees: [path.join(projectDir, 'src')],
        ignoreInTree: (p, stats) =>
          p === generated || p.startsWith(`${generated}${path.sep}`) || (stats?.isFile() === true && !SOURCE.test(p)),
      },
      (_event, p) => {
        if (SOURCE.test(p)) schedule();
      },
      (err) => io.stderr(`! cannot watch src/ (${err.message}): only manifest changes rebuild\n`),
    );
  };

  // The folders of views built from sources (`build:`): a change there rebuilds them and restarts.
  const viewWatchers = new Map<string, Promise<FSWatcher>>();
  const watchViews = (views: readonly ViewSpec[]) => {
    for (const v of views) {
      if (viewWatchers.has(v.folder) || stopping) continue;
      viewWatchers.set(
        v.folder,
        watchPaths(
          path.dirname(manifest),
          { files: [], trees: [v.folder] },
          () => schedule(),
          (err) => io.stderr(`! cannot watch ${v.folder} (${err.message})\n`),
        ),
      );
    }
  };

  io.stdout(
    `mcpgen dev: regenerate, build and serve ${path.relative(io.cwd, projectDir) || '.'} over HTTP; Ctrl-C to stop\n`,
  );
  const watching = watchCommand(
    {
      file: manifest,
      ...(opts.out ? { out: opts.out } : {}),
      ...(opts.headerVersion === false ? { headerVersion: false } : {}),
      ...(opts.format ? { format: opts.format } : {}),
      quiet: true,
      debounceMs: debounce,
      until: stopped,
      onGenerated: (r) => {
        if (r.ir) ir = r.ir;
        watchSources();
        if (r.ok) schedule(r.startedAt);
        else if (!r.first)
          io.stderr(
            `✖ not rebuilt: ${server ? `still serving the last good build at ${server.url.href}` : 'nothing is serving'}\n`,
          );
        else io.stderr(`✖ fix the manifest to build and serve\n`);
      },
    },
    io,
  );
  await stopped;
  stopping = true;
  clearTimeout(timer);
  await (await srcWatcher)?.close();
  for (const w of viewWatchers.values()) await (await w).close();
  (killBuild as (() => void) | null)?.();
  await watching;
  await queue;
  await server?.stop();
  io.stdout('mcpgen dev: stopped\n');
  if (fatal) throw new UsageError(fatal);
  return EXIT_OK;
}
