/**
 * What each tool of `mcpgen mcp` does, as plain functions over a project folder returning data (the
 * server, ./server.ts, wraps them as MCP tools). Every command is run in process with a capturing
 * CliIO, so nothing but protocol frames ever reaches stdout.
 */
import type { IR } from '../normalize/ir.js';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import type { CliIO } from '../io.js';
import { MANIFEST_NAMES } from '../load/find.js';
import { isRenameKind, KIND_NAMES, KINDS, type RenameKind } from '../rename/kinds.js';
import { addEntry } from './add-entry.js';
import { checkManifestFile, type DiagnosticData, toData, withErrors } from './check-manifest.js';
import { explainCode } from './explain.js';
import { displayOf, insideProject, manifestOf, type Project, ToolRefusal } from './project.js';
import type { RenameGuess } from '../rename/hint.js';
import { agentWords, nextStepMessages, orphanAdvice, renamesIn } from './wording.js';

/** A CliIO that keeps what a command prints, for the tool's answer (add fields with Object.assign: a spread copy's out and err stay empty). */
export function capturingIO(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    cwd,
    out: '',
    err: '',
    isTTY: false,
    env: { ...process.env, NO_COLOR: '1' },
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  };
  return io;
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

export function kindOf(kind: unknown): RenameKind {
  if (typeof kind !== 'string' || !isRenameKind(kind))
    throw new ToolRefusal(`unknown kind ${JSON.stringify(kind)}: use one of ${KIND_NAMES.join(', ')}`);
  return kind;
}

// validate

export function validateTool(project: Project, args: { manifest?: string }) {
  const manifest = manifestOf(project, args.manifest);
  const checked = checkManifestFile(manifest.abs, manifest.display);
  return {
    manifest: manifest.display,
    valid: checked.errors === 0,
    errors: checked.errors,
    warnings: checked.warnings,
    diagnostics: checked.diagnostics,
  };
}

// compare

/** What `mcpgen compare` finds: each change clients of the server can see since `base`, breaking or compatible. */
export async function compareTool(project: Project, args: { base: string; manifest?: string }) {
  if (typeof args.base !== 'string' || args.base === '')
    throw new ToolRefusal('base is required: a git revision (origin/main, HEAD~1) or a manifest file in the project');
  const manifest = manifestOf(project, args.manifest);
  // A base that is a file must be one of the project's; anything else is read as a git revision.
  if (existsSync(path.resolve(project.root, args.base))) insideProject(project, args.base);
  const { compareCommand } = await import('../commands/compare.js');
  const { newOutcome } = await import('../report/outcome.js');
  const io = Object.assign(capturingIO(project.root), { outcome: newOutcome() });
  try {
    await compareCommand({ base: args.base, file: manifest.abs }, io);
  } catch (err) {
    if (err instanceof UsageError) throw new ToolRefusal(err.message);
    throw err;
  }
  const changes = io.outcome.extra.compare as Array<{ severity: string; file: string }> | undefined;
  // No list: a manifest with errors on either side, said on stderr with its diagnostics.
  if (!changes)
    throw new ToolRefusal(
      lines(io.err)
        .map((l) => agentWords(l.replace(/^✖ /, '')))
        .join('\n') || `could not compare ${manifest.display} with ${args.base}`,
    );
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  return {
    manifest: manifest.display,
    base: String(io.outcome.extra.base),
    breaking,
    compatible: changes.length - breaking,
    changes: changes.map((c) => ({ ...c, file: displayOf(project, path.resolve(project.root, c.file)) })),
  };
}

// explain

export function explainTool(args: { code: string }) {
  if (typeof args.code !== 'string' || args.code.trim() === '') throw new ToolRefusal('code is required, e.g. MCPG110');
  return explainCode(args.code);
}

// add_entry

export function addEntryTool(
  project: Project,
  args: { kind: string; name: string; definition: unknown; manifest?: string },
) {
  const kind = kindOf(args.kind);
  if (typeof args.name !== 'string' || args.name === '') throw new ToolRefusal('name is required');
  const manifest = manifestOf(project, args.manifest);
  const added = addEntry(manifest, kind, args.name, args.definition);
  return {
    manifest: manifest.display,
    kind,
    name: args.name,
    section: added.section,
    line: added.line,
    layout: added.layout,
    warnings: added.checked.diagnostics.filter((d) => d.severity !== 'error'),
    next: `run the generate tool to create the generated code${KINDS[kind].section === 'tools' ? ' and the handler stub' : ''}, then write the handler`,
  };
}

