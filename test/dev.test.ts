/**
 * `mcpgen dev` as a real process on a scratch project, talked to by a real MCP client over HTTP:
 * a manifest edit lists a new tool, a handler edit changes behaviour, a broken manifest or a type
 * error is reported while the last good server keeps serving, and SIGTERM stops everything.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startCli } from './helpers/cli-process.js';
import { connectHttp, memoryIO, REPO, scratch } from './helpers/project.js';
import { runCli } from '../cli/main.js';

const SHOUT = `
  shout:
    description: Repeat a text loudly
    input:
      type: object
      properties: { text: { type: string } }
      required: [text]
`;

it('regenerates, rebuilds and restarts on edits; errors keep the last good server; SIGTERM stops it all', async () => {
  const dir = scratch('dev', path.join(REPO, 'examples/weather'));
  const dev = startCli(['dev', '--port', '0'], dir);
  const { child, waitFor } = dev;
  const call = async (url: URL, name: string, args: Record<string, unknown>) => {
    const client = await connectHttp(url);
    try {
      const r = await client.callTool({ name, arguments: args });
      return (r.content as { type: string; text: string }[])[0]!.text;
    } finally {
      await client.close();
    }
  };
  const toolNames = async (url: URL) => {
    const client = await connectHttp(url);
    try {
      return (await client.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await client.close();
    }
  };

  try {
    const first = await waitFor(/✔ serving at (\S+) \(ready in \d+\.\d\d s\)/, 0);
    const url = new URL(first[1]!);
    expect(dev.out()).toMatch(/generated in \d+\.\d\d s\n/);
    expect(dev.out()).toMatch(/built in \d+\.\d\d s\n/);
    expect(dev.out()).toMatch(/started in \d+\.\d\d s\n/);
    expect(await toolNames(url)).toEqual(['convert_temperature', 'get_forecast']);

    // Manifest edit: a new tool, listed by the restarted server at the same URL.
    const manifest = path.join(dir, 'mcpgen.yaml');
    const original = readFileSync(manifest, 'utf8');
    const withShout = original.replace('\ntools:\n', `\ntools:${SHOUT}`);
    expect(withShout).not.toBe(original);
    let mark = dev.out().length;
    writeFileSync(manifest, withShout);
    const served = await waitFor(
      /regenerated in [\s\S]*built in [\s\S]*restarted in \d+\.\d\d s\n✔ serving at (\S+) \(\d+\.\d\d s after the change\)/,
      mark,
    );
    expect(served[1]).toBe(url.href);
    expect(await toolNames(url)).toEqual(['convert_temperature', 'get_forecast', 'shout']);

    // Handler edit: new behaviour.
    const handler = path.join(dir, 'src/handlers/tools/shout.ts');
    const good = `import type { ToolHandlers } from '../../generated/handlers.js';\n\nexport const handler: ToolHandlers['shout'] = async ({ text }) => \`\${text.toUpperCase()}!\`;\n`;
    mark = dev.out().length;
    writeFileSync(handler, good);
    await waitFor(/built in [\s\S]*✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);
    expect(await call(url, 'shout', { text: 'hi' })).toBe('HI!');

    // A referenced file deleted and created again (a git checkout): served as it is then.
    const about = path.join(dir, 'docs/about.md');
    let errMark = dev.err().length;
    rmSync(about);
    await waitFor(/MCPG240 file `\.\/docs\/about\.md` does not exist/, errMark, 'err');
    mark = dev.out().length;
    writeFileSync(about, '# Back again\n');
    await waitFor(/regenerated in [\s\S]*✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);
    const readme = async () => {
      const client = await connectHttp(url);
      try {
        return ((await client.readResource({ uri: 'weather://readme' })).contents[0] as { text: string }).text;
      } finally {
        await client.close();
      }
    };
    expect(await readme()).toBe('# Back again\n');

    // Broken manifest: located error, the loop lives, the last good server still answers.
    mark = dev.out().length;
    errMark = dev.err().length;
    writeFileSync(manifest, withShout.replace('  version: 0.1.0', '  version: [1]'));
    const located = await waitFor(/mcpgen\.yaml:(\d+):(\d+): error MCPG\d+/, errMark, 'err');
    expect(Number(located[1])).toBeGreaterThan(0);
    await waitFor(/✖ not rebuilt: still serving the last good build at /, errMark, 'err');
    expect(child.exitCode).toBeNull();
    expect(await call(url, 'shout', { text: 'still' })).toBe('STILL!');

    // Fixed: serving again.
    mark = dev.out().length;
    writeFileSync(manifest, withShout);
    await waitFor(/regenerated in [\s\S]*✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);

    // A type error in a handler: tsc's message, no restart, the old behaviour still served.
    errMark = dev.err().length;
    writeFileSync(handler, good.replace('`${text.toUpperCase()}!`', 'text.length'));
    await waitFor(
      /shout\.ts\(\d+,\d+\): error TS\d+[\s\S]*✖ build failed in \d+\.\d\d s; still serving the last good build/,
      errMark,
      'err',
    );
    expect(await call(url, 'shout', { text: 'ok' })).toBe('OK!');
    expect(child.exitCode).toBeNull();
  } finally {
    expect(await dev.stop()).toBe(0);
  }
  expect(dev.out()).toContain('mcpgen dev: stopped');
  // The server it started is gone with it.
  const url = new URL(/✔ serving at (\S+)/.exec(dev.out())![1]!);
  await expect(fetch(url, { method: 'POST', signal: AbortSignal.timeout(3000) })).rejects.toThrow();
}, 300_000);

it('ends with exit 2 when saving cannot help: the port is taken by another process, TypeScript is not installed', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as { port: number }).port;
  try {
    const dev = startCli(['dev', '--port', String(port)], scratch('dev-port', path.join(REPO, 'examples/weather')));
    expect(await dev.exited()).toBe(2);
    expect(dev.err()).toContain(
      `mcpgen: port ${port} is in use (another process listens on 127.0.0.1:${port}): pass --port <n>, or --port 0 for a free one\n`,
    );
    expect(dev.err()).not.toMatch(/save to retry/);
  } finally {
    holder.close();
  }

  // Outside the repository, whose node_modules holds TypeScript.
  const bare = mkdtempSync(path.join(os.tmpdir(), 'mcpgen-dev-'));
  try {
    writeFileSync(
      path.join(bare, 'mcpgen.yaml'),
      'version: 1\nserver: { name: bare, version: 0.1.0 }\ntransports: { http: {} }\n',
    );
    const dev = startCli(['dev', '--port', '0'], bare);
    expect(await dev.exited()).toBe(2);
    expect(dev.err()).toContain('mcpgen: TypeScript is not installed in .: run `npm install` there first');
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
}, 120_000);

it('the server it started ends with it when mcpgen dev is killed (SIGKILL)', async () => {
  const dir = scratch('dev-killed', path.join(REPO, 'examples/weather'));
  const dev = startCli(['dev', '--port', '0'], dir);
  const url = new URL((await dev.waitFor(/✔ serving at (\S+)/, 0))[1]!);
  const client = await connectHttp(url);
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  await client.close().catch(() => {});
  await dev.stop('SIGKILL');
  // Nothing of mcpgen's ran after the kill: the server stops on its own, within a few seconds.
  let refused = false;
  for (let i = 0; i < 50 && !refused; i++) {
    try {
      await fetch(url, { method: 'POST', signal: AbortSignal.timeout(1000) });
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      refused = true;
    }
  }
  expect(refused, 'the server still answers after mcpgen dev was killed').toBe(true);
}, 120_000);

it('type-checks a view before bundling it: a type error keeps the last good server and view', async () => {
  const dir = scratch('dev-view');
  const init = memoryIO(dir);
  expect(await runCli(['init', '--view'], init), init.err).toBe(0);
  const dev = startCli(['dev', '--port', '0'], dir);
  const { waitFor } = dev;
  const view = async (url: URL) => {
    const client = await connectHttp(url);
    try {
      const { contents } = await client.readResource({ uri: `ui://${path.basename(dir)}/greet` });
      return (contents[0] as { text: string }).text;
    } finally {
      await client.close();
    }
  };
  try {
    const url = new URL((await waitFor(/✔ serving at (\S+)/, 0))[1]!);
    expect((await view(url)).includes('Waiting for the result')).toBe(true);

    const main = path.join(dir, 'ui/greet/main.ts');
    const html = path.join(dir, 'ui/greet/index.html');
    const source = readFileSync(main, 'utf8');
    const page = readFileSync(html, 'utf8');
    let errMark = dev.err().length;
    writeFileSync(html, page.replace('Waiting for the result…', 'Broken…'));
    writeFileSync(main, `${source}\nconst count: number = output.textContent;\n`);
    await waitFor(
      /ui\/greet\/main\.ts\(\d+,\d+\): error TS2322[\s\S]*✖ tsc failed on the views; still serving the last good build at /,
      errMark,
      'err',
    );
    // Neither bundled nor restarted: the last good view is served.
    const served = await view(url);
    expect(served.includes('Waiting for the result') && !served.includes('Broken…')).toBe(true);
    expect(existsSync(path.join(dir, 'dist/tsconfig.views.json'))).toBe(false);

    let mark = dev.out().length;
    errMark = dev.err().length;
    writeFileSync(main, source);
    writeFileSync(html, page.replace('Waiting for the result…', 'Fixed…'));
    await waitFor(/✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);
    expect((await view(url)).includes('Fixed…')).toBe(true);

    // The view's folder deleted and created again (a git checkout): built again, and its sources
    // watched again.
    errMark = dev.err().length;
    rmSync(path.dirname(main), { recursive: true });
    await waitFor(/MCPG286 [^\n]*does not exist/, errMark, 'err');
    mark = dev.out().length;
    mkdirSync(path.dirname(main));
    writeFileSync(html, page.replace('Waiting for the result…', 'Back…'));
    writeFileSync(main, source);
    await waitFor(/✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);
    expect((await view(url)).includes('Back…')).toBe(true);
    mark = dev.out().length;
    writeFileSync(main, `${source}\nconsole.log('edited after the checkout');\n`);
    await waitFor(/✔ serving at \S+ \(\d+\.\d\d s after the change\)/, mark);
    expect((await view(url)).includes('edited after the checkout')).toBe(true);
  } finally {
    expect(await dev.stop()).toBe(0);
  }
}, 300_000);
