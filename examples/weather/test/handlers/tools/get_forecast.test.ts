import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { addDays, forecastDay } from '../../../src/forecast.js';
import type { HandlerContext } from '@mcpgen/runtime';
import { testContext } from '@mcpgen/runtime';
import type { GetForecastInput, GetForecastOutput } from '../../../src/generated/types.js';
import { handler } from '../../../src/handlers/tools/get_forecast.js';

// Calls the handler directly, without a client: test/generated covers the protocol side.

/** Calls the handler, which answers with its output object rather than a toolResult(). */
async function forecast(
  input: GetForecastInput,
  ctx: HandlerContext = testContext(),
): Promise<GetForecastOutput> {
  const result = await handler(input, ctx);
  assert.ok(!('content' in result), 'expected the output object');
  return result;
}

describe('get_forecast', () => {
  it('defaults to 3 days in metric, on consecutive days', async () => {
    const result = await forecast({ city: 'Paris' });
    assert.equal(result.city, 'Paris');
    assert.equal(result.units, 'metric');
    assert.equal(result.days.length, 3);
    const [first] = result.days;
    assert.ok(first);
    assert.deepEqual(
      result.days.map((day) => day.date),
      [0, 1, 2].map((i) => addDays(first.date, i)),
    );
  });

  it('is the synthetic model, day by day, so it is stable between calls', async () => {
    const result = await forecast({ city: 'Tokyo', days: 7 });
    assert.equal(result.days.length, 7);
    for (const day of result.days) assert.deepEqual(day, forecastDay('Tokyo', day.date));
    assert.deepEqual(await forecast({ city: 'Tokyo', days: 7 }), result);
  });

  it('gives sane temperatures and a summary', async () => {
    const result = await forecast({ city: 'Reykjavík', days: 7 });
    for (const day of result.days) {
      assert.ok(day.low <= day.high, `${day.date}: low ${day.low} > high ${day.high}`);
      assert.ok(day.low > -20 && day.high < 40, `${day.date}: ${day.low} to ${day.high} °C`);
      assert.match(day.summary, /\w/);
    }
  });

  it('converts to Fahrenheit for imperial units', async () => {
    const metric = await forecast({ city: 'Sydney', units: 'metric' });
    const imperial = await forecast({ city: 'Sydney', units: 'imperial' });
    assert.equal(imperial.units, 'imperial');
    metric.days.forEach((day, i) => {
      const other = imperial.days[i];
      assert.ok(other);
      assert.equal(other.summary, day.summary);
      // Both are rounded to 0.1, so they agree to within the rounding of each.
      assert.ok(Math.abs(other.high - (day.high * 9) / 5 - 32) <= 0.2);
      assert.ok(Math.abs(other.low - (day.low * 9) / 5 - 32) <= 0.2);
    });
  });

  it('reports progress once per day', async () => {
    const reports: [number, number | undefined][] = [];
    const ctx = testContext({
      progress: async (progress, total) => {
        reports.push([progress, total]);
      },
    });
    await forecast({ city: 'London', days: 4 }, ctx);
    assert.deepEqual(reports, [
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('stops when the request is cancelled', async () => {
    const controller = new AbortController();
    let reported = 0;
    const ctx = testContext({
      signal: controller.signal,
      // Cancel after the first day, as a client would mid-request.
      progress: async () => {
        reported++;
        controller.abort();
      },
    });
    await assert.rejects(forecast({ city: 'London', days: 7 }, ctx), { name: 'AbortError' });
    assert.equal(reported, 1);
  });
});
