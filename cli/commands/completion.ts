/**
 * `mcpgen completion <bash|zsh|fish>`: a script that completes mcpgen's commands and their options
 * in that shell, printed from the command line's own definition (so it never lists a command or
 * option that does not exist). Values that are paths complete as files.
 */
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, type CliIO } from '../io.js';

/** A command as the completion sees it: its name, what it does, its option flags. */
export interface CompletionCommand {
  name: string;
  description: string;
  options: { flags: string[]; description: string; takesFile: boolean; choices?: readonly string[] }[];
  /** `add tool`, `add view`…: completed as the word after the command, then their own options. */
  subcommands?: CompletionCommand[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionCommand(shell: string | undefined, commands: CompletionCommand[], io: CliIO): number {
  if (shell === undefined || !(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(`completion needs a shell: ${SHELLS.join(', ')} (e.g. mcpgen completion bash >> ~/.bashrc)`);
  io.stdout(shell === 'fish' ? fish(commands) : bash(commands, shell === 'zsh'));
  return EXIT_OK;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The body of a bash `case` arm completing one command's options (and the values they take). */
function bashOptions(c: CompletionCommand, pad: string): string[] {
  const files = c.options.filter((o) => o.takesFile).flatMap((o) => o.flags);
  const choices = c.options
    .filter((o) => o.choices)
    .map(
      (o) =>
        `${pad}  ${o.flags.join('|')}) COMPREPLY=($(compgen -W ${quote(o.choices!.join(' '))} -- "$cur")); return ;;`,
    );
  return [
    `${pad}case "$prev" in`,
    ...(files.length ? [`${pad}  ${files.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`] : []),
    ...choices,
    `${pad}esac`,
    `${pad}COMPREPLY=($(compgen -W ${quote(c.options.flatMap((o) => o.flags).join(' '))} -- "$cur"))`,
  ];
}

/** bash, and zsh through its bash completion layer (bashcompinit). */
function bash(commands: CompletionCommand[], zsh: boolean): string {
  const cases = commands.map((c) => {
    const subs = c.subcommands ?? [];
    const body = subs.length
      ? [
          '      if [ "$COMP_CWORD" -eq 2 ]; then',
          `        COMPREPLY=($(compgen -W ${quote(subs.map((s) => s.name).join(' '))} -- "$cur"))`,
          '        return',
          '      fi',
          '      case "${COMP_WORDS[2]}" in',
          ...subs.flatMap((s) => [`        ${s.name})`, ...bashOptions(s, '          '), '          ;;']),
          '      esac',
        ]
      : bashOptions(c, '      ');
    return [`    ${c.name})`, ...body, '      ;;'].join('\n');
  });
  return [
    '# mcpgen completion (mcpgen completion bash|zsh)',
    ...(zsh ? ['#compdef mcpgen', 'autoload -U +X bashcompinit && bashcompinit'] : []),
    '_mcpgen() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="${COMP_WORDS[1]}"',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W ${quote(['--help', '--version', ...commands.map((c) => c.name)].join(' '))} -- "$cur"))`,
    '    return',
    '  fi',
    '  case "$command" in',
    ...cases,
    '  esac',
    '}',
    'complete -o default -F _mcpgen mcpgen',
    '',
  ].join('\n');
}

function fish(commands: CompletionCommand[]): string {
  const lines = ['# mcpgen completion (mcpgen completion fish)', 'complete -c mcpgen -f'];
  for (const c of commands)
    lines.push(`complete -c mcpgen -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`);
  const options = (c: CompletionCommand, condition: string) => {
    for (const o of c.options) {
      const long = o.flags.find((f) => f.startsWith('--'))?.slice(2);
      const short = o.flags.find((f) => /^-[^-]$/.test(f))?.slice(1);
      const args = [
        `-n ${quote(condition)}`,
        ...(long ? [`-l ${long}`] : []),
        ...(short ? [`-s ${short}`] : []),
        ...(o.takesFile ? ['-r -F'] : []),
        ...(o.choices ? [`-r -f -a ${quote(o.choices.join(' '))}`] : []),
        `-d ${quote(o.description)}`,
      ];
      lines.push(`complete -c mcpgen ${args.join(' ')}`);
    }
  };
  for (const c of commands) {
    const subs = c.subcommands ?? [];
    if (!subs.length) {
      options(c, `__fish_seen_subcommand_from ${c.name}`);
      continue;
    }
    const names = subs.map((s) => s.name).join(' ');
    for (const s of subs)
      lines.push(
        `complete -c mcpgen -n ${quote(`__fish_seen_subcommand_from ${c.name}; and not __fish_seen_subcommand_from ${names}`)} -a ${s.name} -d ${quote(s.description)}`,
      );
    for (const s of subs)
      options(s, `__fish_seen_subcommand_from ${c.name}; and __fish_seen_subcommand_from ${s.name}`);
  }
  return `${lines.join('\n')}\n`;
}
