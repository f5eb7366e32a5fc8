import assert from 'node:assert/strict';
import { test } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/slow_compute.js';

test('slow_compute answers after its seconds', async () => {
  assert.equal(await handler({ seconds: 0, label: 'x' }, testContext()), 'computed x after 0s');
});

test('slow_compute stops when its signal aborts', async () => {
  const controller = new AbortController();
  const running = handler({ seconds: 60 }, testContext({ signal: controller.signal }));
  controller.abort(new Error('cancelled'));
  await assert.rejects(Promise.resolve(running), /cancelled/);
});
