/**
 * The fuzz run: mutants seed … seed+count-1 through the oracle on `jobs` lanes, findings saved
 * under .tmp/fuzz-findings/<id>/ (the mutant's input folder, finding.json) and summarised by kind
 * and signature. Used by scripts/fuzz.mjs (the long run) and test/manifest-fuzz.test.ts (CI).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InProcessRunner, REPO, fuzzEnv, runBin } from './exec.mjs';
import { loadSeeds, makeMutant } from './mutant.mjs';
import { checkMutant, writeMutant } from './oracle.mjs';

/**
 * @typedef {import('./mutant.mjs').Mutant} Mutant
 * @typedef {import('./mutant.mjs').Seed} Seed
 * @typedef {import('./oracle.mjs').Problem} Problem
 * @typedef {Problem & { id: string, number: number | null, seed: string, chain: string[], saved: string }} Finding
 * @typedef {{
 *   count?: number, seed?: number, numbers?: number[], jobs?: number, typecheckEvery?: number, typecheckMax?: number,
 *   binEvery?: number, timeoutMs?: number, tscTimeoutMs?: number, findingsDir?: string, workDir?: string,
 *   log?: (line: string) => void, replay?: string[], minutes?: number, plantEvery?: number,
 * }} FuzzOptions
 * @typedef {{ mutants: number, generated: number, typechecked: number, bin: number, planted: number, validateExits: Record<string, number>, ms: number, steps: Record<string, number>, chains: string[], unmade: number }} Stats
 */

export const FINDINGS_DIR = path.join(REPO, '.tmp/fuzz-findings');

/**
 * Where mutants are written and generated: a tmpfs when there is one. Every mutant creates and
 * removes a project or two; on a disk mounted with `discard` that was most of a run's time.
 */
function defaultWorkDir() {
  const shm = '/dev/shm';
  let base = os.tmpdir();
  try {
    fs.accessSync(shm, fs.constants.W_OK);
    base = shm;
  } catch {
    /* no tmpfs: the system's temp folder */
  }
  return fs.mkdtempSync(path.join(base, 'mcpgen-fuzz-'));
}

/** Every N-th mutant by a hash of its number: the same mutants each time, spread over all seeds. */
const sampled = (/** @type {number} */ n, /** @type {number} */ every) =>
  every > 0 && (Math.imul(n, 2654435761) >>> 0) % every === 0;

/**
 * Mutations that change what reaches the generated code (names, defaults, strings, schema shapes)
 * are type-checked four times as often as the rest (styles, comments), which change only the YAML.
 */
const REACHES_CODE =
  /data:(renameKey|duplicateEntry|invalidDefault|trickyString|deepNesting|hugeValue|refEdit|promptPlaceholder|uriTemplateEdit|typeConfusion|graftSubtree|swapSubtrees|unknownKey)/;
function typecheckSampled(/** @type {Mutant} */ m, /** @type {number} */ every) {
  if (every <= 0) return false;
  return sampled(m.number, REACHES_CODE.test(m.chain.join('\n')) ? Math.max(1, Math.floor(every / 4)) : every);
}

