import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isInputRequiredResult, run, testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/test_tool_with_task.js';

test('test_tool_with_task asks for a name, then greets', async () => {
  const first = await run(() => handler({}, testContext()));
  assert.ok(isInputRequiredResult(first) && first.inputRequests?.user_name);
  const ctx = testContext({ accepted: <T,>() => ({ name: 'Alice' }) as T });
  assert.match(String(await run(() => handler({}, ctx))), /Hello, Alice!/);
});
