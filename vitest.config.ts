import { defineConfig } from 'vitest/config';

// Only mcpgen's own tests: generated projects (examples/, test/cases/*/expected) carry node:test suites of their own.
export default defineConfig({
  test: {
    include: ['test/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