// add_view

/** `mcpgen add view` in process: the tool's view resource in the manifest, its starter folder. */
export async function addViewTool(project: Project, args: { tool: string; manifest?: string }) {
  if (typeof args.tool !== 'string' || args.tool === '') throw new ToolRefusal('tool is required');
  const manifest = manifestOf(project, args.manifest);
  const { addViewCommand } = await import('../commands/add-view.js');
  const { newOutcome } = await import('../report/outcome.js');
  const io = Object.assign(capturingIO(project.root), { outcome: newOutcome() });
  let code: number;
  try {
    code = await addViewCommand({ tool: args.tool, file: manifest.abs }, io);
  } catch (err) {
    if (err instanceof UsageError) throw new ToolRefusal(err.message);
    throw err;
  }
  if (code !== 0)
    throw new ToolRefusal(
      lines(io.err)
        .map((l) => agentWords(l.replace(/^✖ /, '')))
        .join('\n') || `could not add a view to ${args.tool}`,
    );
  const view = io.outcome.extra.view as { resource: string; uri: string; folder: string };
  return {
    manifest: manifest.display,
    tool: args.tool,
    ...view,
    created: io.outcome.changes.filter((c) => c.action === 'create').map((c) => c.path),
    kept: io.outcome.changes.filter((c) => c.action === 'keep').map((c) => c.path),
    next: `run the generate tool, then \`npm run build\` in the project (it bundles ${view.folder}/ into the view)`,
  };
}

// rename_entry

export async function renameEntryTool(
  project: Project,
  args: { kind: string; old: string; new: string; apply?: boolean; manifest?: string },
) {
  const kind = kindOf(args.kind);
  for (const key of ['old', 'new'] as const)
    if (typeof args[key] !== 'string' || args[key] === '') throw new ToolRefusal(`${key} is required`);
  const manifest = manifestOf(project, args.manifest);
  const { planRename, Refusal } = await import('../rename/plan.js');
  const { settleInterrupted } = await import('../commands/generate.js');
  const io = capturingIO(project.root);
  if (settleInterrupted({ file: manifest.abs }, io, false) !== undefined)
    throw new ToolRefusal(
      lines(io.err).map(agentWords).join('\n') || 'an interrupted generate left the project half-switched',
    );
  let plan: Awaited<ReturnType<typeof planRename>>;
  try {
    plan = await planRename(kind, args.old, args.new, { file: manifest.abs }, project.root);
  } catch (err) {
    if (err instanceof Refusal)
      throw new ToolRefusal(agentWords(err.message), err.details.length ? { details: err.details } : {});
    throw err;
  }
  const rel = (p: string) => displayOf(project, path.join(plan.outDir, p));
  const changes: {
    action: 'edit' | 'move' | 'generate';
    file: string;
    to?: string;
    line?: number;
    before?: string;
    after?: string;
  }[] = [];
  const k = plan.keyEdit;
  if (k) changes.push({ action: 'edit', file: manifest.display, line: k.line, before: k.before, after: k.after });
  for (const m of plan.moves) {
    if (m.from !== m.to) changes.push({ action: 'move', file: rel(m.from), to: rel(m.to) });
    for (const e of m.edits)
      changes.push({ action: 'edit', file: rel(m.to), line: e.line, before: e.before, after: e.after });
  }
  changes.push({ action: 'generate', file: `the generated code for "${args.new}"` });
  if (!args.apply)
    return {
      kind,
      old: args.old,
      new: args.new,
      applied: false,
      changes,
      output: [],
      next: 'call again with apply: true to make these changes',
    };
  // The command itself applies it (moves, the manifest through a temp file, a generate), undoing every step on failure.
  const { renameCommand } = await import('../commands/rename.js');
  const run = capturingIO(project.root);
  const code = await renameCommand({ kind, from: args.old, to: args.new, file: manifest.abs, yes: true }, run);
  if (code !== 0)
    throw new ToolRefusal(`the rename failed and was undone; nothing was changed`, {
      output: lines(run.out + run.err).map(agentWords),
    });
  return {
    kind,
    old: args.old,
    new: args.new,
    applied: true,
    changes,
    output: lines(run.out + run.err).map(agentWords),
    next: 'call check: it type-checks the moved handler against its new name',
  };
}

// generate

interface Change {
  path: string;
  action: 'create' | 'update' | 'remove' | 'orphan';
  owner: 'generated' | 'user';
}

