import assert from 'node:assert/strict';
import { test } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/test_slow_operation.js';

test('test_slow_operation stops when cancelled', async () => {
  const controller = new AbortController();
  const call = handler({}, testContext({ signal: controller.signal }));
  controller.abort(new Error('cancelled'));
  await assert.rejects(Promise.resolve(call), /cancelled/);
});
