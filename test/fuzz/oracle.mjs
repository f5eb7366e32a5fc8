/**
 * The oracle: what must hold for every manifest, however broken.
 *
 *   - every command exits 0, 1 or 2, by itself (no signal, no timeout); 2 only for usage, and the
 *     commands run here have none;
 *   - no stack trace (`    at …` lines) and no "internal error" in the output;
 *   - validate and generate agree: validate exits 1 ⇔ generate exits 1 (a conflict with files on
 *     disk, MCPG910, is generate's alone);
 *   - a generate that fails leaves its output folder byte-identical: nothing created in an empty
 *     one, nothing changed in a project generated from the seed before;
 *   - after a generate that succeeded, `generate --check` says the project is up to date;
 *   - on a sample of successes, the generated project type-checks with the repository's TypeScript;
 *   - a generate over an existing project never changes its user-owned files or the manifest;
 *     with a staging folder planted in it (plant.mjs, on a sample), generate refuses the journal
 *     (MCPG916, or MCPG911 for a staging "folder" that is not one) and changes nothing, in the
 *     project or in the folder outside it that the planted symlinks lead to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runBin, runProcess } from './exec.mjs';
import { isSeedInput } from './mutant.mjs';
import { attackOf, listUserFiles, plant, unplant } from './plant.mjs';
import { changes, snapshot } from './tree.mjs';

/**
 * @typedef {import('./exec.mjs').Run} Run
 * @typedef {import('./mutant.mjs').Mutant} Mutant
 * @typedef {import('./plant.mjs').Attack} Attack
 * @typedef {'crash' | 'timeout' | 'bad-exit' | 'disagreement' | 'wrote-on-error' | 'escaped' | 'not-up-to-date' | 'non-compiling'} Kind
 * @typedef {{ kind: Kind, signature: string, message: string, command: string }} Problem
 * @typedef {{
 *   runner: { run(argv: string[], o: { cwd: string, timeoutMs: number }): Promise<Run> },
 *   useBin: boolean, env: NodeJS.ProcessEnv, timeoutMs: number, tscTimeoutMs: number,
 *   baseline: string | null, typecheck: boolean, tscDir?: string, plantEvery?: number,
 * }} OracleOptions
 * @typedef {{ problems: Problem[], validate?: Run, fresh?: Run, planted?: Run, attack?: Attack, pre?: Run, check?: Run, tsc?: Run, generated: boolean }} Verdict
 */

export const TSC = path.join(REPO, 'node_modules/.bin/tsc');
const STACK_LINE = /^ {4}at \S/m;
const INTERNAL = /internal error/i;

/** Writes the mutant's manifest, the seed's other input files and the files its mutations add, into `dir`. */
export function writeMutant(mutant, dir, { withSeedFiles = true } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  if (withSeedFiles)
    fs.cpSync(mutant.seed.dir, dir, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => isSeedInput(mutant.seed.dir, src),
    });
  fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), mutant.bytes);
  for (const f of mutant.files) {
    const abs = path.join(dir, f.path);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.rmSync(abs, { force: true, recursive: true });
    if (f.symlink) fs.symlinkSync(f.symlink, abs);
    else if (f.size !== undefined) fs.writeFileSync(abs, Buffer.alloc(f.size, 0x61));
    else fs.writeFileSync(abs, f.content ?? '');
  }
}

/** Digits, quoted names and paths out: the same bug on another mutant gets the same signature. */
export function normalize(s) {
  return s
    .replace(/`[^`]*`/g, '`…`')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\/[\w./+-]*\/(fuzz|tmp)\/[\w./+-]*/g, '<path>')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

const errorCodes = (/** @type {Run} */ r) =>
  [...new Set([...`${r.stderr}\n${r.stdout}`.matchAll(/: error (MCPG\d+)/g)].map((m) => m[1]))].sort();

/** The process-level promises: exit code, no signal/timeout, no stack trace or internal error. */
function runProblems(/** @type {Run} */ r, /** @type {string} */ command) {
  /** @type {Problem[]} */
  const out = [];
  const text = `${r.stderr}\n${r.stdout}`;
  if (r.timedOut)
    out.push({
      kind: 'timeout',
      command,
      signature: `${command.split(' ')[0]} timed out`,
      message: `no exit within the timeout (${r.ms.toFixed(0)} ms, ${r.how})`,
    });
  else if (r.signal)
    out.push({
      kind: 'crash',
      command,
      signature: `killed by ${r.signal}`,
      message: excerpt(r.stderr) || `killed by ${r.signal}`,
    });
  else if (r.code === null || ![0, 1, 2].includes(r.code))
    out.push({
      kind: 'crash',
      command,
      signature: `exit ${r.code}: ${normalize(firstErrorLine(text))}`,
      message: excerpt(text),
    });
  if (INTERNAL.test(text) || STACK_LINE.test(text)) {
    const line = /internal error:? ?(.*)/i.exec(text)?.[1] ?? lineBeforeStack(text);
    out.push({ kind: 'crash', command, signature: `internal error: ${normalize(line)}`, message: excerpt(text) });
  } else if (r.code === 2) {
    out.push({
      kind: 'bad-exit',
      command,
      signature: `exit 2 on a plain command: ${normalize(firstErrorLine(text))}`,
      message: excerpt(text),
    });
  }
  return out;
}

function firstErrorLine(text) {
  return (
    text.split('\n').find((l) => /error|fatal|abort|mcpgen:/i.test(l)) ?? text.split('\n').find((l) => l.trim()) ?? ''
  );
}

function lineBeforeStack(text) {
  const ls = text.split('\n');
  const i = ls.findIndex((l) => STACK_LINE.test(l));
  return i > 0 ? /** @type {string} */ (ls[i - 1]) : '';
}

export function excerpt(text, max = 1500) {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length} chars)` : text;
}

