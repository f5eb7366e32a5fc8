import assert from 'node:assert/strict';
import { test } from 'node:test';

import { NotImplementedError, testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/test_tool_with_logging.js';

// Calls the handler directly, without a client: test/generated covers the protocol side.
// This file is yours: replace the input and the expectation with real ones.

test('test_tool_with_logging handler', async (t) => {
  const input = {} as Parameters<typeof handler>[0];
  try {
    const result = await handler(input, testContext());
    assert.ok(result !== undefined);
  } catch (error) {
    if (!(error instanceof NotImplementedError)) throw error;
    t.todo('implement the handler, then write a real test here');
  }
});
