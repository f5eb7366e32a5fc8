/**
 * `mcpgen compare --base <file|rev>`: whether the manifest's change breaks the server's existing
 * clients. Both manifests are loaded, validated and normalized as generate does; the interfaces
 * clients see are compared (cli/compare/). Exit 0 when nothing breaks, 1 when something does
 * (0 with --allow-breaking), 2 for usage, a base that cannot be read or an invalid base.
 */
import path from 'node:path';
import { type Diagnostic, hasErrors, sortDiagnostics, UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import { loadManifest, loadManifestText } from '../load/load.js';
import type { LoadedManifest } from '../load/types.js';
import type { IR } from '../normalize/ir.js';
import { normalize } from '../normalize/normalize.js';
import { failure } from '../report/outcome.js';
import { findRepositoryRoot } from '../report/locations.js';
import { formatStylish as formatDiagnostics } from '../report/stylish.js';
import { validateManifest } from '../validate/validate.js';
import { readBase } from '../compare/base.js';
import { aboutFiles, withoutFileContents } from '../compare/contents.js';
import { compareInterfaces } from '../compare/compare.js';
import {
  COMPARE_FORMATS,
  type CompareFormat,
  formatGithub,
  formatJson,
  formatStylish,
  locate,
} from '../compare/report.js';

export interface CompareOptions {
  base?: string;
  file?: string;
  format?: string;
  allowBreaking?: boolean;
}

export async function compareCommand(opts: CompareOptions, io: CliIO): Promise<number> {
  const format = (opts.format ?? 'stylish') as CompareFormat;
  if (!COMPARE_FORMATS.includes(format))
    throw new UsageError(`--format ${String(opts.format)}: expected one of ${COMPARE_FORMATS.join(', ')}`);
  if (io.outcome && format !== 'stylish')
    throw new UsageError(`--json and --format ${format} cannot be combined (the envelope carries the changes)`);
  if (opts.base === undefined)
    throw new UsageError(
      '--base is required: the manifest to compare against, a file or a git revision (mcpgen compare --base origin/main)',
    );
  const headPath = findManifest(io.cwd, opts.file);
  const base = await readBase(opts.base, headPath, io.cwd);
  if (base.absent) {
    // The first pull request of a server: no client can depend on it yet.
    if (io.outcome) Object.assign(io.outcome.extra, { base: base.display, breaking: 0, compare: [] });
    if (format === 'json') io.stdout(formatJson([]));
    io.stderr(
      `✔ ${displayPath(io.cwd, headPath)} is not at ${base.rev}: the change adds it, so no existing client can break\n`,
    );
    return EXIT_OK;
  }

  const baseSide = irOf(
    base.source === undefined
      ? loadManifest(base.absPath, base.display)
      : loadManifestText(base.absPath, base.display, base.source),
    base.source,
    true,
  );
  if (!baseSide.ir) {
    report(io, baseSide.diagnostics, baseSide.source);
    const message = `the base manifest ${base.display} is invalid: nothing to compare against (fix it there, or compare against another --base)`;
    io.stderr(`✖ ${message}\n`);
    if (io.outcome) io.outcome.error = failure('usage', message);
    return EXIT_USAGE;
  }
  const headDisplay = displayPath(io.cwd, headPath);
  const headSide = irOf(loadManifest(headPath, headDisplay));
  if (!headSide.ir || !headSide.manifest) {
    report(io, headSide.diagnostics, headSide.source);
    const n = headSide.diagnostics.filter((d) => d.severity === 'error').length;
    io.stderr(`✖ ${n} error${n === 1 ? '' : 's'} in ${headDisplay}; run mcpgen validate, then compare again\n`);
    // A manifest that is no readable file stops validate with 2 too.
    return headSide.unreadable ? EXIT_USAGE : EXIT_PROBLEMS;
  }

  const head = headSide.manifest;
  const changes = compareInterfaces(baseSide.ir, headSide.ir).map((c) => locate(head, c, c.change === 'removed'));
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  const compatible = changes.length - breaking;
  if (io.outcome) {
    io.outcome.extra.base = base.display;
    io.outcome.extra.breaking = breaking;
    io.outcome.extra.compare = JSON.parse(formatJson(changes));
  }
  if (format === 'json') io.stdout(formatJson(changes));
  else if (format === 'github') {
    const root = findRepositoryRoot(path.dirname(headPath), io.cwd, io.env);
    io.stdout(formatGithub(changes, { root, cwd: io.cwd }, opts.allowBreaking === true));
  } else io.stdout(formatStylish(changes));

  const against = `against ${base.display}`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (breaking === 0) {
    io.stderr(
      compatible
        ? `✔ no breaking changes ${against} (${plural(compatible, 'compatible change')})\n`
        : `✔ no changes clients can see ${against}\n`,
    );
    return EXIT_OK;
  }
  const counts = `${plural(breaking, 'breaking change')}${compatible ? `, ${compatible} compatible` : ''} ${against}`;
  if (opts.allowBreaking) {
    io.stderr(`! ${counts}: allowed (--allow-breaking)\n`);
    return EXIT_OK;
  }
  io.stderr(
    `✖ ${counts}: existing clients may fail; release it as a new major version and pass --allow-breaking, or keep the old interface\n`,
  );
  return EXIT_PROBLEMS;
}

interface Side {
  ir?: IR;
  manifest?: LoadedManifest;
  diagnostics: Diagnostic[];
  source?: string;
  unreadable?: boolean;
}

/**
 * Load → validate → normalize, as generate does (lint's style rules aside: they change no
 * interface). `contentsAside` for the base: the files it references are no part of the interface,
 * and are not where it says (the working tree's at a revision, none beside a copy) (../compare/contents.ts).
 */
function irOf(loaded: ReturnType<typeof loadManifest>, source?: string, contentsAside = false): Side {
  const text = loaded.source ?? source;
  const unreadable = !loaded.manifest && loaded.source === undefined;
  if (!loaded.manifest || hasErrors(loaded.diagnostics))
    return { diagnostics: loaded.diagnostics, ...(text !== undefined ? { source: text } : {}), unreadable };
  const manifest = loaded.manifest;
  const validated = validateManifest(manifest);
  const diagnostics = [...loaded.diagnostics, ...(contentsAside ? validated.filter((d) => !aboutFiles(d)) : validated)];
  if (hasErrors(diagnostics)) return { diagnostics, source: manifest.source };
  const norm = normalize(contentsAside ? withoutFileContents(manifest) : manifest, {
    manifestPath: path.basename(manifest.absPath),
    generatorVersion: null,
  });
  if (!norm.ir) return { diagnostics: [...diagnostics, ...norm.diagnostics], source: manifest.source };
  return { ir: norm.ir, manifest, diagnostics };
}

function report(io: CliIO, diagnostics: Diagnostic[], source: string | undefined): void {
  const errors = sortDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
  io.outcome?.diagnostics.push(...errors);
  const sources = new Map<string, string>(source !== undefined && errors[0] ? [[errors[0].file, source]] : []);
  io.stderr(formatDiagnostics(errors, { sources, color: io.isTTY && io.env.NO_COLOR === undefined }));
}

/** Relative to cwd, forward slashes, as validate names the manifest. */
function displayPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}