interface Planned {
  manifest: string;
  abs: string;
  /** The manifest's diagnostics, as validate gives them. */
  diagnostics: DiagnosticData[];
  /** Why the project cannot be planned with a valid manifest: an interrupted or running generate, a file in the way. */
  problems: DiagnosticData[];
  changes: Change[];
  /** Generated files that differ from what the manifest implies. */
  stale: Change[];
  /** Files no manifest entry uses any more (kept), and the renames done by hand they may come from. */
  orphans: string[];
  renames: RenameGuess[];
  /** The manifest as generate read it: tells an orphan whose entry is gone from one that went static. */
  ir?: IR;
  /** What settling an interrupted generate did (write mode only). */
  notes: string[];
}

/**
 * Validates, then plans a generate without writing: the files it would create, update, remove, and
 * orphans. `writes`: an interrupted generate is finished first, as the generate command does.
 */
async function planned(project: Project, manifestArg: string | undefined, writes = false): Promise<Planned> {
  const manifest = manifestOf(project, manifestArg);
  const checked = checkManifestFile(manifest.abs, manifest.display);
  const base = {
    manifest: manifest.display,
    abs: manifest.abs,
    diagnostics: checked.diagnostics,
    problems: [],
    changes: [],
    stale: [],
    orphans: [],
    renames: [],
    notes: [],
  };
  if (checked.errors > 0) return base;
  const { planProject, settleInterrupted } = await import('../commands/generate.js');
  const { newOutcome } = await import('../report/outcome.js');
  const io = Object.assign(capturingIO(project.root), { outcome: newOutcome() });
  const problems = () =>
    io.outcome.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => {
        const data = toData({ ...d, file: displayOf(project, path.resolve(project.root, d.file)) });
        return { ...data, message: agentWords(data.message), hint: data.hint && agentWords(data.hint) };
      });
  if (settleInterrupted({ file: manifest.abs }, io, writes) !== undefined) return { ...base, problems: problems() };
  const notes = lines(io.err)
    .filter((l) => l.startsWith('! finished the switch'))
    .map((l) => l.slice(2));
  let ir: IR | undefined;
  const { plan, exit } = await planProject({ file: manifest.abs, onIR: (r) => (ir = r) }, io);
  if (!plan || exit !== undefined) return { ...base, problems: problems(), notes };
  const changes = plan.entries
    .filter((e) => e.action !== 'unchanged' && e.action !== 'skip')
    .map((e) => ({ path: e.path, action: e.action as Change['action'], owner: e.owner }));
  return {
    ...base,
    changes,
    stale: changes.filter((c) => c.owner === 'generated'),
    orphans: changes.filter((c) => c.action === 'orphan').map((c) => c.path),
    renames: await renamesIn(plan),
    ...(ir ? { ir } : {}),
    notes,
  };
}

/** The `manifest` argument to repeat in a suggested call: only when it is not the default one. */
function manifestArgOf(p: { manifest: string }): string | undefined {
  return (MANIFEST_NAMES as readonly string[]).includes(p.manifest) ? undefined : p.manifest;
}

/** A refusal listing errors one per line (`file:line:col: CODE message (hint: …)`), with them as data. */
function refuseErrors(head: string, errors: DiagnosticData[]): never {
  throw new ToolRefusal(withErrors(head, errors), { diagnostics: errors });
}

export async function generateTool(project: Project, args: { check?: boolean; dryRun?: boolean; manifest?: string }) {
  if (args.check && args.dryRun) throw new ToolRefusal('check and dryRun cannot be combined');
  const mode = args.check ? 'check' : args.dryRun ? 'dryRun' : 'write';
  const p = await planned(project, args.manifest, mode === 'write');
  const errors = p.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length)
    refuseErrors(
      `${p.manifest} has ${errors.length} error${errors.length === 1 ? '' : 's'}; fix ${errors.length === 1 ? 'it' : 'them'}, then call generate again; nothing was written`,
      errors,
    );
  if (p.problems.length) refuseErrors('the project cannot be generated; nothing was written', p.problems);
  const manifestArg = manifestArgOf(p);
  const orphanMessages = p.orphans.map((f) => `${f}: ${orphanAdvice(f, p.renames, manifestArg, p.ir)}`);
  const result = {
    manifest: p.manifest,
    mode,
    ok: mode === 'check' ? p.stale.length === 0 : true,
    written: false,
    upToDate: p.stale.length === 0,
    changes: p.changes,
    diagnostics: p.diagnostics,
    messages: [...p.notes, ...orphanMessages],
  };
  if (mode !== 'write') return result;
  const { generateCommand } = await import('../commands/generate.js');
  const { newOutcome } = await import('../report/outcome.js');
  const io = Object.assign(capturingIO(project.root), { outcome: newOutcome() });
  const code = await generateCommand({ file: p.abs }, io);
  if (code !== 0) {
    const failed = io.outcome.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => toData({ ...d, file: displayOf(project, path.resolve(project.root, d.file)) }));
    const head = 'generate failed; the project was left as it was';
    if (failed.length) refuseErrors(head, failed);
    throw new ToolRefusal([head, ...lines(io.err).map(agentWords)].join('\n'));
  }
  // What generate says besides its list of files: orphans, renames done by hand, contract changes, packages to install.
  const messages = [...p.notes, ...orphanMessages, ...nextStepMessages(io.outcome)];
  return { ...result, ok: true, written: true, upToDate: true, messages };
}

