/**
 * `mcpgen add tool|resource|template|prompt <name>`: the entry added to the manifest as the MCP
 * tool add_entry adds it (cli/mcp/add-entry.ts): inserted after the section's last entry in its
 * indentation (the section appended when missing), the rest of the text kept byte for byte, the
 * result read back and validated before one atomic write. A refusal writes nothing.
 */
import path from 'node:path';
import { type Diagnostic, formatDiagnostic, UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import type { LoadedManifest } from '../load/types.js';
import { planEntry } from '../mcp/add-entry.js';
import type { DiagnosticData } from '../mcp/check-manifest.js';
import { normalize } from '../normalize/normalize.js';
import { formatStylish } from '../report/stylish.js';
import { commandLine, failure } from '../report/outcome.js';
import { KINDS, type RenameKind } from '../rename/kinds.js';
import { replaceAtomic } from '../write/write.js';
import { type EntryFlags, entryDefinition } from './add-definition.js';

export interface AddEntryOptions extends EntryFlags {
  kind: RenameKind;
  name: string;
  file?: string;
}

export async function addEntryCommand(opts: AddEntryOptions, io: CliIO): Promise<number> {
  const { kind, name } = opts;
  const definition = entryDefinition(kind, opts);
  const abs = findManifest(io.cwd, opts.file);
  const display = path.relative(io.cwd, abs) || abs;
  const plan = planEntry({ abs, display }, kind, name, definition);
  const section = KINDS[kind].section;

  if (!plan.ok) {
    switch (plan.reason) {
      case 'broken':
        return refused(
          io,
          plan.diagnostics,
          undefined,
          `${display} has errors; fix them (mcpgen validate lists them) before adding entries; nothing was written`,
        );
      case 'not-a-mapping':
        throw new UsageError(`\`${section}\` in ${display} is not a mapping of names to entries; nothing was written`);
      case 'exists':
        throw new UsageError(
          `${kind} \`${name}\` already exists at ${display}:${plan.line}:${plan.column}; pick another name (to rename it: mcpgen rename ${kind} ${name} <new>); nothing was written`,
        );
      case 'invalid':
        return refused(
          io,
          plan.diagnostics,
          plan.text,
          `with this ${kind}, ${display} would not validate (${plan.errors} error${plan.errors === 1 ? '' : 's'}, at the lines of ${display} as it would be); nothing was written`,
        );
      case 'layout':
        return refused(
          io,
          [],
          undefined,
          `could not add ${kind} \`${name}\` to ${display} without changing other data (anchors or merge keys?); add it by hand; nothing was written`,
        );
    }
  }

  replaceAtomic(abs, plan.text);
  const pointer = `/${section}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const warnings = plan.checked.diagnostics
    .filter((d) => d.severity !== 'error' && (d.path === pointer || d.path?.startsWith(`${pointer}/`)))
    .map(diagnostic);
  const handler = handlerOf(plan.checked.manifest!, kind, name);
  const stub = handler && path.relative(io.cwd, path.join(path.dirname(abs), 'src/handlers', `${handler}.ts`));
  const generate = commandLine(['mcpgen', 'generate', ...(opts.file ? ['-f', opts.file] : [])]);

  io.stdout(`  edit      ${display} (${kind} ${name} added under ${section}, line ${plan.line})\n`);
  if (plan.layout === 'reprinted')
    io.stdout(
      `            (\`${section}\` is empty or in flow style, { … }, so the yaml package printed the whole file anew: comments kept, flow collections re-spaced)\n`,
    );
  if (warnings.length) io.stderr(formatStylish(warnings, { sources: new Map([[display, plan.text]]), color: false }));
  io.stdout(
    stub
      ? `\nNext: \`${generate}\` creates ${stub}, the stub to write the ${kind} in.\n`
      : `\nNext: \`${generate}\` (the ${kind}'s content is in the manifest: no handler to write).\n`,
  );
  if (io.outcome) {
    io.outcome.applied = true;
    io.outcome.project = path.dirname(abs);
    io.outcome.diagnostics.push(...warnings);
    io.outcome.changes.push({ action: 'edit', path: display, owner: 'user', from: null });
    io.outcome.extra.entry = {
      kind,
      name,
      section,
      line: plan.line,
      handler: stub ? stub.split(path.sep).join('/') : null,
    };
    io.outcome.next.push({
      message: stub ? 'generate the project: it creates the handler stub' : 'generate the project',
      command: generate,
      cwd: '.',
    });
  }
  return EXIT_OK;
}

/** Nothing written: the diagnostics (in `source` when it is not the file on disk), then why. */
function refused(io: CliIO, data: DiagnosticData[], source: string | undefined, message: string): number {
  const diags = data.map(diagnostic);
  if (source !== undefined && diags.length)
    io.stderr(formatStylish(diags, { sources: new Map([[diags[0]!.file, source]]), color: false }));
  else for (const d of diags) io.stderr(`${formatDiagnostic(d)}\n`);
  io.stderr(`✖ ${message}\n`);
  if (io.outcome) {
    io.outcome.diagnostics.push(...diags);
    io.outcome.error = failure('usage', message);
  }
  return EXIT_PROBLEMS;
}

/** The handler file (under src/handlers/, without `.ts`) generate makes for the entry; null when its content is in the manifest. */
function handlerOf(manifest: LoadedManifest, kind: RenameKind, name: string): string | null {
  const { ir } = normalize(manifest, { manifestPath: path.basename(manifest.absPath), generatorVersion: null });
  if (!ir) return null;
  const list = { tool: ir.tools, resource: ir.resources, template: ir.templates, prompt: ir.prompts }[kind];
  return (list as { name: string; handlerPath: string | null }[]).find((e) => e.name === name)?.handlerPath ?? null;
}

function diagnostic(d: DiagnosticData): Diagnostic {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    ...(d.endLine !== null && { endLine: d.endLine }),
    ...(d.endColumn !== null && { endColumn: d.endColumn }),
    ...(d.path !== null && { path: d.path }),
    ...(d.entry !== null && { entry: d.entry }),
    ...(d.hint !== null && { hint: d.hint }),
  };
}