/** A generate whose only errors are conflicts with files on disk: validate cannot know of those. */
function onlyDiskConflicts(/** @type {Run} */ r) {
  const codes = errorCodes(r);
  return codes.length > 0 && codes.every((c) => c === 'MCPG910');
}

/** @param {Run} v @param {Run} g @param {string} command @param {boolean} pre */
function agreement(v, g, command, pre) {
  if (
    ![0, 1].includes(/** @type {number} */ (v.code)) ||
    ![0, 1].includes(/** @type {number} */ (g.code)) ||
    v.code === g.code
  )
    return [];
  if (pre && g.code === 1 && onlyDiskConflicts(g)) return [];
  const failing = v.code === 1 ? v : g;
  const codes = errorCodes(failing);
  const said = v.code === 1 ? 'validate fails, generate succeeds' : 'validate passes, generate fails';
  const detail = codes.length ? codes.join(' ') : normalize(firstErrorLine(failing.stderr));
  return [
    {
      kind: /** @type {Kind} */ ('disagreement'),
      command,
      signature: `${said}: ${detail}`,
      message: `validate exit ${v.code}:\n${excerpt(v.stderr, 800)}\n${command} exit ${g.code}:\n${excerpt(g.stderr, 800)}`,
    },
  ];
}

/** @param {Run} g @param {Map<string,string>} before @param {Map<string,string>} after @param {string} command @param {string} where */
function unchanged(g, before, after, command, where, always = false) {
  if (g.code === 0 && !always) return [];
  const diff = changes(before, after);
  if (!diff.length) return [];
  const what = [...new Set(diff.map((d) => `${d[0]} ${d.slice(2).split('/').slice(0, 2).join('/')}`))]
    .slice(0, 6)
    .join(', ');
  const exit = g.timedOut ? 'timed out' : g.signal ? `killed by ${g.signal}` : `exit ${g.code}`;
  return [
    {
      kind: /** @type {Kind} */ ('wrote-on-error'),
      command,
      signature: `${where}: ${exit} yet changed ${normalize(what)}`,
      message: `${diff.slice(0, 20).join('\n')}${diff.length > 20 ? `\n… ${diff.length} changes` : ''}\n${excerpt(g.stderr, 600)}`,
    },
  ];
}

/**
 * Generate over the project with a staging folder planted in it: refused, nothing changed inside
 * or outside. Then what was planted is taken out again, for the run over the project as it was.
 * @param {Attack} attack @param {string} dir @param {string} outside
 * @param {(argv: string[], cwd: string) => Promise<Run>} run @param {Verdict} verdict
 */
async function plantedRun(attack, dir, outside, run, verdict) {
  const P = verdict.problems;
  const command = 'generate (planted staging folder)';
  verdict.attack = plant(attack, dir, outside);
  const before = snapshot(dir);
  const outsideBefore = snapshot(outside);
  const r = (verdict.planted = await run(['generate', '-q'], dir));
  P.push(...runProblems(r, command));
  const codes = errorCodes(r);
  const what = verdict.attack.steps.join('; ');
  if (!r.timedOut && !r.signal && (r.code !== 1 || !codes.some((c) => c === 'MCPG916' || c === 'MCPG911')))
    P.push({
      kind: 'escaped',
      command,
      signature: `a planted staging folder was not refused: exit ${r.code}${codes.length ? ` ${codes.join(' ')}` : ''}`,
      message: `${what}\n${excerpt(r.stderr, 800)}`,
    });
  const inside = changes(before, snapshot(dir));
  if (inside.length)
    P.push({
      kind: 'escaped',
      command,
      signature: `a planted staging folder changed the project: ${normalize(inside.slice(0, 3).join(', '))}`,
      message: `${what}\n${inside.slice(0, 20).join('\n')}`,
    });
  const out = changes(outsideBefore, snapshot(outside));
  if (out.length)
    P.push({
      kind: 'escaped',
      command,
      signature: `a planted staging folder changed files outside the project: ${normalize(out.slice(0, 3).join(', '))}`,
      message: `${what}\n${out.slice(0, 20).join('\n')}`,
    });
  unplant(attack, dir);
}

