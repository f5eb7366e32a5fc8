/**
 * `mcpgen init [DIR]`: a commented starter manifest with every primitive kind, then a full
 * generate, then the next steps. Refuses to overwrite an existing manifest. With `--view`, the
 * first tool gets an MCP Apps view: a starter view in ui/greet/ (index.html, main.ts), the user's own.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, type CliIO } from '../io.js';
import { Codes } from '../manifest/codes.js';
import { checkManifestText } from '../mcp/check-manifest.js';
import { renderTemplate } from '../render/handlebars.js';
import { writeStarterView } from '../views/starter.js';
import { writeAtomic } from '../write/write.js';
import { generateCommand } from './generate.js';
import { packageAdvice, printFragment, readPackage, schemaRef } from './init-package.js';
import { tsconfigAdvice } from './init-tsconfig.js';
import { serverNameFrom, serverNames, usableName, yamlString } from './init-name.js';
import { replaceSpecs, vendorToolchain } from './init-npx.js';
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
  const pkgName = pkg !== null && pkg !== 'invalid' && usableName(pkg.name) ? pkg.name : undefined;
  const npmName = opts.name ?? pkgName ?? serverNameFrom(path.basename(dir));
  const names = serverNames(npmName);
  if (names === null)
    throw new UsageError(
      `--name: "${npmName}" is not a valid npm package name for the server; pass --name with lowercase letters, digits and - (scoped as @scope/name for a scoped package)`,
    );
  const { name } = names;
  const manifest = path.join(dir, 'mcpgen.yaml');
  const view = opts.view === true;
  const text = renderTemplate('init/mcpgen.yaml', {
    name,
    view,
    // Every interpolated value as a YAML string: a name such as 2024, null or 1e3 reads back as text.
    yamlName: yamlString(name),
    yamlPackage: names.package === null ? null : yamlString(names.package),
    yamlViewUri: yamlString(`ui://${name}/greet`),
    schemaRef: modelineRef(dir, pkg),
  });
  // What init writes must be valid as it is: checked before anything is written.
  // The view's folder is written after the manifest: its absence is no error of the text.
  const error = checkManifestText(manifest, 'mcpgen.yaml', text).diagnostics.find(
    (d) => d.severity === 'error' && !(view && d.code === Codes.VIEW_BUILD_FOLDER),
  );
  if (error)
    throw new UsageError(
      `--name: the starter manifest for "${npmName}" would not be valid (${error.code} ${error.message}); pass another --name. Nothing was written`,
    );
  mkdirSync(dir, { recursive: true });
  // Files created only when missing: those already there are the user's and stay as they are.
  const existing: string[] = PROJECT_FILES.filter((f) => existsSync(path.join(dir, f)));
  writeAtomic(manifest, text);
  io.stdout(`  create    ${path.relative(io.cwd, manifest)}\n`);
  io.outcome?.changes.push({ action: 'create', path: 'mcpgen.yaml', owner: 'user', from: null });
  const created = ['mcpgen.yaml'];
  // The view's files are the user's, like a handler: written once, before generate reads the manifest.
  if (view) {
    const written = writeStarterView(dir, 'greet');
    existing.push(...written.kept);
    created.push(...written.created);
    for (const rel of written.created) {
      io.stdout(`  create    ${path.relative(io.cwd, path.join(dir, rel))}\n`);
      io.outcome?.changes.push({ action: 'create', path: rel, owner: 'user', from: null });
    }
  }
  const code = await generateCommand({ file: manifest }, io);
  if (code !== EXIT_OK) {
    // A failed init leaves no manifest behind: run again once the problem above is fixed.
    for (const rel of created) rmSync(path.join(dir, rel), { force: true });
    io.stderr(`  init removed what it wrote (${created.join(', ')}); fix the above and run mcpgen init again\n`);
    return code;
  }
  // init's own steps hold the installs generate would name, in the order they work.
  if (io.outcome) io.outcome.next = [];
  const specs = keepToolchain(dir, existing, io);
  const steps = await nextSteps(dir, manifest, pkg, existing, specs, io);
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

/**
 * The modeline's schema: the package.json generate writes when there is none lists mcpgen (a
 * devDependency, for `npm run dev`), so the project will have it in node_modules.
 */
