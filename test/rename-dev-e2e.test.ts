/**
 * A rename while `mcpgen dev` runs, as a user does it: `mcpgen rename tool … --yes` in a second
 * terminal moves the real handler, the dev loop regenerates, rebuilds and restarts, and a real
 * client calls the tool by its new name and gets the user's own code (not a stub), at the same URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startCli } from './helpers/cli-process.js';
import { connectHttp, REPO, run, scratch } from './helpers/project.js';

it('renames a tool while dev serves it: the handler moves, the server restarts, the new name answers with the old code', async () => {
  const dir = scratch('rename-dev', path.join(REPO, 'examples/weather'));
  const dev = startCli(['dev', '--port', '0'], dir);
  const { waitFor } = dev;
  try {
    const url = new URL((await waitFor(/✔ serving at (\S+) \(ready in/, 0))[1]!);
    const mark = dev.out().length;
    const renamed = await run(
      process.execPath,
      [path.join(REPO, 'bin/mcpgen.js'), 'rename', 'tool', 'convert_temperature', 'convert_temp', '--yes'],
      dir,
    );
    expect(renamed.code, renamed.stdout + renamed.stderr).toBe(0);
    expect(renamed.stdout).toContain('renamed tool "convert_temperature" to "convert_temp"');
    const moved = path.join(dir, 'src/handlers/tools/convert_temp.ts');
    expect(existsSync(path.join(dir, 'src/handlers/tools/convert_temperature.ts'))).toBe(false);
    expect(readFileSync(moved, 'utf8')).toContain("ToolHandlers['convert_temp'] = async ({ value, from })");
    // A helper of the user's that names the tool's generated input type follows the rename too.
    expect(readFileSync(path.join(dir, 'src/temperature.ts'), 'utf8')).toContain('ConvertTempInput');
    const served = await waitFor(/restarted in \d+\.\d\d s\n✔ serving at (\S+) \(\d+\.\d\d s after the change\)/, mark);
    expect(served[1]).toBe(url.href);
    const client = await connectHttp(url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['convert_temp', 'get_forecast']);
      const r = await client.callTool({ name: 'convert_temp', arguments: { value: 100, from: 'C' } });
      expect(r.content).toEqual([{ type: 'text', text: '100 °C = 212 °F' }]);
    } finally {
      await client.close();
    }
  } finally {
    await dev.stop();
  }
}, 180_000);
