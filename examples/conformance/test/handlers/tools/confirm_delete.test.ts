import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isInputRequiredResult, run, testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/confirm_delete.js';

test('confirm_delete asks first, then deletes when confirmed', async () => {
  const first = await run(() => handler({ filename: 'a.txt' }, testContext()));
  assert.ok(isInputRequiredResult(first) && first.inputRequests?.confirm);
  const ctx = testContext({ inputResponse: () => ({ kind: 'elicit', action: 'accept', content: { confirm: true } }) });
  assert.equal(await run(() => handler({ filename: 'a.txt' }, ctx)), 'Deleted a.txt');
});
