/**
 * The command line: thin commander wiring over commands that take (options, io) and return an
 * exit code, so tests run them in-process.
 */
import type { Command as CommandType } from 'commander';
import { UsageError } from './diagnostics.js';
import { EXIT_USAGE, processIO, type CliIO } from './io.js';
import { failure } from './report/outcome.js';
import { VERSION } from './version.js';
import { helpAfter } from './help.js';
import { addKindUsage, INPUT_TYPES } from './commands/add-definition.js';
import { type CompletionCommand, completionCommand } from './commands/completion.js';

// Commands are loaded when run: `generate` on an up-to-date project must not pay for ajv or the build.
const validateCommand: typeof import('./commands/validate.js').validateCommand = async (...a) =>
  (await import('./commands/validate.js')).validateCommand(...a);
const generateCommand: typeof import('./commands/generate.js').generateCommand = async (...a) =>
  (await import('./commands/generate.js')).generateCommand(...a);
const diffCommand: typeof import('./commands/diff.js').diffCommand = async (...a) =>
  (await import('./commands/diff.js')).diffCommand(...a);
const compareCommand: typeof import('./commands/compare.js').compareCommand = async (...a) =>
  (await import('./commands/compare.js')).compareCommand(...a);
const initCommand: typeof import('./commands/init.js').initCommand = async (...a) =>
  (await import('./commands/init.js')).initCommand(...a);
const schemaCommand = async (io: CliIO) => (await import('./commands/schema.js')).schemaCommand(io);
const watchCommand: typeof import('./commands/watch.js').watchCommand = async (...a) =>
  (await import('./commands/watch.js')).watchCommand(...a);
const devCommand: typeof import('./commands/dev.js').devCommand = async (...a) =>
  (await import('./commands/dev.js')).devCommand(...a);
const packCommand: typeof import('./commands/pack.js').packCommand = async (...a) =>
  (await import('./commands/pack.js')).packCommand(...a);
const buildCommand: typeof import('./commands/build.js').buildCommand = async (...a) =>
  (await import('./commands/build.js')).buildCommand(...a);
const addViewCommand: typeof import('./commands/add-view.js').addViewCommand = async (...a) =>
  (await import('./commands/add-view.js')).addViewCommand(...a);
const addEntryCommand: typeof import('./commands/add-entry.js').addEntryCommand = async (...a) =>
  (await import('./commands/add-entry.js')).addEntryCommand(...a);
const renameCommand: typeof import('./commands/rename.js').renameCommand = async (...a) =>
  (await import('./commands/rename.js')).renameCommand(...a);
const importCommand: typeof import('./commands/import.js').importCommand = async (...a) =>
  (await import('./commands/import.js')).importCommand(...a);
const mcpCommand: typeof import('./commands/mcp.js').mcpCommand = async (...a) =>
  (await import('./commands/mcp.js')).mcpCommand(...a);

/** What each command is run with: the commands themselves, or (tests) something that records the options. */
export interface Actions {
  init(o: { dir?: string; name?: string; view?: boolean }): Promise<number>;
  validate(o: ValidateFlags): Promise<number>;
  generate(o: GenerateFlags): Promise<number>;
  watch(o: { file?: string; out?: string; headerVersion?: boolean; format?: Layout; quiet?: boolean }): Promise<number>;
  diff(o: { file?: string; out?: string; headerVersion?: boolean; format?: Layout }): Promise<number>;
  compare(o: import('./commands/compare.js').CompareOptions): Promise<number>;
  schema(): Promise<number>;
  dev(o: DevFlags): Promise<number>;
  pack(o: PackFlags): Promise<number>;
  build(o: { file?: string; out?: string }): Promise<number>;
  addView(o: { tool: string; file?: string; yes?: boolean }): Promise<number>;
  addEntry(o: import('./commands/add-entry.js').AddEntryOptions): Promise<number>;
  rename(o: { kind: string; from: string; to: string; file?: string; out?: string; yes?: boolean }): Promise<number>;
  mcp(o: { dir?: string }): Promise<number>;
  import(o: ImportFlags): Promise<number>;
}

