import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { read } from '../../../src/handlers/resources/stations.js';
import type { Station } from '../../../src/stations.js';

/** Reads the resource and parses it: the handler answers with JSON text. */
async function readStations(): Promise<Station[]> {
  const body = await read(new URL('weather://stations'), testContext());
  assert.ok(typeof body === 'string', 'expected JSON text');
  return JSON.parse(body) as Station[];
}

describe('stations resource', () => {
  it('is a JSON array of stations with unique ids', async () => {
    const stations = await readStations();
    assert.ok(stations.length >= 3);
    assert.equal(new Set(stations.map((station) => station.id)).size, stations.length);
    assert.ok(stations.some((station) => station.city === 'Paris'));
  });

  it('has coordinates on the globe', async () => {
    const stations = await readStations();
    for (const { id, latitude, longitude } of stations) {
      assert.ok(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180, id);
    }
  });
});