// check

interface Finding {
  step: 'validate' | 'generate' | 'typecheck' | 'handlers';
  severity: 'error' | 'warning' | 'info';
  message: string;
  file: string | null;
  line: number | null;
  column: number | null;
  code: string | null;
}

interface Step {
  name: 'validate' | 'generate' | 'typecheck';
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function checkTool(project: Project, args: { manifest?: string }, signal?: AbortSignal) {
  const steps: Step[] = [];
  const findings: Finding[] = [];
  const p = await planned(project, args.manifest);
  const manifestArg = manifestArgOf(p);
  const errors = p.diagnostics.filter((d) => d.severity === 'error');
  for (const d of p.diagnostics)
    findings.push({
      step: 'validate',
      severity: d.severity,
      message: d.hint ? `${d.message} (hint: ${d.hint})` : d.message,
      file: d.file,
      line: d.line,
      column: d.column,
      code: d.code,
    });
  steps.push({
    name: 'validate',
    status: errors.length ? 'failed' : 'passed',
    detail: `${plural(errors.length, 'error')}, ${plural(p.diagnostics.length - errors.length, 'warning')}`,
  });
  const none = { line: null, column: null, code: null };
  if (errors.length) {
    steps.push({ name: 'generate', status: 'skipped', detail: 'the manifest has errors' });
  } else {
    for (const d of p.problems)
      findings.push({
        step: 'generate',
        severity: 'error',
        message: d.hint ? `${d.message} (hint: ${d.hint})` : d.message,
        file: d.file,
        line: d.line,
        column: d.column,
        code: d.code,
      });
    for (const c of p.stale)
      findings.push({
        step: 'generate',
        severity: 'error',
        message: `generated file would be ${c.action === 'create' ? 'created' : c.action === 'remove' ? 'removed' : 'updated'}: call the generate tool`,
        file: c.path,
        ...none,
      });
    for (const c of p.changes.filter((x) => x.owner === 'user' && x.action === 'create'))
      findings.push({
        step: 'generate',
        severity: 'error',
        message: 'handler stub not created yet: call the generate tool',
        file: c.path,
        ...none,
      });
    for (const file of p.orphans)
      findings.push({
        step: 'generate',
        severity: 'warning',
        message: orphanAdvice(file, p.renames, manifestArg, p.ir),
        file,
        ...none,
      });
    const failed = p.problems.length > 0 || p.changes.some((c) => c.action !== 'orphan');
    steps.push({
      name: 'generate',
      status: failed ? 'failed' : 'passed',
      detail: p.problems.length
        ? 'the project cannot be generated'
        : failed
          ? `${p.changes.filter((c) => c.action !== 'orphan').length} file(s) out of date`
          : 'generated code is up to date',
    });
  }
  const generated = steps[steps.length - 1]!.status === 'passed';
  steps.push(
    generated
      ? await typecheck(project, findings, new Set(p.orphans), signal)
      : { name: 'typecheck', status: 'skipped', detail: 'validate or generate failed first' },
  );
  // An orphan is not work to do: it is reported once, above, with what to do with it.
  const orphans = new Set(p.orphans);
  for (const file of stubs(project).filter((f) => !orphans.has(f)))
    findings.push({
      step: 'handlers',
      severity: 'info',
      message: 'not implemented yet: still the stub that throws NotImplementedError',
      file,
      ...none,
    });
  const passed = steps.every((s) => s.status !== 'failed');
  const todo = findings.filter((f) => f.step === 'handlers').length;
  const done = passed && todo === 0;
  const failedSteps = steps.filter((s) => s.status === 'failed').map((s) => s.name);
  const passedSteps = steps
    .filter((s) => s.status === 'passed')
    .map((s) => s.name)
    .join(', ');
  const summary = !passed
    ? `failed: ${failedSteps.join(', ')} (${findings.filter((f) => f.severity === 'error').length} error(s)); fix the findings and check again`
    : todo
      ? `passed (${passedSteps}); ${todo} handler${todo === 1 ? ' is' : 's are'} still not implemented`
      : `passed (${passedSteps}); every handler is implemented`;
  return { passed, done, summary, steps, findings };
}

/** Handlers still as generate made them: their body throws NotImplementedError. */
function stubs(project: Project): string[] {
  const out: string[] = [];
  const root = path.join(project.root, 'src', 'handlers');
  for (const kind of Object.values(KINDS)) {
    const dir = path.join(root, kind.dir);
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => n.endsWith('.ts'))
        .sort();
    } catch {
      continue;
    }
    for (const n of names) {
      try {
        if (/\bnew NotImplementedError\(/.test(readFileSync(path.join(dir, n), 'utf8')))
          out.push(displayOf(project, path.join(dir, n)));
      } catch {
        // Unreadable: the type check reports it if it matters.
      }
    }
  }
  return out;
}

