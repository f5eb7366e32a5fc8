/**
 * `mcpgen add`: every subcommand's --help has examples and the documentation line.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, scratch } from './helpers/project.js';

async function cli(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

describe('mcpgen add <kind>', () => {
  it.each(['view'])('add %s --help shows examples and the docs', async (kind) => {
    const r = await cli(scratch('add-entry-help'), 'add', kind, '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Examples:\n  $ mcpgen add ${kind} `);
    expect(r.out).toMatch(/Documentation: \S+docs[/\\]cli\.md/);
  });
});
