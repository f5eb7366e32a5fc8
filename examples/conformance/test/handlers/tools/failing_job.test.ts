import assert from 'node:assert/strict';
import { test } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/failing_job.js';

test('failing_job ends with a tool error', async () => {
  await assert.rejects(Promise.resolve(handler({}, testContext())), /the job failed/);
});