const TSC_TIMEOUT_MS = 300_000;

/** The project's own TypeScript, `tsc --noEmit -p tsconfig.json`, when the project has both. */
async function typecheck(
  project: Project,
  findings: Finding[],
  orphans: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<Step> {
  const tsconfig = path.join(project.root, 'tsconfig.json');
  if (!existsSync(tsconfig)) return { name: 'typecheck', status: 'skipped', detail: 'no tsconfig.json in the project' };
  let tsc: string;
  try {
    const require = createRequire(path.join(project.root, 'package.json'));
    const pkgPath = require.resolve('typescript/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: { tsc?: string } };
    tsc = path.join(path.dirname(pkgPath), pkg.bin?.tsc ?? 'bin/tsc');
  } catch {
    return { name: 'typecheck', status: 'skipped', detail: 'typescript is not installed in the project (npm install)' };
  }
  const { code, output } = await runNode(
    tsc,
    ['--noEmit', '-p', 'tsconfig.json', '--pretty', 'false'],
    project.root,
    signal,
  );
  if (code === null) return { name: 'typecheck', status: 'failed', detail: output || 'tsc did not finish' };
  let count = 0;
  let last: Finding | undefined;
  for (const line of output.split('\n')) {
    const m = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/.exec(line.trim());
    if (!m) {
      // tsc's indented continuation lines say what does not match (`Property 'count' is missing…`): kept with their error.
      if (last && /^\s/.test(line) && line.trim() !== '') last.message += `\n${line.replace(/^ {2}/, '').trimEnd()}`;
      else last = undefined;
      continue;
    }
    count++;
    const file = m[1]!.split(path.sep).join('/');
    last = {
      step: 'typecheck',
      severity: m[4] === 'warning' ? 'warning' : 'error',
      message: m[6]!,
      file,
      line: Number(m[2]),
      column: Number(m[3]),
      code: m[5]!,
    };
    findings.push(last);
  }
  // An error in a file no entry uses: deleting the file (or carrying it over with rename_entry) is the fix.
  for (const f of findings)
    if (f.step === 'typecheck' && f.file && orphans.has(f.file))
      f.message += `\n(no manifest entry uses ${f.file} any more: delete it, or call rename_entry if its entry was renamed)`;
  if (code !== 0 && count === 0)
    findings.push({
      step: 'typecheck',
      severity: 'error',
      message: output.trim().slice(0, 4000) || `tsc exited with ${code}`,
      file: null,
      line: null,
      column: null,
      code: null,
    });
  return code === 0
    ? { name: 'typecheck', status: 'passed', detail: 'tsc --noEmit: no errors' }
    : { name: 'typecheck', status: 'failed', detail: `tsc --noEmit: ${count || 'some'} error(s)` };
}

/** Runs a Node script to completion (killed past the timeout or when the request is cancelled). */
function runNode(
  script: string,
  args: string[],
  cwd: string,
  signal?: AbortSignal,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal ? { signal } : {}),
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TSC_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${err.message}`.trim() });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Turns what a command throws for bad input into a refusal the tool answers with. */
export function asRefusal(err: unknown): ToolRefusal | undefined {
  if (err instanceof ToolRefusal) return err;
  if (err instanceof UsageError) return new ToolRefusal(err.message);
  return undefined;
}
