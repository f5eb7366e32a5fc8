import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ProtocolError } from '@modelcontextprotocol/server';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/protocol_error_job.js';

test('protocol_error_job throws a protocol error', async () => {
  await assert.rejects(Promise.resolve(handler({}, testContext())), ProtocolError);
});
