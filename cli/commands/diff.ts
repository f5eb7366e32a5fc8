/**
 * `mcpgen diff`: what `generate` would change in the generated code, as a unified diff, and the
 * starters of files of the user's it would create (a handler deleted); exit 1 when there is any
 * (the CI guard for a manifest edited without regenerating, or generated code edited by hand).
 */
import path from 'node:path';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { unifiedDiff } from '../plan/unified-diff.js';
import { generateLine, planChanges } from '../report/outcome.js';
import { outOfStep } from '../plan/missing-handlers.js';
import { missingStarters, planProject, provenUpToDate, recordStamped, settleInterrupted } from './generate.js';

export async function diffCommand(
  opts: { file?: string; out?: string; headerVersion?: boolean; format?: 'mcpgen' | 'prettier' },
  io: CliIO,
): Promise<number> {
  const settled = settleInterrupted(opts, io, false);
  if (settled !== undefined) return settled;
  const fast = provenUpToDate(opts, io);
  if (fast) {
    recordStamped(fast.stamp, io);
    if (io.outcome) io.outcome.extra.diff = '';
    io.stderr('✔ generated code is up to date\n');
    return EXIT_OK;
  }
  const { plan, exit } = await planProject({ ...opts, writes: false }, io);
  if (exit !== undefined || !plan) return exit ?? EXIT_PROBLEMS;
  io.outcome?.changes.push(...planChanges(plan.entries));
  let text = '';
  let changed = 0;
  const missing = missingStarters(plan);
  // Paths from the working folder, as generate lists them: run from a monorepo's root with -f,
  // `a/servers/b/src/generated/server.ts` says which project a file is in, and applies there.
  const from = path.relative(io.cwd, plan.root).split(path.sep).join('/');
  const shown = (p: string): string => (from ? `${from}/${p}` : p);
  const crlf: string[] = [];
  for (const e of plan.entries) {
    if ((e.owner !== 'generated' || e.action === 'unchanged') && !missing.includes(e)) continue;
    if (e.owner === 'generated') changed++;
    const before = e.action === 'create' ? '' : (e.previous ?? '');
    const after = e.action === 'remove' ? '' : (e.content ?? '');
    const hunks = unifiedDiff(
      e.action === 'create' ? '/dev/null' : `a/${shown(e.path)}`,
      e.action === 'remove' ? '/dev/null' : `b/${shown(e.path)}`,
      before,
      after,
    );
    text += hunks;
    io.stdout(hunks);
    if (e.action === 'update' && before.includes('\r\n') && before.replace(/\r\n/g, '\n') === after)
      crlf.push(shown(e.path));
  }
  if (crlf.length)
    io.stderr(
      `! ${crlf.length === 1 ? `${crlf[0]} differs` : `${crlf.length} generated files differ`} only in line endings (CRLF on disk, LF generated: git's core.autocrlf converts them on checkout): add \`src/generated/** eol=lf\` and \`test/generated/** eol=lf\` to the project's .gitattributes, then run mcpgen generate\n`,
    );
  if (io.outcome) io.outcome.extra.diff = text;
  if (changed || missing.length) {
    io.outcome?.next.push({
      message:
        'generated files differ from the manifest, or files of yours the generated code needs are missing: regenerate',
      command: generateLine(opts),
      cwd: '.',
    });
    io.stderr(
      `✖ ${outOfStep(changed, missing.length, 'differs from the manifest', 'differ from the manifest')}; run mcpgen generate\n`,
    );
    return EXIT_PROBLEMS;
  }
  io.stderr('✔ generated code is up to date\n');
  return EXIT_OK;
}
