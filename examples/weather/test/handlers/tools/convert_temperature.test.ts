import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import type { ConvertTemperatureInput } from '../../../src/generated/types.js';
import { handler } from '../../../src/handlers/tools/convert_temperature.js';

// async, so that a throwing handler gives a rejected promise for assert.rejects.
const convert = async (input: ConvertTemperatureInput) => handler(input, testContext());

describe('convert_temperature', () => {
  it('converts Celsius to Fahrenheit', async () => {
    assert.equal(await convert({ value: 21, from: 'C' }), '21 °C = 69.8 °F');
    assert.equal(await convert({ value: 100, from: 'C' }), '100 °C = 212 °F');
  });

  it('converts Fahrenheit to Celsius, rounded to 0.1', async () => {
    assert.equal(await convert({ value: 32, from: 'F' }), '32 °F = 0 °C');
    assert.equal(await convert({ value: 70, from: 'F' }), '70 °F = 21.1 °C');
  });

  it('meets itself at -40', async () => {
    assert.equal(await convert({ value: -40, from: 'C' }), '-40 °C = -40 °F');
    assert.equal(await convert({ value: -40, from: 'F' }), '-40 °F = -40 °C');
  });

  it('rejects temperatures below absolute zero', async () => {
    await assert.rejects(convert({ value: -300, from: 'C' }), /absolute zero/);
    await assert.rejects(convert({ value: -500, from: 'F' }), /absolute zero/);
    assert.equal(await convert({ value: -273.15, from: 'C' }), '-273.15 °C = -459.7 °F');
  });
});
