import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { testContext } from '@mcpgen/runtime';
import type { PackingListArgs } from '../../../src/generated/types.js';
import { complete, get } from '../../../src/handlers/prompts/packing_list.js';

/** Renders the prompt: the handler answers with one text message. */
async function render(args: PackingListArgs): Promise<string> {
  const text = await get(args, testContext());
  assert.ok(typeof text === 'string', 'expected text');
  return text;
}

/** The forecast lines of a rendered prompt. */
const forecastLines = (text: string) => text.split('\n').filter((line) => line.startsWith('- '));

describe('packing_list prompt', () => {
  it('asks for a packing list with the forecast for the city', async () => {
    const text = await render({ city: 'Paris', days: '5' });
    assert.match(text, /a 5-day trip to Paris/);
    assert.match(text, /packing list/);
    assert.equal(forecastLines(text).length, 5);
    for (const line of forecastLines(text)) assert.match(line, /^- \d{4}-\d{2}-\d{2}: .+ °C$/);
  });

  it('shows 3 days when the trip length is not given', async () => {
    const text = await render({ city: 'Tokyo' });
    assert.match(text, /a trip to Tokyo/);
    assert.equal(forecastLines(text).length, 3);
  });

  it('shows at most a week of forecast for a long trip', async () => {
    const text = await render({ city: 'Sydney', days: '14' });
    assert.equal(forecastLines(text).length, 7);
    assert.match(text, /covers the first 7 days/);
  });

  it('rejects a trip length that is not a whole number of days', async () => {
    for (const days of ['zero', '0', '2.5', '']) {
      await assert.rejects(render({ city: 'Paris', days }), {
        code: ProtocolErrorCode.InvalidParams,
      });
    }
  });

  it('completes cities by prefix, ignoring case', async () => {
    assert.deepEqual(await complete.city('p', { arguments: {} }), ['Paris']);
    assert.deepEqual(await complete.city('SAN', { arguments: {} }), ['San Francisco']);
    assert.ok((await complete.city('', { arguments: {} })).includes('New York'));
    assert.deepEqual(await complete.city('Atlantis', { arguments: {} }), []);
  });
});
