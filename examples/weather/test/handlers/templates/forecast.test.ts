import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { forecastDay } from '../../../src/forecast.js';
import { testContext } from '@mcpgen/runtime';
import { LISTED_DATE, list, read } from '../../../src/handlers/templates/forecast.js';
import { handler as getForecast } from '../../../src/handlers/tools/get_forecast.js';

/** Reads the forecast of one city on one day, as the server would for its URI. */
async function readForecast(city: string, date: string): Promise<unknown> {
  const uri = new URL(`weather://forecast/${encodeURIComponent(city)}/${date}`);
  const body = await read({ city, date }, uri, testContext());
  assert.ok(typeof body === 'string', 'expected JSON text');
  return JSON.parse(body);
}

describe('forecast template', () => {
  it('reads one day as JSON, in metric', async () => {
    assert.deepEqual(await readForecast('Paris', '2026-01-01'), {
      city: 'Paris',
      units: 'metric',
      ...forecastDay('Paris', '2026-01-01'),
    });
  });

  it('rejects days that do not exist', async () => {
    // The URI's variables are validated against `format: date` first; this is the model's own check.
    for (const date of ['2026-02-30', '2026-13-01', 'tomorrow']) {
      await assert.rejects(readForecast('Paris', date), RangeError);
    }
  });

  it('agrees with the get_forecast tool', async () => {
    const result = await getForecast({ city: 'Tokyo', days: 1 }, testContext());
    assert.ok(!('content' in result), 'expected the output object');
    const [today] = result.days;
    assert.ok(today);
    assert.deepEqual(await readForecast('Tokyo', today.date), {
      city: 'Tokyo',
      units: 'metric',
      ...today,
    });
  });

  it('lists one forecast per city on a fixed date', async () => {
    const resources = await list(testContext());
    assert.ok(resources.length >= 3);
    for (const resource of resources) {
      assert.match(resource.uri, new RegExp(`^weather://forecast/[^/]+/${LISTED_DATE}$`));
      assert.equal(resource.mimeType, 'application/json');
    }
    assert.deepEqual(await list(testContext()), resources);
  });

  it('lists URIs that read back, spaces in city names included', async () => {
    const resources = await list(testContext());
    const newYork = resources.find((resource) => resource.uri.includes('/New%20York/'));
    assert.ok(newYork);
    // What the generated reader does with a URI: split it by the template and decode.
    const [, city = '', date = ''] =
      /^weather:\/\/forecast\/([^/]+)\/(.+)$/.exec(newYork.uri) ?? [];
    assert.deepEqual(await readForecast(decodeURIComponent(city), date), {
      city: 'New York',
      units: 'metric',
      ...forecastDay('New York', LISTED_DATE),
    });
  });
});