type ImportFlags = import('./commands/import.js').ImportFlags;

type DevFlags = {
  file?: string;
  out?: string;
  port?: string;
  host?: string;
  headerVersion?: boolean;
  format?: Layout;
  json?: boolean;
};
type PackFlags = { file?: string; out?: string; bundle?: string; build?: boolean; registryName?: string };

export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  // --json: the same run with its result recorded, printed as one envelope (cli/report/envelope.ts).
  if (!io.outcome && argv.includes('--json')) {
    const { wantsJson, withEnvelope } = await import('./report/envelope.js');
    if (wantsJson(argv)) return withEnvelope(argv, io, (inner) => runCli(argv, inner));
  }
  // `validate` and `generate` with plain options (what CI and a regenerate run) skip loading
  // commander: on a large manifest, commander and the modules it needs are a tenth of a validate,
  // and ≈ 30 ms of every generate (a sixth of a no-op). Anything else goes through commander.
  const quickValidate = quickValidateOptions(argv);
  const quickGenerate = quickValidate ? undefined : quickGenerateOptions(argv);
  if (quickValidate || quickGenerate) {
    try {
      return await (quickValidate ? validateCommand(quickValidate, io) : generateCommand(quickGenerate!, io));
    } catch (err) {
      return failed(err, false, io);
    }
  }
  const { CommanderError } = await import('commander');
  const debug = argv.includes('--debug');
  const { program, exitCode } = await buildProgram(io, {
    init: (o) => initCommand(o, io),
    validate: (o) => validateCommand(o, io),
    generate: (o) => generateCommand(o, io),
    watch: (o) => watchCommand(o, io),
    diff: (o) => diffCommand(o, io),
    compare: (o) => compareCommand(o, io),
    schema: () => schemaCommand(io),
    dev: (o) => devCommand(o, io),
    pack: (o) => packCommand(o, io),
    build: (o) => buildCommand(o, io),
    addView: (o) => addViewCommand(o, io),
    addEntry: (o) => addEntryCommand(o, io),
    rename: (o) => renameCommand(o, io),
    mcp: (o) => mcpCommand(o, io),
    import: (o) => importCommand(o, io),
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode();
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      if (io.outcome) io.outcome.error = failure('usage', err.message.replace(/^error: /, ''));
      return EXIT_USAGE;
    }
    return failed(err, debug, io);
  }
}

