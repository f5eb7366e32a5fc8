import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isInputRequiredResult, run, testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/test_elicitation_sep1330_enums.js';

// The first round asks the client (input_required); the answers come back in the next round.
test('test_elicitation_sep1330_enums asks the client first', async () => {
  const input = {} as Parameters<typeof handler>[0];
  const result = await run(() => handler(input, testContext()));
  assert.ok(isInputRequiredResult(result), 'expected an input_required result');
  assert.ok(Object.keys(result.inputRequests ?? {}).length > 0);
});
