import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isInputRequiredResult, run, testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/multi_input.js';

test('multi_input asks two questions at once, then answers with both', async () => {
  const first = await run(() => handler({}, testContext()));
  assert.ok(isInputRequiredResult(first));
  assert.deepEqual(Object.keys(first.inputRequests ?? {}).sort(), ['first', 'second']);
  const ctx = testContext({ accepted: <T,>(key: string) => ({ name: key }) as T });
  assert.equal(await run(() => handler({}, ctx)), 'Got first and second');
});
