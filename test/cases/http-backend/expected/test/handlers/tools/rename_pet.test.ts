import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callTool, NotImplementedError, testContext } from '@mcpgen/runtime';

import { handler } from '../../../src/handlers/tools/rename_pet.js';

type Input = Parameters<typeof handler>[0];

// Calls the handler directly, without a client: test/generated covers the protocol side.
// This file is yours: replace the input and the expectation with real ones.
//
// A handler that reaches a database or an API is tested with a stand-in: export a factory from
// the handler file and the handler made from it,
//   export const makeHandler = (db: Db): ToolHandlers['rename_pet'] => async (input, ctx) => …;
//   export const handler = makeHandler(openDb());
// then test `makeHandler(fakeDb)` here. `testContext({ … })` stands in for ctx (log, signal, authInfo …).

test('rename_pet handler', async (t) => {
  // A sample built from the input schema; complete it where it falls short (the cast lets it compile).
  const input = { petId: 1, name: 'example' } as Input;
  try {
    const answer = await callTool(handler, input, testContext());
    // `answer.output` is typed as the tool's output: assert on its fields.
    assert.equal(answer.kind, 'output', answer.kind === 'error' ? answer.message : 'the tool asked the client for input');
  } catch (error) {
    if (!(error instanceof NotImplementedError)) throw error;
    t.todo('implement the handler, then write a real test here');
  }
});