/** The commander program (every command, its options, the action each runs) and the exit code of the one that ran. */
export async function buildProgram(
  io: CliIO,
  actions: Actions,
): Promise<{ program: CommandType; exitCode: () => number }> {
  const { Command, Option } = await import('commander');
  let exit = 0;
  const run = async (fn: () => Promise<number>) => {
    exit = await fn();
  };
  const program: CommandType = new Command('mcpgen')
    .description('Generate typed, runnable MCP servers from one YAML manifest')
    .version(VERSION, '-v, --version')
    .option('--debug', 'show stack traces of internal errors')
    .exitOverride()
    // Under --json, help and the version are not the result: stdout holds the envelope alone.
    .configureOutput({
      writeOut: (s) => (io.outcome ? io.stderr : io.stdout)(s),
      writeErr: (s) => io.stderr(s),
      // One prefix for every error mcpgen prints, the command line's own included.
      outputError: (s, write) => write(s.replace(/^error: /, 'mcpgen: ')),
    })
    .showSuggestionAfterError();

  program
    .command('init [dir]')
    .description('write a starter mcpgen.yaml and generate its project')
    .option('--name <name>', 'server (and npm package) name; default: the folder name')
    .option('--view', 'give the starter tool a view (MCP Apps), built from ui/greet/ (index.html, main.ts with App)')
    .option('--json', JSON_HELP)
    .action((dir: string | undefined, o: { name?: string; view?: boolean }) =>
      run(() => actions.init({ ...(dir ? { dir } : {}), ...o })),
    );

  program
    .command('validate')
    .description('check the manifest: YAML, schema, semantic and lint rules')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('--format <format>', 'stylish (default, stderr), json, github or sarif (stdout)')
    .option(
      '--rule <id=off|warn|error>',
      'set a lint rule (repeatable; wins over the manifest)',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .option('--json', JSON_HELP)
    .action((o: ValidateFlags) => run(() => actions.validate(o)));

  program
    .command('generate')
    .description('generate (or update) the project described by the manifest')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--dry-run', 'print the plan and write nothing')
    .option('--check', 'exit 1 if generated files are out of date; write nothing')
    .option('--no-header-version', "leave mcpgen's version out of file headers")
    .addOption(formatOption(Option))
    .option('-q, --quiet', 'print only the summary and the files created for you to edit')
    .option('--json', JSON_HELP)
    .action((o: GenerateFlags) => run(() => actions.generate(o)));

  program
    .command('watch')
    .description('generate, then regenerate whenever the manifest or a file it references changes')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--no-header-version', "leave mcpgen's version out of file headers")
    .addOption(formatOption(Option))
    .option('-q, --quiet', 'print only the summary and the files created for you to edit')
    .addOption(noJson(Option))
    .action(
      (o: { file?: string; out?: string; headerVersion?: boolean; format?: Layout; quiet?: boolean; json?: boolean }) =>
        run(() => refuseJson('watch', o).then(() => actions.watch(o))),
    );

  program
    .command('dev')
    .description('regenerate, rebuild and restart the server over HTTP on every change; prints the URL')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--port <n>', 'port to serve on (default: transports.http.port; 0 = any free port, kept across restarts)')
    .option('--host <host>', 'interface to listen on (default: transports.http.host)')
    .option('--no-header-version', "leave mcpgen's version out of file headers")
    .addOption(formatOption(Option))
    .addOption(noJson(Option))
    .action((o: DevFlags) => run(() => refuseJson('dev', o).then(() => actions.dev(o))));

  program
    .command('pack')
    .description("build an MCP Bundle (.mcpb) of the built server and write the MCP Registry's server.json")
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--bundle <path>', 'bundle file (default: <project>/<name>-<version>.mcpb)')
    .option('--build', 'run npm run build first')
    .option('--registry-name <name>', 'server.json name, e.g. io.github.you/weather (default: package.json mcpName)')
    .option('--json', JSON_HELP)
    .action((o: PackFlags) => run(() => actions.pack(o)));

  program
    .command('build')
    .description("the project's npm run build: compile with tsc, bundle the manifest's built views (esbuild)")
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--json', JSON_HELP)
    .action((o: { file?: string; out?: string }) => run(() => actions.build(o)));

  const repeat = (v: string, acc: string[] = []) => [...acc, v];
  const add = program
    .command('add')
    .description('add to the manifest: a tool, resource, template or prompt, or a view for a tool (MCP Apps)')
    .usage('<tool|resource|template|prompt|view> <name> [options]')
    .argument('[kind]')
    .allowExcessArguments()
    // Reached only without a kind add has: name the kinds it has.
    .action((kind: string | undefined) => {
      throw addKindUsage(kind);
    });
  const manifestFlag = ['-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)'] as const;
  const named = (kind: string) =>
    [
      ['--title <text>', `the ${kind}'s human-readable name, shown by clients`],
      [
        '-d, --description <text>',
        `what the ${kind} is for (${kind === 'tool' || kind === 'prompt' ? 'models choose by it' : 'clients and models see it in listings'})`,
      ],
    ] as const;
  const entry = (kind: 'tool' | 'resource' | 'template' | 'prompt', usage: string, description: string) => {
    const command = add
      .command(usage)
      .description(description)
      .option(...manifestFlag);
    for (const [flags, help] of named(kind)) command.option(flags, help);
    return command;
  };
  const addAction = (kind: 'tool' | 'resource' | 'template' | 'prompt') => (name: string, o: object) =>
    run(() => actions.addEntry({ kind, name, ...o }));
  entry('tool', 'tool <name>', 'add a tool; `mcpgen generate` then creates its handler stub')
    .option(
      '-i, --input <name[?][:type[:description]]>',
      `an input property, required unless marked ?; type: ${INPUT_TYPES.join(', ')} (default string) (repeatable)`,
      repeat,
    )
    .option('--read-only', 'mark the tool read-only (annotations.readOnlyHint)')
    .option('--json', JSON_HELP)
    .action(addAction('tool'));
  entry('resource', 'resource <name>', 'add a resource with a fixed URI: static with --text, else served by a handler')
    .requiredOption('--uri <uri>', 'the absolute URI clients read it by, e.g. notes://readme')
    .option('--mime-type <type>', 'media type of its content, e.g. text/markdown')
    .option('--text <content>', 'its static content (no handler)')
    .option('--json', JSON_HELP)
    .action(addAction('resource'));
  entry('template', 'template <name>', 'add a resource template: resources addressed by an RFC 6570 URI template')
    .requiredOption('--uri-template <template>', "the URI template, e.g. 'notes://{id}'")
    .option('--mime-type <type>', 'media type of every resource of the template')
    .option('--json', JSON_HELP)
    .action(addAction('template'));
  entry('prompt', 'prompt <name>', 'add a prompt: declarative with --text, else served by a handler')
    .option(
      '-a, --argument <name[?][:description]>',
      'an argument, required unless marked ? (repeatable); use it in --text as {{name}}',
      repeat,
    )
    .option('--text <message>', "the prompt's user message, with {{argument}} placeholders (no handler)")
    .option('--json', JSON_HELP)
    .action(addAction('prompt'));
  add
    .command('view <tool>')
    .description('give a tool a view: a ui:// resource built from ui/<tool>/ (index.html, main.ts with App)')
    .option(...manifestFlag)
    .option('--json', JSON_HELP)
    .action((tool: string, o: { file?: string }) => run(() => actions.addView({ tool, ...o })));

  program
    .command('rename <kind> <old> <new>')
    .description('rename a tool, resource, template or prompt and move its handler along (dry run unless --yes)')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--yes', 'apply the rename (default: print what would change and write nothing)')
    .option('--json', JSON_HELP)
    .action((kind: string, from: string, to: string, o: { file?: string; out?: string; yes?: boolean }) =>
      run(() => actions.rename({ kind, from, to, ...o })),
    );

  program
    .command('import <format> <file>')
    .description('add or update a tool per operation of an OpenAPI document (format: openapi), calling the API')
    .option('-f, --manifest <path>', 'the manifest to merge into (default: ./mcpgen.yaml; created if missing)')
    .option('--tag <tag>', 'only operations with this tag (repeatable)', repeat)
    .option(
      '--path <glob>',
      'only paths under this prefix or matching this glob, e.g. /pets or /repos/*/issues/** (repeatable)',
      repeat,
    )
    .option('--operation <id>', 'only this operationId (repeatable)', repeat)
    .option('--rename <rule>', 'operationId=tool_name, prefix:<text> or strip:<text> (repeatable)', repeat)
    .option(
      '--api <name>',
      "the api's key under apis: (default: the one this document's entries call, else from its title)",
    )
    .option('--dry-run', 'print what would change and write nothing')
    .option('--json', JSON_HELP)
    .action((format: string, file: string, o: Omit<ImportFlags, 'format' | 'file'>) =>
      run(() => actions.import({ format, file, ...o })),
    );

  program
    .command('mcp')
    .description('serve mcpgen over MCP (stdio): validate, explain, add or rename entries, generate, check')
    .option('-C, --dir <dir>', 'the project folder (default: the current folder)')
    .addOption(noJson(Option))
    .action((o: { dir?: string; json?: boolean }) => run(() => refuseJson('mcp', o).then(() => actions.mcp(o))));

  program
    .command('diff')
    .description('print a unified diff of what generate would change; exit 1 if anything would')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .option('-o, --out <dir>', "project folder (default: the manifest's folder)")
    .option('--no-header-version', "leave mcpgen's version out of file headers")
    .addOption(formatOption(Option))
    .option('--json', JSON_HELP)
    .action((o: { file?: string; out?: string; headerVersion?: boolean; format?: Layout }) =>
      run(() => actions.diff(o)),
    );

  program
    .command('compare')
    .description(
      "say whether the manifest's change breaks the server's existing clients (against a file or git revision)",
    )
    .option('--base <ref-or-file>', 'the manifest before: a file, or a git revision whose copy of the manifest is read')
    .option('-f, --file <path>', 'manifest path (default: mcpgen.yaml here or above)')
    .addOption(
      new Option('--format <format>', 'stylish (default), json or github (stdout)').choices([
        'stylish',
        'json',
        'github',
      ]),
    )
    .option('--allow-breaking', 'list breaking changes but exit 0 (a planned major version)')
    .option('--json', JSON_HELP)
    .action((o: import('./commands/compare.js').CompareOptions) => run(() => actions.compare(o)));

  program
    .command('schema')
    .description('print the manifest JSON Schema')
    .option('--json', JSON_HELP)
    .action(() => run(() => actions.schema()));

  program
    .command('completion [shell]')
    .description("print a script completing mcpgen's commands and options in bash, zsh or fish")
    .action((shell: string | undefined) =>
      run(async () => {
        // Values checked by the command itself rather than by commander.
        const values = { 'validate --format': (await import('./report/index.js')).FORMATS };
        return completionCommand(shell, completionOf(program, values), io);
      }),
    );

  for (const command of program.commands) refuseRepeats(command);
  for (const command of program.commands) manifestNotPositional(command);
  // Examples and the documentation after each command's options.
  for (const command of program.commands) {
    command.addHelpText('after', helpAfter(command.name()));
    for (const sub of command.commands) sub.addHelpText('after', helpAfter(`${command.name()} ${sub.name()}`));
  }
  return { program, exitCode: () => exit };
}

/** The commands and options the completion scripts offer, read off the program itself. */
function completionOf(program: CommandType, values: Record<string, readonly string[]>): CompletionCommand[] {
  return program.commands.map((c) => ({
    name: c.name(),
    description: c.description(),
    ...(c.commands.length ? { subcommands: completionOf(c, values) } : {}),
    options: [
      ...c.options.filter((o) => !o.hidden),
      { short: '-h', long: '--help', description: 'show help', flags: '-h, --help', argChoices: undefined },
    ].map((o) => ({
      flags: [o.short, o.long].filter((f): f is string => typeof f === 'string'),
      description: o.description,
      takesFile: /<(path|dir|file)>/.test(o.flags) || ['--file', '--out', '--bundle'].includes(o.long ?? ''),
      ...(o.argChoices ? { choices: o.argChoices } : {}),
      ...(values[`${c.name()} ${o.long}`] ? { choices: values[`${c.name()} ${o.long}`] } : {}),
    })),
  }));
}

const JSON_HELP = 'print the result as one JSON document on stdout (docs/cli.md: --json)';

/** Options naming what a command works on or how it reports: one value each. */
const SINGLE = new Set(['--file', '--manifest', '--out', '--dir', '--format', '--base']);

/**
 * `mcpgen validate servers/a/mcpgen.yaml`, as linters take files: a command that reads one manifest
 * and takes no arguments says to pass it with -f, rather than commander's count of arguments.
 */
function manifestNotPositional(command: CommandType): void {
  if (command.registeredArguments.length > 0 || !command.options.some((o) => o.long === '--file')) return;
  command.allowExcessArguments().hook('preAction', (_, action) => {
    const args = action.args;
    if (args.length === 0) return;
    const got = args.map((a) => JSON.stringify(a)).join(' ');
    throw new UsageError(
      args.length === 1 && /\.ya?ml$/i.test(args[0]!)
        ? `${command.name()} takes no arguments (got ${got}): pass the manifest with -f: mcpgen ${command.name()} -f ${args[0]}`
        : `${command.name()} takes no arguments (got ${got}): it works on one manifest, passed with -f <file> (default: mcpgen.yaml here or above)`,
    );
  });
}

/**
 * commander keeps the last of an option given twice: `validate -f a.yaml -f b.yaml` would check
 * b.yaml alone and pass with a.yaml broken. A second value of these is a usage error instead.
 */
function refuseRepeats(command: CommandType, words = ''): void {
  for (const option of command.options) {
    if (!option.long || !SINGLE.has(option.long) || option.negate) continue;
    const inner = option.parseArg;
    option.argParser((value: string, previous: unknown) => {
      if (previous !== undefined) {
        const name = [option.short, option.long].filter(Boolean).join('/');
        const what = option.long === '--file' || option.long === '--manifest' ? 'manifest' : 'value';
        throw new UsageError(
          `${name} given twice (${String(previous)}, then ${value}): mcpgen ${words}${command.name()} takes one; ${what === 'manifest' ? 'run it once per manifest' : 'give it once'}`,
        );
      }
      return inner ? inner(value, undefined) : value;
    });
  }
  for (const sub of command.commands) refuseRepeats(sub, `${words}${command.name()} `);
}

/** watch and dev run until stopped: they take --json only to refuse it with a reason. */
function noJson(Option: typeof import('commander').Option) {
  return new Option('--json').hideHelp();
}

async function refuseJson(command: string, o: { json?: boolean }): Promise<void> {
  if (!o.json) return;
  throw new UsageError(
    `${command} runs until stopped, so it has no --json result; for one, run mcpgen generate --json (again after each change)`,
  );
}

/** A command threw: a usage error is a message, anything else a bug (with its stack under --debug). */
function failed(err: unknown, debug: boolean, io: CliIO): number {
  if (err instanceof UsageError) {
    io.stderr(`mcpgen: ${err.message}\n`);
    if (io.outcome) io.outcome.error = failure('usage', err.message);
    return EXIT_USAGE;
  }
  const e = err as Error;
  const env = environmentError(err);
  if (env !== null) {
    // The machine refused something (permissions, a full disk, too many open files): not a bug.
    io.stderr(`mcpgen: ${env}\n`);
    if (debug) io.stderr(`${e?.stack ?? ''}\n`);
    if (io.outcome) io.outcome.error = failure('environment', env, [], debug ? e?.stack : undefined);
    return EXIT_USAGE;
  }
  if (io.outcome) io.outcome.error = failure('internal', e?.message ?? String(err), [], debug ? e?.stack : undefined);
  io.stderr(`mcpgen: internal error: ${e?.message ?? String(err)}\n`);
  io.stderr(
    debug
      ? `${e?.stack ?? ''}\n`
      : 'This is a bug in mcpgen. Run again with --debug to see the stack trace, and report it.\n',
  );
  return EXIT_USAGE;
}

/** Errors the operating system reports for the environment, by errno code: what they mean to a user. */
const ENVIRONMENT_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'is a folder',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EBUSY: 'resource busy',
  ETXTBSY: 'file busy',
};

