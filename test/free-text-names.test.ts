/**
 * Names and keys as real servers declare them (test/cases/free-text-names): free-text resource and
 * template names, and vendor keys in annotations and icons. The generated project compiles, the
 * real client lists and reads every entry under its exact name, and the raw wire carries the
 * vendor keys verbatim (the SDK client strips keys its schemas do not know, so it cannot see them).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, connectStdio, memoryIO, REPO, scratch } from './helpers/project.js';

const CASE = path.join(REPO, 'test/cases/free-text-names');

/** Sends JSON-RPC lines to the built server over stdio and collects the answers by id (bounded). */
async function rawSession(dir: string, requests: object[]): Promise<Map<number, { result?: Record<string, unknown> }>> {
  const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = new Map<number, { result?: Record<string, unknown> }>();
  const want = requests.filter((r) => 'id' in r).length;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to every request within 10 s: ${[...answers.keys()].join(',')}`)),
        10_000,
      );
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const msg = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
        if (typeof msg.id === 'number') answers.set(msg.id, msg);
        if (answers.size === want) clearTimeout(timer), resolve();
      });
      for (const r of requests) child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...r })}\n`);
    });
  } finally {
    child.kill();
  }
  return answers;
}

describe('free-text names and vendor keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = scratch('free-text-names', CASE);
    const io = memoryIO(dir);
    expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
    const r = await buildServer(dir);
    expect(r.stdout + r.stderr).toBe('');
  });

  it('validate warns about each vendor key, at its position, and nothing else', async () => {
    const io = memoryIO(dir);
    expect(await runCli(['validate', '--format', 'json'], io)).toBe(0);
    const found = (JSON.parse(io.out) as { code: string; line: number; message: string }[]).map(
      (d) => `${d.line} ${d.code} ${d.message.split(' is not')[0]}`,
    );
    expect(found).toEqual([
      '8 MCPG320 `x-brand` in icon 1 of the server',
      '12 MCPG320 `category` in the annotations of tool `search_issues`',
      '12 MCPG320 `com.example/group` in the annotations of tool `search_issues`',
      '13 MCPG320 `brandColor` in icon 1 of tool `search_issues`',
      '19 MCPG320 `owner` in the annotations of resource `Application logs`',
    ]);
  });

  it('the wire carries names and vendor keys as written', async () => {
    const answers = await rawSession(dir, [
      {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      },
      { method: 'notifications/initialized' },
      { id: 2, method: 'tools/list' },
      { id: 3, method: 'resources/list' },
      { id: 4, method: 'resources/templates/list' },
    ]);
    expect((answers.get(1)!.result!.serverInfo as { icons: unknown }).icons).toEqual([
      { src: 'https://example.com/icon.png', mimeType: 'image/png', 'x-brand': 'acme' },
    ]);
    const [tool] = answers.get(2)!.result!.tools as Record<string, unknown>[];
    expect(tool!.annotations).toEqual({
      title: 'Search issues',
      readOnlyHint: true,
      category: 'issues',
      'com.example/group': 'search',
    });
    expect(tool!.icons).toEqual([{ src: 'https://example.com/search.png', brandColor: '#ffffff' }]);
    const resources = answers.get(3)!.result!.resources as { name: string; annotations?: unknown }[];
    expect(resources.map((r) => r.name).sort()).toEqual(
      ['Application logs', 'Café menu', 'Kitchen "sink" */ ${oops} `tick` \\', 'Журнал', '日志'].sort(),
    );
    expect(resources.find((r) => r.name === 'Application logs')!.annotations).toEqual({
      audience: ['user'],
      owner: 'ops',
    });
    expect((answers.get(4)!.result!.resourceTemplates as { name: string }[]).map((t) => t.name)).toEqual([
      'Open pull requests',
    ]);
  });

  it('a real client reads every resource and the template under their names', async () => {
    const client = await connectStdio(dir);
    try {
      const menu = await client.readResource({ uri: 'menu://cafe' });
      expect(menu.contents).toEqual([{ uri: 'menu://cafe', mimeType: 'text/plain', text: 'coffee' }]);
      // Handler stubs answer "not implemented: edit <their file>": each name reached its own handler.
      const files: string[] = [];
      for (const uri of ['logs://app', 'sink://text', 'logs://zh', 'logs://ru', 'repo://octo/cat/pulls']) {
        const err = await client.readResource({ uri }).then(
          () => new Error('read succeeded'),
          (e: Error) => e,
        );
        files.push(/edit (\S+)/.exec(err.message)?.[1] ?? err.message);
      }
      expect(new Set(files).size).toBe(5);
      expect(files.every((f) => f.startsWith('src/handlers/'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