/** @param {FuzzOptions} opts */
export async function runFuzz(opts = {}) {
  const started = performance.now();
  const log = opts.log ?? ((l) => process.stderr.write(`${l}\n`));
  const jobs = Math.max(1, Math.min(opts.jobs ?? 2, 4));
  const findingsDir = opts.findingsDir ?? FINDINGS_DIR;
  const ownWorkDir = opts.workDir === undefined;
  const workDir = opts.workDir ?? defaultWorkDir();
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const tscTimeoutMs = opts.tscTimeoutMs ?? 120_000;
  const typecheckEvery = opts.typecheckEvery ?? 10;
  const typecheckMax = opts.typecheckMax ?? Infinity;
  const binEvery = opts.binEvery ?? 10;
  // A staging folder planted in the existing project (plant.mjs): one more generate, which stops
  // at the journal, for one mutant in this many.
  const plantEvery = opts.plantEvery ?? 5;
  const stale = staleBuild();
  if (stale) throw new Error(stale);

  const seeds = loadSeeds(REPO);
  const env = fuzzEnv();
  fs.mkdirSync(path.join(workDir, 'cache'), { recursive: true });

  /** The work: mutant numbers, or saved findings to replay. */
  /** @type {(() => Mutant)[]} */
  const queue = opts.replay
    ? opts.replay.map((id) => () => loadSaved(findingsDir, id, seeds))
    : (opts.numbers ?? Array.from({ length: opts.count ?? 100 }, (_, i) => (opts.seed ?? 1) + i)).map(
        (n) => () => makeMutant(n, seeds),
      );
  const total = queue.length;
  // --minutes: no new mutant after the deadline (the ones running finish).
  const deadline = opts.minutes ? started + opts.minutes * 60_000 : Infinity;

  /** Each valid seed generated once, as the "existing project" mutants are generated over. */
  /** @type {Map<string, Promise<string | null>>} */
  const baselines = new Map();
  const baselineOf = (/** @type {Seed} */ mutantSeed) => {
    // A replayed finding's seed is its saved folder; the baseline is the original seed's.
    const seed = seeds.find((s) => s.name === mutantSeed.name) ?? mutantSeed;
    if (!seed.valid) return Promise.resolve(null);
    let p = baselines.get(seed.name);
    if (!p) {
      p = (async () => {
        const dir = path.join(workDir, 'baselines', seed.name.replace(/[^\w-]+/g, '_'));
        fs.rmSync(dir, { recursive: true, force: true });
        writeMutant(
          { id: 'baseline', number: 0, seed, bytes: Buffer.from(seed.text, 'utf8'), chain: [], files: [] },
          dir,
        );
        const r = await runBin(['generate', '-q'], { cwd: dir, env, timeoutMs: 120_000 });
        if (r.code !== 0) {
          log(
            `! baseline ${seed.name} did not generate (exit ${r.code}); its mutants are only generated into empty folders\n${r.stderr.slice(0, 500)}`,
          );
          return null;
        }
        return dir;
      })();
      baselines.set(seed.name, p);
    }
    return p;
  };

  /** @type {Finding[]} */
  const findings = [];
  /** @type {Stats} */
  const stats = {
    mutants: 0,
    generated: 0,
    typechecked: 0,
    bin: 0,
    planted: 0,
    validateExits: {},
    ms: 0,
    steps: {},
    chains: [],
    unmade: 0,
  };
  let next = 0;
  let lastReport = performance.now();

  const lane = async (/** @type {number} */ laneNo) => {
    const runner = new InProcessRunner({ env });
    try {
      while (next < queue.length && performance.now() < deadline) {
        const make = /** @type {() => Mutant} */ (queue[next++]);
        /** @type {Mutant} */
        let mutant;
        try {
          mutant = make();
        } catch (err) {
          // The fuzzer's own bug, not mcpgen's: counted (CI fails on it), the run goes on.
          stats.unmade++;
          log(`! fuzzer: a mutant could not be made: ${/** @type {Error} */ (err)?.stack ?? err}`);
          continue;
        }
        const useBin = opts.replay ? true : sampled(mutant.number + 1, binEvery);
        const typecheck =
          (opts.replay !== undefined || typecheckSampled(mutant, typecheckEvery)) && stats.typechecked < typecheckMax;
        const work = path.join(workDir, `lane${laneNo}`, mutant.id);
        const verdict = await checkMutant(mutant, work, {
          runner,
          useBin,
          env,
          timeoutMs,
          tscTimeoutMs,
          typecheck,
          plantEvery,
          baseline: await baselineOf(mutant.seed),
          tscDir: path.join(REPO, '.tmp/fuzz-tsc', `lane${laneNo}`),
        });
        stats.mutants++;
        stats.chains.push(mutant.chain.join('\n'));
        if (useBin) stats.bin++;
        if (verdict.generated) stats.generated++;
        if (verdict.tsc) stats.typechecked++;
        if (verdict.planted) stats.planted++;
        for (const step of /** @type {const} */ (['validate', 'fresh', 'planted', 'pre', 'check', 'tsc'])) {
          const r = verdict[step];
          if (r) stats.steps[step] = (stats.steps[step] ?? 0) + r.ms;
        }
        const vx = String(verdict.validate?.timedOut ? 'timeout' : verdict.validate?.code);
        stats.validateExits[vx] = (stats.validateExits[vx] ?? 0) + 1;
        if (verdict.problems.length) {
          const saved = save(findingsDir, mutant, work, verdict);
          for (const p of verdict.problems) {
            const f = {
              ...p,
              id: mutant.id,
              number: opts.replay ? null : mutant.number,
              seed: mutant.seed.name,
              chain: mutant.chain,
              saved,
            };
            findings.push(f);
            log(
              `✖ ${f.kind} [${f.id}] ${f.signature}\n    ${f.command} on ${f.seed}: ${f.chain.join(' | ').slice(0, 400)}\n    saved ${path.relative(process.cwd(), saved)}; replay: npm run fuzz -- --replay ${f.id}${f.number !== null ? ` (or --seed ${f.number} --count 1)` : ''}`,
            );
          }
        }
        fs.rmSync(work, { recursive: true, force: true });
        if (performance.now() - lastReport > 30_000) {
          lastReport = performance.now();
          log(
            `… ${stats.mutants}/${total} mutants, ${findings.length} findings, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        }
      }
    } finally {
      runner.stop();
    }
  };
  try {
    await Promise.all(Array.from({ length: jobs }, (_, i) => lane(i)));
  } finally {
    if (ownWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
  }
  stats.ms = performance.now() - started;
  return { findings, stats };
}

/** Why dist/ does not reflect the sources (the fuzzer runs the built CLI), or null. */
export function staleBuild() {
  const built = path.join(REPO, 'dist/main.js');
  if (!fs.existsSync(built)) return 'dist/main.js is missing: run `npm run build` first';
  const builtAt = fs.statSync(built).mtimeMs;
  /** @type {string | null} */
  let newer = null;
  const walk = (/** @type {string} */ dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (!newer && fs.statSync(abs).mtimeMs > builtAt) newer = abs;
    }
  };
  for (const d of ['cli', 'templates', 'schemas']) walk(path.join(REPO, d));
  return newer
    ? `${path.relative(REPO, newer)} is newer than dist/: run \`npm run build\` first (the fuzzer runs the built CLI)`
    : null;
}

/** The mutant's input folder and what went wrong, for --replay and for whoever fixes it. */
function save(findingsDir, /** @type {Mutant} */ mutant, work, verdict) {
  const dir = path.join(findingsDir, mutant.id);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // Large files the mutation made are re-made on replay, not saved.
  const big = new Set(mutant.files.filter((f) => f.size !== undefined).map((f) => path.join(work, 'm', f.path)));
  fs.cpSync(path.join(work, 'm'), path.join(dir, 'input'), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !big.has(src),
  });
  fs.copyFileSync(path.join(work, 'm', 'mcpgen.yaml'), path.join(dir, 'mcpgen.yaml'));
  const brief = (/** @type {any} */ r) =>
    r && {
      code: r.code,
      signal: r.signal,
      timedOut: r.timedOut,
      how: r.how,
      ms: Math.round(r.ms),
      stdout: r.stdout.slice(0, 4000),
      stderr: r.stderr.slice(0, 4000),
    };
  const record = {
    id: mutant.id,
    number: mutant.number,
    seed: mutant.seed.name,
    chain: mutant.chain,
    files: mutant.files.map((f) => ({
      path: f.path,
      ...(f.size !== undefined ? { size: f.size } : {}),
      ...(f.symlink ? { symlink: f.symlink } : {}),
    })),
    problems: verdict.problems,
    ...(verdict.attack ? { planted: verdict.attack.steps } : {}),
    runs: {
      validate: brief(verdict.validate),
      fresh: brief(verdict.fresh),
      planted: brief(verdict.planted),
      pre: brief(verdict.pre),
      check: brief(verdict.check),
      tsc: brief(verdict.tsc),
    },
  };
  fs.writeFileSync(path.join(dir, 'finding.json'), `${JSON.stringify(record, null, 2)}\n`);
  return path.join(dir, 'mcpgen.yaml');
}

/** A saved finding as a mutant: its input folder stands in for the seed's. */
function loadSaved(findingsDir, id, /** @type {Seed[]} */ seeds) {
  const dir = path.join(findingsDir, id);
  const record = JSON.parse(fs.readFileSync(path.join(dir, 'finding.json'), 'utf8'));
  const original = seeds.find((s) => s.name === record.seed);
  const inputDir = path.join(dir, 'input');
  /** @type {Mutant} */
  const mutant = {
    id: `${id}`,
    number: record.number,
    // The saved input folder is the seed now; the original's baseline (valid seeds) is kept.
    seed: { name: record.seed, dir: inputDir, valid: original?.valid ?? false, text: original?.text ?? '' },
    bytes: fs.readFileSync(path.join(inputDir, 'mcpgen.yaml')),
    chain: record.chain,
    // The mutation's own files go into the generated project too (the input folder has them).
    files: record.files.map((/** @type {any} */ f) =>
      f.size !== undefined || f.symlink
        ? f
        : {
            path: f.path,
            content: fs.existsSync(path.join(inputDir, f.path)) ? fs.readFileSync(path.join(inputDir, f.path)) : '',
          },
    ),
  };
  return mutant;
}

/** The findings saved in `findingsDir` (one per problem), for a summary after the fact. */
export function savedFindings(findingsDir = FINDINGS_DIR) {
  if (!fs.existsSync(findingsDir)) return [];
  /** @type {Finding[]} */
  const out = [];
  for (const id of fs.readdirSync(findingsDir).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    const file = path.join(findingsDir, id, 'finding.json');
    if (!fs.existsSync(file)) continue;
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const p of r.problems)
      out.push({
        ...p,
        id: r.id,
        number: r.number,
        seed: r.seed,
        chain: r.chain,
        saved: path.join(findingsDir, id, 'mcpgen.yaml'),
      });
  }
  return out;
}

/** Findings by kind, then by signature: count, first mutant, where it is saved. */
export function summarize(/** @type {Finding[]} */ findings) {
  /** @type {Map<string, Map<string, Finding[]>>} */
  const byKind = new Map();
  for (const f of findings) {
    const kind = byKind.get(f.kind) ?? new Map();
    byKind.set(f.kind, kind);
    kind.set(f.signature, [...(kind.get(f.signature) ?? []), f]);
  }
  const order = [
    'crash',
    'timeout',
    'bad-exit',
    'disagreement',
    'wrote-on-error',
    'escaped',
    'not-up-to-date',
    'non-compiling',
  ];
  const lines = [];
  for (const kind of [...byKind.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const sigs = /** @type {Map<string, Finding[]>} */ (byKind.get(kind));
    const n = [...sigs.values()].reduce((s, fs) => s + fs.length, 0);
    lines.push(`${kind}: ${n} finding${n === 1 ? '' : 's'}, ${sigs.size} distinct`);
    for (const [sig, fs] of [...sigs].sort((a, b) => b[1].length - a[1].length)) {
      const smallest = [...fs].sort((a, b) => size(a) - size(b))[0];
      lines.push(`  ${String(fs.length).padStart(4)} × ${sig}`);
      lines.push(
        `         e.g. ${smallest?.id} (${smallest?.seed}): ${path.relative(process.cwd(), smallest?.saved ?? '')}`,
      );
    }
  }
  return lines.length ? lines.join('\n') : 'no findings';
}

function size(/** @type {Finding} */ f) {
  try {
    return fs.statSync(f.saved).size;
  } catch {
    return Infinity;
  }
}

export { loadSeeds, makeMutant };
