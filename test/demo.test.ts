/** The README's first command must work: `npm run demo` (here without its build step; npm test builds first). */
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO, run } from './helpers/project.js';

it('the demo generates, type-checks, tests and serves examples/weather', async () => {
  const r = await run(process.execPath, [path.join(REPO, 'scripts/demo.mjs')], REPO, 300_000);
  expect(r.code, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
  expect(r.stdout).toContain('tools/call get_forecast {city: Paris, days: 2} →');
  expect(r.stdout).toMatch(/"city":"Paris","units":"metric","days":\[/);
  expect(r.stdout).toContain('✔ demo done');
}, 300_000);
