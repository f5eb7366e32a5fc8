import assert from 'node:assert/strict';
import { test } from 'node:test';

import { NotImplementedError, testContext } from '@mcpgen/runtime';

import { handler } from '../../../src/handlers/tools/slow_search.js';

type Input = Parameters<typeof handler>[0];

// Calls the handler directly, without a client: test/generated covers the protocol side.
// This file is yours: replace the input and the expectation with real ones.

test('slow_search handler', async (t) => {
  // A sample built from the input schema; complete it where it falls short (the cast lets it compile).
  const input = { query: 'example' } as Input;
  try {
    const result = await handler(input, testContext());
    assert.ok(result !== undefined);
  } catch (error) {
    if (!(error instanceof NotImplementedError)) throw error;
    t.todo('implement the handler, then write a real test here');
  }
});
