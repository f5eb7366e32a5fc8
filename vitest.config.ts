import { defineConfig } from 'vitest/config';

// Two tiers. `fast` (npm run test:fast, two workers, about two minutes): unit, golden and CLI tests,
// run on every change. `full` (the rest of `npm test`, what CI runs): end-to-end servers through real clients,
// tsc over generated projects, Redis and haproxy, kill and robustness runs, the differential fuzzers.
// Chosen by measured file durations; a new test file is in `full` until it is listed here.
const FAST = [
  'add-entry',
  'cli',
  'compare',
  'completion',
  'docs',
  'embedded-size',
  'environment-errors',
  'generate-bin',
  'generate-cases',
  'generate-pure',
  'generated-modules',
  'import-cycles',
  'import-openapi',
  'json-envelope',
  'init-tsconfig',
  'lint-schema-keys',
  'lint',
  'format-prettier',
  'literal',
  'load',
  'manifest-schema',
  'nesting',
  'normalize',
  'pack-dependencies',
  'pack-native',
  'package-contents',
  'plan',
  'progress',
  'project-checks',
  'proto-keys',
  'report',
  'sample-check',
  'schema-refs',
  'schema-types',
  'stamp',
  'ts-types',
  'unified-diff',
  'validate-bin',
  'validate-cases',
  'validate',
  'watch',
  'write-errors',
  'write-outside',
  'write-recovery',
]
  .map((name) => `test/${name}.test.ts`)
  .concat('packages/runtime/test/*.test.ts');

// Only mcpgen's own tests: generated projects (examples/, test/cases/*/expected) carry node:test suites of their own.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/generated-validators.ts'],
    setupFiles: ['test/helpers/mcpgen-on-path.ts'],
    projects: [
      { extends: true, test: { name: 'fast', include: FAST } },
      { extends: true, test: { name: 'full', include: ['test/*.test.ts'], exclude: FAST } },
    ],
  },
});