/** `cannot <syscall> <path>: <what> (<code>)` for an error the environment caused, else null. */
export function environmentError(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException | null;
  const what = e && typeof e.code === 'string' ? ENVIRONMENT_ERRORS[e.code] : undefined;
  if (what === undefined) return null;
  const where = e!.path ? ` ${e!.path}` : '';
  return `cannot ${e!.syscall ?? 'access'}${where}: ${what} (${e!.code})`;
}

type ValidateFlags = { file?: string; format?: string; rule?: string[]; maxWarnings?: string };

/**
 * The options commander would pass to the validate action, when argv is `validate` followed only by
 * `-f`/`--file`, `--format` and `--max-warnings` (each at most once) and `--rule` (any number),
 * each with its value as the next argument or after `=` (long forms); undefined for anything else
 * (help, --debug, other commands, unknown or repeated options, a value that starts with `-`…),
 * which commander then parses as before.
 */
export function quickValidateOptions(argv: readonly string[]): ValidateFlags | undefined {
  if (argv[0] !== 'validate') return undefined;
  const o: ValidateFlags = {};
  const names: Record<string, 'file' | 'format' | 'rule' | 'maxWarnings'> = {
    '-f': 'file',
    '--file': 'file',
    '--format': 'format',
    '--rule': 'rule',
    '--max-warnings': 'maxWarnings',
  };
  for (let i = 1; i < argv.length; i++) {
    const { flag, value, next } = optionAt(argv, i);
    i = next;
    const key = Object.hasOwn(names, flag) ? names[flag] : undefined;
    if (key === undefined || !isPlainValue(value)) return undefined;
    if (key === 'rule') o.rule = [...(o.rule ?? []), value];
    else if (o[key] !== undefined) return undefined;
    else o[key] = value;
  }
  return o;
}

