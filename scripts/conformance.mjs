#!/usr/bin/env node
// Runs the official MCP conformance suites against the generated server of examples/conformance.
//
//   node scripts/conformance.mjs [--update-baseline] [--keep] [--replicas N]
//
// 1. Installs what is missing into .tools/ (gitignored): Node 22 for the runner (it imports
//    fs.globSync, which Node 20 lacks), @modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12.
// 2. Copies examples/conformance into .tmp/conformance, regenerates it with this checkout's mcpgen
//    (bin/mcpgen.js; run `npm run build` first), type-checks, compiles and bundles it (mcpgen build).
// 3. Starts the server on 127.0.0.1 on a free port, runs the suites against that loopback URL only,
//    stops the server by its PID. With --replicas N: N replicas sharing a redis-server, behind a
//    round-robin haproxy without stickiness (test/helpers/services.mjs), and the suites run against
//    the balancer's URL; the same baseline applies (a client must not tell the difference).
// 4. Fails when a scored scenario fails, or when any scenario passes fewer checks (or fails more)
//    than in scripts/conformance-baseline.json. Writes .tmp/conformance/results.json and prints a
//    Markdown table (the README's).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePackage as ensureTool, nodeOf, ROOT, run, TOOLS } from './tools.mjs';

const SCRATCH = path.join(ROOT, '.tmp', 'conformance');
const BASELINE = path.join(ROOT, 'scripts', 'conformance-baseline.json');
const argv = process.argv.slice(2);
const args = new Set(argv);
const replicasAt = argv.indexOf('--replicas');
const REPLICAS = replicasAt >= 0 ? Number(argv[replicasAt + 1]) : 0;
if (replicasAt >= 0 && !(Number.isInteger(REPLICAS) && REPLICAS >= 1 && REPLICAS <= 8)) {
  console.error('conformance: --replicas takes a count from 1 to 8');
  process.exit(2);
}
const STATE_KEY = 'conformance-run-key-0123456789abcdef0123';

const RUNNERS = {
  '0.1.16': { dir: 'conformance-0.1.16', version: '0.1.16' },
  0.2: { dir: 'conformance-0.2', version: '0.2.0-alpha.12' },
};
const SUITES = [
  { id: '0.1.16 --suite all', runner: '0.1.16', args: ['--suite', 'all'] },
  { id: '0.2.0-alpha.12 --requirements 2026-07-28', runner: '0.2', args: ['--requirements', '2026-07-28'] },
  { id: '0.2.0-alpha.12 --requirements 2025-11-25', runner: '0.2', args: ['--requirements', '2025-11-25'] },
];

function log(message) {
  console.error(`conformance: ${message}`);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const ensurePackage = (dir, pkg, version) => ensureTool(dir, pkg, version, log);

/** A Node >= 22 for the runner: this one, or node@22 from npm. */
function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return nodeOf(22, '22.23.3', log);
}

