#!/usr/bin/env node
// Runs the tests of how answers reach the wire, and a generated server end to end, on the other
// Node lines mcpgen supports (22 and 24; npm test runs on this one): Node's HTTP internals change
// between lines (a chunked body's end and `cork()` did, from 22). Installs node@22 and node@24
// into .tools/ when missing.
//   node scripts/other-nodes.mjs
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { nodeOf, ROOT } from './tools.mjs';

const LINES = [
  [22, '22.23.3'],
  [24, '24.21.0'],
];
const TESTS = [
  'packages/runtime/test/http-wire.test.ts',
  'packages/runtime/test/session-post.test.ts',
  'packages/runtime/test/serve.test.ts',
  'test/bundle-names-e2e.test.ts',
  'test/wire-exactness.test.ts',
];
const log = (message) => console.error(`other-nodes: ${message}`);

let failed = false;
for (const [major, version] of LINES) {
  const node = nodeOf(major, version, log);
  log(`Node ${major}: ${TESTS.length} test files`);
  // The servers the tests start run on process.execPath: the same Node.
  const r = spawnSync(node, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...TESTS], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
  });
  if (r.status !== 0) {
    log(`Node ${major}: failed`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
