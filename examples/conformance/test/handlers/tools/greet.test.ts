import assert from 'node:assert/strict';
import { test } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/greet.js';

test('greet greets by name', async () => {
  assert.equal(await handler({ name: 'World' }, testContext()), 'Hello, World!');
});