/**
 * Runs the mutant through validate, generate into an empty folder, generate over the seed's
 * generated project (when the seed has one; on a sample, first with a staging folder planted in
 * it), --check after a success, and tsc on request.
 * @param {Mutant} mutant @param {string} work a folder of its own (best on a tmpfs: each mutant writes and removes hundreds of files)
 * @param {OracleOptions} o @returns {Promise<Verdict>}
 */
export async function checkMutant(mutant, work, o) {
  fs.rmSync(work, { recursive: true, force: true });
  const inDir = path.join(work, 'm');
  writeMutant(mutant, inDir);
  const run = (argv, cwd) =>
    o.useBin
      ? runBin(argv, { cwd, env: o.env, timeoutMs: o.timeoutMs })
      : o.runner.run(argv, { cwd, timeoutMs: o.timeoutMs });
  /** @type {Verdict} */
  const verdict = { problems: [], generated: false };
  const P = verdict.problems;

  const initial = snapshot(work);
  const v = (verdict.validate = await run(['validate'], inDir));
  P.push(...runProblems(v, 'validate'));
  // validate writes nothing, whatever its verdict.
  const before = snapshot(work);
  P.push(...unchanged(v, initial, before, 'validate', 'manifest folder', true));
  const f = (verdict.fresh = await run(['generate', '-q', '-o', '../fresh'], inDir));
  P.push(...runProblems(f, 'generate -o ../fresh'));
  P.push(...agreement(v, f, 'generate -o ../fresh', false));
  P.push(...unchanged(f, before, snapshot(work), 'generate -o ../fresh', 'empty folder'));
  verdict.generated = f.code === 0 && !f.timedOut;

  if (o.baseline) {
    const preDir = path.join(work, 'pre');
    fs.cpSync(o.baseline, preDir, { recursive: true, verbatimSymlinks: true });
    writeMutant(mutant, preDir, { withSeedFiles: false });
    const attack = attackOf(mutant.number, o.plantEvery ?? 0);
    if (attack) await plantedRun(attack, preDir, path.join(work, 'outside'), run, verdict);
    const preBefore = snapshot(preDir);
    const userFiles = listUserFiles(preDir);
    const p = (verdict.pre = await run(['generate', '-q'], preDir));
    P.push(...runProblems(p, "generate (over the seed's project)"));
    P.push(...agreement(v, p, "generate (over the seed's project)", true));
    const preAfter = snapshot(preDir);
    P.push(...unchanged(p, preBefore, preAfter, "generate (over the seed's project)", 'generated project'));
    const touched = userFiles.filter((f) => preAfter.get(f) !== preBefore.get(f));
    if (touched.length)
      P.push({
        kind: 'escaped',
        command: "generate (over the seed's project)",
        signature: `changed a user-owned file: ${normalize(touched.slice(0, 3).join(', '))}`,
        message: `${touched.join('\n')}\n${excerpt(p.stderr, 600)}`,
      });
    if (p.code === 0 && !p.timedOut) {
      const c = (verdict.check = await run(['generate', '--check'], preDir));
      P.push(...runProblems(c, 'generate --check'));
      if (c.code === 1)
        P.push({
          kind: 'not-up-to-date',
          command: 'generate --check',
          signature: `--check after generate: ${normalize(
            c.stdout
              .split('\n')
              .filter((l) => !l.startsWith('✔'))
              .map((l) => l.replace(/\S*\//g, ''))
              .slice(0, 3)
              .join(', '),
          )}`,
          message: excerpt(`${c.stdout}\n${c.stderr}`),
        });
    }
  }

  if (o.typecheck && verdict.generated) {
    // Type-checked inside the repository, where @modelcontextprotocol/* and @types/node resolve
    // from its node_modules as they do for test/helpers/project.ts's scratch projects.
    const project = path.join(o.tscDir ?? path.join(REPO, '.tmp/fuzz-tsc'), mutant.id);
    fs.rmSync(project, { recursive: true, force: true });
    fs.cpSync(path.join(work, 'fresh'), project, { recursive: true, verbatimSymlinks: true });
    const t = (verdict.tsc = await runProcess(TSC, ['-p', project, '--noEmit', '--pretty', 'false'], {
      cwd: project,
      env: o.env,
      timeoutMs: o.tscTimeoutMs,
    }));
    fs.rmSync(project, { recursive: true, force: true });
    if (t.timedOut)
      P.push({
        kind: 'timeout',
        command: 'tsc --noEmit',
        signature: 'tsc timed out',
        message: `tsc ran past ${o.tscTimeoutMs} ms`,
      });
    else if (t.code !== 0) {
      const codes = [...new Set([...t.stdout.matchAll(/error (TS\d+)/g)].map((m) => m[1]))].sort();
      P.push({
        kind: 'non-compiling',
        command: 'tsc --noEmit',
        signature: `tsc: ${codes.join(' ') || normalize(firstErrorLine(t.stdout + t.stderr))}`,
        message: excerpt(
          t.stdout
            .split('\n')
            .filter((l) => l.includes('error'))
            .slice(0, 15)
            .join('\n'),
        ),
      });
    }
  }
  return verdict;
}