function modelineRef(dir: string, pkg: ReturnType<typeof readPackage>): string {
  return schemaRef(dir, pkg ?? { devDependencies: { mcpgen: VERSION } }, VERSION);
}

/**
 * Run from npx's cache: the runtime tarball copied into vendor/, and the package.json generate just
 * wrote (never the user's) pointed at it and at the mcpgen tarball npx was given; said so.
 */
function keepToolchain(dir: string, existing: string[], io: CliIO): Map<string, string> {
  const npx = vendorToolchain(dir);
  if (npx === null) return new Map();
  io.stdout(`  create    ${path.relative(io.cwd, path.join(dir, npx.runtime))}\n`);
  io.outcome?.changes.push({ action: 'create', path: npx.runtime, owner: 'user', from: null });
  const mine = !existing.includes('package.json');
  if (mine) {
    const file = path.join(dir, 'package.json');
    writeAtomic(file, replaceSpecs(readFileSync(file, 'utf8'), npx.specs, true));
  }
  const where = `mcpgen runs from npx's cache (${npx.cache}), which npm clears at will`;
  const runtime = `@mcpgen/runtime from its copy in ${npx.runtime}`;
  const message =
    npx.tarball !== null
      ? `${where}: ${mine ? 'package.json names' : 'the installs below name'} ${runtime} and mcpgen from ${npx.tarball} (keep that file where it is, or npm install -D mcpgen's tarball from its new place)`
      : `${where}: ${mine ? 'package.json names' : 'the installs below name'} ${runtime}; ${mine ? 'its mcpgen points into the cache: ' : ''}install mcpgen into the project from its tarball (npm install -D path/to/mcpgen-${VERSION}.tgz), then run npx mcpgen there`;
  io.stdout(`! ${message}\n`);
  io.outcome?.next.push({ message, command: null, cwd: null });
  return npx.specs;
}

/**
 * A src/main.ts of the user's that does not start the generated server: npm start, the bin and the
 * generated tests run it as the server, and fail without a word of why.
 */
function entryPointAdvice(dir: string, existing: string[]): string[] | null {
  if (!existing.includes('src/main.ts')) return null;
  let source = '';
  try {
    source = readFileSync(path.join(dir, 'src/main.ts'), 'utf8');
  } catch {
    /* unreadable: said as for one that does not start the server */
  }
  if (/['"]\.\/generated\/server\.js['"]/.test(source)) return null;
  return [
    "src/main.ts is yours and was kept, but it is the server's entry point: npm start, the bin and the generated tests run it (dist/src/main.js), and yours does not start the server.",
    "It must do what mcpgen's starter does: import { app } from './generated/server.js' and serve it over stdio (runStdio(app) from @mcpgen/runtime/stdio) or Streamable HTTP (startHttp() from ./generated/http.js).",
    'For the starter, move yours aside (mv src/main.ts src/app.ts) and run mcpgen generate, which creates src/main.ts when it is missing.',
  ];
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
  specs: Map<string, string>,
  io: CliIO,
): Promise<Step[] | null> {
  const lines: Step[] = [];
  if (existing.length) io.stdout(`\nKept as they were (yours): ${existing.join(', ')}.\n`);
  const entry = entryPointAdvice(dir, existing);
  if (entry) {
    io.stdout(`! ${entry.join('\n  ')}\n`);
    lines.push({
      command: null,
      message:
        'make src/main.ts start the server (above), or move it aside and run mcpgen generate for the starter, then:',
      detail: entry.join(' '),
    });
  }
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
    install = (dependencyProblems(dir)?.commands ?? install).map((c) => replaceSpecs(c, specs, false));
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