/** Copies the example, regenerates it with this mcpgen, builds it. */
function buildExample() {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  const project = path.join(SCRATCH, 'server');
  cpSync(path.join(ROOT, 'examples', 'conformance'), project, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|dist)$/.test(src),
  });
  run(process.execPath, [
    path.join(ROOT, 'bin', 'mcpgen.js'),
    'generate',
    '-q',
    '-f',
    path.join(project, 'mcpgen.yaml'),
  ]);
  rmSync(path.join(project, 'node_modules'), { recursive: true, force: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  // As its `npm run build`: tsc, then the server bundled, which the suites run against.
  run(process.execPath, [path.join(ROOT, 'bin', 'mcpgen.js'), 'build'], { cwd: project });
  return project;
}

/** Starts the server on 127.0.0.1:0 and resolves with its URL once it listens. */
function startServer(project) {
  const child = spawn(process.execPath, ['dist/src/main.js', '--http', '--host', '127.0.0.1', '--port', '0'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MCP_REQUEST_STATE_KEY: STATE_KEY },
  });
  let stderr = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${stderr}`));
    });
  });
  return { child, url, stderr: () => stderr };
}

/** Runs one suite; resolves with its parsed summary. */
function runSuite(node, suite, url) {
  const runner = RUNNERS[suite.runner];
  const entry = path.join(
    TOOLS,
    runner.dir,
    'node_modules',
    '@modelcontextprotocol',
    'conformance',
    'dist',
    'index.js',
  );
  const out = path.join(SCRATCH, 'results', suite.id.replace(/[^a-z0-9.-]+/gi, '_'));
  log(`running ${suite.id}`);
  return new Promise((resolve, reject) => {
    const child = spawn(node, [entry, 'server', '--url', url, ...suite.args, '-o', out], {
      cwd: SCRATCH,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000);
    child.once('exit', () => {
      clearTimeout(timer);
      writeFileSync(`${out}.log`, text);
      try {
        resolve(parseSummary(text));
      } catch (error) {
        reject(new Error(`${suite.id}: ${error.message}\n${text.slice(-4000)}`));
      }
    });
  });
}

/** `✓ name: 3 passed, 0 failed` lines of the SUMMARY, and the names listed as not scored. */
function parseSummary(text) {
  const at = text.lastIndexOf('=== SUMMARY ===');
  if (at < 0) throw new Error('no SUMMARY in the runner output');
  const summary = text.slice(at);
  const scenarios = {};
  const unscored = new Set();
  let inUnscored = false;
  for (const line of summary.split('\n')) {
    if (/^Not scored/.test(line)) inUnscored = true;
    const m = /^\s*([✓✗])\s+([\w.-]+)(?::\s+(\d+) passed, (\d+) failed)?/.exec(line);
    if (!m) continue;
    if (inUnscored) unscored.add(m[2]);
    else scenarios[m[2]] = { passed: Number(m[3]), failed: Number(m[4]) };
  }
  for (const name of unscored) if (scenarios[name]) scenarios[name].scored = false;
  if (Object.keys(scenarios).length === 0) throw new Error('no scenario lines in the SUMMARY');
  return scenarios;
}

function table(results) {
  const lines = [
    '| suite | scenarios | checks passed | checks failed | scored failures | unscored failing scenarios |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const [id, scenarios] of Object.entries(results)) {
    const list = Object.entries(scenarios);
    const passed = list.reduce((n, [, s]) => n + s.passed, 0);
    const failed = list.reduce((n, [, s]) => n + s.failed, 0);
    const scoredFailures = list.filter(([, s]) => s.failed > 0 && s.scored !== false).length;
    const unscored = list.filter(([, s]) => s.failed > 0 && s.scored === false).map(([n]) => n);
    lines.push(
      `| ${id} | ${list.length} | ${passed} | ${failed} | ${scoredFailures} | ${unscored.join(', ') || '—'} |`,
    );
  }
  return lines.join('\n');
}

function compare(results, baseline) {
  const problems = [];
  for (const [id, scenarios] of Object.entries(results)) {
    for (const [name, s] of Object.entries(scenarios)) {
      if (s.failed > 0 && s.scored !== false) problems.push(`${id}: ${name} failed ${s.failed} check(s)`);
      const before = baseline?.[id]?.[name];
      if (before && (s.passed < before.passed || s.failed > before.failed)) {
        problems.push(
          `${id}: ${name} regressed: ${before.passed} passed/${before.failed} failed → ${s.passed}/${s.failed}`,
        );
      }
    }
    for (const name of Object.keys(baseline?.[id] ?? {})) {
      if (!scenarios[name]) problems.push(`${id}: ${name} no longer ran`);
    }
  }
  return problems;
}

async function main() {
  const node = node22();
  for (const r of Object.values(RUNNERS)) ensurePackage(r.dir, '@modelcontextprotocol/conformance', r.version);
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) run(npm, ['run', 'build'], { cwd: ROOT });
  log('building examples/conformance');
  const project = buildExample();
  const results = {};
  if (REPLICAS > 0) {
    const services = await import('../test/helpers/services.mjs');
    try {
      const redis = await services.startRedis();
      const env = { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: STATE_KEY };
      const replicas = await services.startReplicas(project, REPLICAS, env);
      const balancer = await services.startBalancer(replicas.map((r) => r.port));
      const url = `${balancer.url}/mcp`;
      log(`${REPLICAS} replicas on Redis (${redis.url}) behind haproxy at ${url}`);
      for (const suite of SUITES) results[suite.id] = await runSuite(node, suite, url);
      const served = (await balancer.stats()).map((s) => `${s.name} ${s.requests}`).join(', ');
      log(`requests per replica: ${served}`);
    } finally {
      await services.stopAll();
    }
  } else {
    const server = startServer(project);
    try {
      const url = await server.url;
      if (!/^http:\/\/127\.0\.0\.1:/.test(url)) throw new Error(`refusing a non-loopback URL: ${url}`);
      log(`server at ${url} (pid ${server.child.pid})`);
      for (const suite of SUITES) results[suite.id] = await runSuite(node, suite, url);
    } finally {
      server.child.kill('SIGTERM');
    }
  }
  writeFileSync(path.join(SCRATCH, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(table(results));
  if (args.has('--update-baseline') && REPLICAS === 0) {
    writeFileSync(BASELINE, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, BASELINE)}`);
  }
  const baseline = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, 'utf8')) : null;
  const problems = compare(results, baseline);
  if (!args.has('--keep')) rmSync(path.join(SCRATCH, 'server'), { recursive: true, force: true });
  if (problems.length) {
    for (const p of problems) console.error(`FAIL ${p}`);
    process.exit(1);
  }
  log('no regressions');
}

main().catch((error) => {
  console.error(`conformance: ${error.stack ?? error.message}`);
  process.exit(2);
});
