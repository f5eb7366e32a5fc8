/**
 * `--help` shows examples and where each command is documented; `mcpgen completion <shell>` prints
 * a script that real bash completes with (commands, options, option values, files).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO } from './helpers/project.js';

async function cli(...args: string[]) {
  const io = memoryIO(REPO);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

const COMMANDS = [
  'init',
  'validate',
  'generate',
  'diff',
  'watch',
  'dev',
  'pack',
  'rename',
  'import',
  'schema',
  'mcp',
  'completion',
];

describe('--help', () => {
  it.each(COMMANDS)('%s shows examples and documentation that exists', async (command) => {
    const r = await cli(command, '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Examples:\n  $ ');
    const docs = /Documentation: (\S+)/.exec(r.out)?.[1];
    expect(docs && existsSync(docs)).toBe(true);
  });
});

/** What bash completes `words` to (the last word being the one completed). */
function bashCompletes(script: string, words: string[], cwd = REPO): string[] {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcpgen-completion-')), 'mcpgen.bash');
  writeFileSync(file, script);
  const program = `source ${JSON.stringify(file)}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _mcpgen; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { cwd, encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('completion', () => {
  it('bash completes commands, options, option values and files', async () => {
    const { out: script, code } = await cli('completion', 'bash');
    expect(code).toBe(0);
    expect(bashCompletes(script, ['mcpgen', ''])).toEqual(expect.arrayContaining(COMMANDS));
    expect(bashCompletes(script, ['mcpgen', 're'])).toEqual(['rename']);
    expect(bashCompletes(script, ['mcpgen', 'generate', '--c'])).toEqual(['--check']);
    expect(bashCompletes(script, ['mcpgen', 'validate', '--format', ''])).toEqual([
      'stylish',
      'json',
      'github',
      'sarif',
    ]);
    expect(bashCompletes(script, ['mcpgen', 'generate', '-f', 'examples/weather/mcpgen.y'])).toEqual([
      'examples/weather/mcpgen.yaml',
    ]);
    // A command with kinds: the kinds, then each one's own options.
    expect(bashCompletes(script, ['mcpgen', 'add', ''])).toEqual(['tool', 'resource', 'template', 'prompt', 'view']);
    expect(bashCompletes(script, ['mcpgen', 'add', 'tool', '--re'])).toEqual(['--read-only']);
    expect(bashCompletes(script, ['mcpgen', 'add', 'resource', '--u'])).toEqual(['--uri']);
    expect(bashCompletes(script, ['mcpgen', 'add', 'view', '-f', 'examples/weather/mcpgen.y'])).toEqual([
      'examples/weather/mcpgen.yaml',
    ]);
  });

  it('zsh and fish scripts are accepted by their shells, where installed', async () => {
    for (const [shell, args] of [
      ['zsh', ['-n']],
      ['fish', ['--no-execute']],
    ] as const) {
      const { out: script } = await cli('completion', shell);
      expect(script).toContain('mcpgen');
      if (spawnSync(shell, ['--version']).status !== 0) continue;
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcpgen-completion-')), `mcpgen.${shell}`);
      writeFileSync(file, script);
      expect(spawnSync(shell, [...args, file], { encoding: 'utf8' }).status).toBe(0);
    }
  });

  it('refuses a shell it does not know, naming the ones it does (exit 2)', async () => {
    const r = await cli('completion', 'powershell');
    expect(r.code).toBe(2);
    expect(r.err).toContain('completion needs a shell: bash, zsh, fish');
  });
});