type GenerateFlags = {
  file?: string;
  out?: string;
  dryRun?: boolean;
  check?: boolean;
  headerVersion?: boolean;
  format?: Layout;
  quiet?: boolean;
};

/** How generated files are laid out: mcpgen's own layout, or the project's prettier. */
type Layout = 'mcpgen' | 'prettier';

/** `--format`, over the manifest's `options.format`. */
function formatOption(Option: typeof import('commander').Option) {
  return new Option(
    '--format <layout>',
    "lay generated files out as mcpgen does, or with the project's prettier (default: options.format)",
  ).choices(['mcpgen', 'prettier']);
}

/**
 * The options commander would pass to the generate action, when argv is `generate` followed only
 * by `-f`/`--file` and `-o`/`--out` (a value as the next argument, or after `=` in the long form)
 * and the switches `--dry-run`, `--check`, `--no-header-version` and `-q`/`--quiet`, each at most
 * once; undefined for anything else, which commander then parses as before. test/cli.test.ts
 * compares both on many command lines.
 */
export function quickGenerateOptions(argv: readonly string[]): GenerateFlags | undefined {
  if (argv[0] !== 'generate') return undefined;
  // commander's default for a `--no-…` option.
  const o: GenerateFlags = { headerVersion: true };
  const values: Record<string, 'file' | 'out'> = { '-f': 'file', '--file': 'file', '-o': 'out', '--out': 'out' };
  const switches: Record<string, ['dryRun' | 'check' | 'headerVersion' | 'quiet', boolean]> = {
    '--dry-run': ['dryRun', true],
    '--check': ['check', true],
    '--no-header-version': ['headerVersion', false],
    '-q': ['quiet', true],
    '--quiet': ['quiet', true],
  };
  const seen = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    if (Object.hasOwn(switches, argv[i]!)) {
      const [key, value] = switches[argv[i]!]!;
      if (seen.has(key)) return undefined;
      seen.add(key);
      o[key] = value;
      continue;
    }
    const { flag, value, next } = optionAt(argv, i);
    i = next;
    if (!Object.hasOwn(values, flag) || !isPlainValue(value)) return undefined;
    const key = values[flag]!;
    if (seen.has(key)) return undefined;
    seen.add(key);
    o[key] = value;
  }
  return o;
}

/** The option at argv[i] and its value: after `=` in a long form, else the next argument (then `next` is its index). */
function optionAt(argv: readonly string[], i: number): { flag: string; value: string | undefined; next: number } {
  const arg = argv[i]!;
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return eq >= 0
    ? { flag: arg.slice(0, eq), value: arg.slice(eq + 1), next: i }
    : { flag: arg, value: argv[i + 1], next: i + 1 };
}

/** A value the quick paths take as commander would: present, not empty, not an option. */
function isPlainValue(value: string | undefined): value is string {
  return value !== undefined && value !== '' && !value.startsWith('-');
}
