/**
 * A rename while `mcpgen dev` runs, as a user does it: `mcpgen rename tool … --yes` in a second
 * terminal moves the real handler, the dev loop regenerates, rebuilds and restarts, and a real
 * client calls the tool by its new name and gets the user's own code (not a stub), at the same URL.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { connectHttp, REPO, run, scratch } from './helpers/project.js';

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

it('renames a tool while dev serves it: the handler moves, the server restarts, the new name answers with the old code', async () => {
  const dir = scratch('rename-dev', path.join(REPO, 'examples/weather'));
  const child = spawn(process.execPath, [path.join(REPO, 'bin/mcpgen.js'), 'dev', '--port', '0'], { cwd: dir });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const waitFor = async (re: RegExp, from: number) => {
    for (let i = 0; i < 1200; i++) {
      const m = re.exec(out.slice(from));
      if (m) return m;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${re} on stdout (exit ${child.exitCode}); stdout:\n${out}\nstderr:\n${err}`);
  };
  try {
    const url = new URL((await waitFor(/✔ serving at (\S+) \(ready in/, 0))[1]!);
    const mark = out.length;
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
    child.kill('SIGTERM');
  }
}, 180_000);
