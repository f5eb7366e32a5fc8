/**
 * `mcpgen init [DIR]`: a commented starter manifest with every primitive kind, then a full
 * generate, then the next steps. Refuses to overwrite an existing manifest. With `--view`, the
 * first tool gets an MCP Apps view: a starter view in ui/greet/ (index.html, main.ts), the user's own.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, type CliIO } from '../io.js';
import { renderTemplate } from '../render/handlebars.js';
import { writeStarterView } from '../views/starter.js';
import { writeAtomic } from '../write/write.js';
import { generateCommand } from './generate.js';
import { packageAdvice, printFragment, readPackage, schemaRef } from './init-package.js';
import { tsconfigAdvice } from './init-tsconfig.js';
import { VERSION } from '../version.js';
import { generate } from '../generate.js';
import { PROJECT_FILES } from '../write/owned.js';
import { packageData } from '../render/views.js';
import { dependencyProblems, toolchainSpecs } from '../plan/dependencies.js';
import { slashes } from '../report/outcome.js';

export interface InitOptions {
  dir?: string;
  name?: string;
  /** Give the starter tool a view (MCP Apps), built from ui/greet/. */
  view?: boolean;
}

/** A folder name → an npm-safe server name: lowercase, `[a-z0-9-._~]`, no leading dot/underscore. */
export function serverNameFrom(dirName: string): string {
  const n = dirName
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return n || 'my-mcp-server';
}

export async function initCommand(opts: InitOptions, io: CliIO): Promise<number> {
  const dir = path.resolve(io.cwd, opts.dir ?? '.');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${opts.dir} exists and is not a folder`);
  for (const name of ['mcpgen.yaml', 'mcpgen.yml']) {
    if (existsSync(path.join(dir, name)))
      throw new UsageError(
        `${path.relative(io.cwd, path.join(dir, name)) || name} already exists; init never overwrites a manifest (edit it and run mcpgen generate)`,
      );
  }
  const pkg = existsSync(dir) && statSync(dir).isDirectory() ? readPackage(dir) : null;
  // In an existing package, the server is that package: its name (when init can write it as is).
  const pkgName =
    pkg !== null && pkg !== 'invalid' && typeof pkg.name === 'string' && /^[a-z0-9-~][a-z0-9-._~]*$/.test(pkg.name)
      ? pkg.name
      : undefined;
  const name = opts.name ?? pkgName ?? serverNameFrom(path.basename(dir));
  if (!/^[a-z0-9-~][a-z0-9-._~]*$/.test(name) || name.length > 214)
    throw new UsageError(
      `"${name}" is not a valid npm package name for the server; pass --name with lowercase letters, digits and -`,
    );
  mkdirSync(dir, { recursive: true });
  // Files created only when missing: those already there are the user's and stay as they are.
  const existing: string[] = PROJECT_FILES.filter((f) => existsSync(path.join(dir, f)));
  const manifest = path.join(dir, 'mcpgen.yaml');
  const view = opts.view === true;
  writeAtomic(manifest, renderTemplate('init/mcpgen.yaml', { name, view, schemaRef: schemaRef(dir, pkg, VERSION) }));
  io.stdout(`  create    ${path.relative(io.cwd, manifest)}\n`);
  io.outcome?.changes.push({ action: 'create', path: 'mcpgen.yaml', owner: 'user', from: null });
  // The view's files are the user's, like a handler: written once, before generate reads the manifest.
  if (view) {
    const written = writeStarterView(dir, 'greet');
    existing.push(...written.kept);
    for (const rel of written.created) {
      io.stdout(`  create    ${path.relative(io.cwd, path.join(dir, rel))}\n`);
      io.outcome?.changes.push({ action: 'create', path: rel, owner: 'user', from: null });
    }
  }
  const code = await generateCommand({ file: manifest }, io);
  if (code !== EXIT_OK) return code;
  // init's own steps hold the installs generate would name, in the order they work.
  if (io.outcome) io.outcome.next = [];
  const steps = await nextSteps(dir, manifest, pkg, existing, io);
  if (steps === null) return EXIT_OK;
  const cd = path.relative(io.cwd, dir);
  const pad = (text: string) => text.padEnd(25);
  io.stdout(
    [
      '',
      `Your MCP server "${name}" is ready. Next:`,
      ...(cd ? [`  cd ${cd}`] : []),
      ...steps.map((s) =>
        s.command === null ? `  # ${s.message}` : s.shown ? `  ${pad(s.command)}# ${s.message}` : `  ${s.command}`,
      ),
      '',
      'Edit mcpgen.yaml and run `npx mcpgen generate` (or keep `npm run dev` running) to change what the',
      'server offers; write your logic in src/handlers/ (mcpgen never overwrites those files).',
      '',
    ].join('\n'),
  );
  if (io.outcome) {
    const where = slashes(cd) || '.';
    for (const s of steps)
      io.outcome.next.push({
        message: s.detail ?? s.message,
        command: s.command,
        cwd: s.command === null ? null : where,
      });
    io.outcome.next.push({
      message:
        'edit mcpgen.yaml and run mcpgen generate (or keep npm run dev running) to change what the server offers; write your logic in src/handlers/',
      command: null,
      cwd: null,
    });
  }
  return EXIT_OK;
}

