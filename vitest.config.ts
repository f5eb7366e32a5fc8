import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Only mcpgen's own tests: generated projects (examples/, test/cases/*/expected) carry node:test suites of their own.
export default defineConfig({
  test: {
    include: ['test/*.test.ts'],
    globalSetup: ['test/helpers/generated-validators.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A format cache of this run's own: tests neither read nor fill the user's (~/.cache/mcpgen).
    env: { MCPGEN_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), 'mcpgen-test-cache-')) },
  },
});