/** A next step: a command and what it does, or an instruction to follow before the commands after it. */
interface Step {
  command: string | null;
  message: string;
  /** The message is printed beside the command (an install's goes without saying). */
  shown?: boolean;
  /** The instruction with what it refers to above it (the keys to merge), for --json. */
  detail?: string;
}

/**
 * The next steps, each of which works as printed. With a package.json of the user's already there,
 * says what was kept and prints exactly what to merge into it (nothing of theirs is changed); null
 * when that package.json cannot be read, after saying why.
 */
async function nextSteps(
  dir: string,
  manifest: string,
  pkg: ReturnType<typeof readPackage>,
  existing: string[],
  io: CliIO,
): Promise<Step[] | null> {
  const lines: Step[] = [];
  if (existing.length) io.stdout(`\nKept as they were (yours): ${existing.join(', ')}.\n`);
  if (pkg === 'invalid') {
    const fix =
      'package.json is not a JSON object, so npm cannot use it: fix it (or move it away and run mcpgen generate for a fresh one), then npm install && npm test';
    io.stderr(`! ${fix}\n`);
    io.outcome?.next.push({ message: fix, command: null, cwd: null });
    return null;
  }
  let run = (script: string) => (script === 'test' || script === 'start' ? `npm ${script}` : `npm run ${script}`);
  let install = ['npm install'];
  if (pkg !== null) {
    const result = await generate({ manifest, outDir: dir });
    const advice = packageAdvice(pkg, packageData(result.ir!, toolchainSpecs(dir)));
    for (const line of advice.kept) io.stdout(`  ${line}\n`);
    if (advice.add) {
      const fragment = printFragment(advice.add);
      io.stdout(
        `Your package.json lacks what the steps below need; mcpgen left it unchanged. Merge these keys into it:\n${fragment}\n`,
      );
      lines.push({
        command: null,
        message: 'merge the keys above into package.json, then:',
        detail: `merge these keys into package.json (mcpgen left it unchanged):\n${fragment}`,
      });
    }
    const name = advice.scriptName;
    const inner = run;
    run = (script: string) => inner(name[script] ?? script);
    install = dependencyProblems(dir)?.commands ?? install;
  }
  if (existing.includes('tsconfig.json')) {
    const advice = tsconfigAdvice(dir);
    if (typeof advice === 'string') {
      io.stdout(`! ${advice}\n`);
      io.outcome?.next.push({ message: advice, command: null, cwd: null });
    } else if (advice.reasons.length) {
      io.stdout(
        `Your tsconfig.json lacks what the generated project needs; mcpgen left it unchanged:\n${advice.reasons.map((r) => `  - ${r}\n`).join('')}`,
      );
      if (advice.set) io.stdout(`Set these in its compilerOptions:\n${printFragment(advice.set)}\n`);
      const also = advice.set && advice.leftOut.length ? ' (and its include)' : '';
      lines.push({
        command: null,
        message: `${advice.set ? 'set those compilerOptions' : 'fix the include'} in tsconfig.json${also}, then:`,
        detail: [
          `tsconfig.json lacks what the generated project needs (mcpgen left it unchanged): ${advice.reasons.join('; ')}`,
          ...(advice.set ? [`set these in its compilerOptions:\n${printFragment(advice.set)}`] : []),
        ].join('\n'),
      });
    }
  }
  lines.push(...install.map((command) => ({ command, message: 'install the packages the project needs' })));
  lines.push({ command: run('test'), shown: true, message: 'type-check, then the generated contract tests' });
  lines.push({
    command: run('start'),
    shown: true,
    message: `serve over stdio (${run('start:http')} for Streamable HTTP)`,
  });
  lines.push({
    command: run('dev'),
    shown: true,
    message: 'serve over HTTP, regenerate, rebuild and restart on every save',
  });
  return lines;
}
