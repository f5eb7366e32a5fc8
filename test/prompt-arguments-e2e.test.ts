/**
 * prompts/list shows each prompt argument as the manifest declares it, on the wire: `title`,
 * `default` and keys MCP does not define pass through as written (the SDK client would strip them,
 * so the list is read as raw JSON-RPC over stdio). Case test/cases/prompt-argument-keys.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch } from './helpers/project.js';

let dir = '';

beforeAll(async () => {
  dir = scratch('prompt-argument-keys', path.join(REPO, 'test/cases/prompt-argument-keys'));
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  const tsc = await buildServer(dir);
  expect(tsc.stdout + tsc.stderr).toBe('');
}, 180_000);

/** Sends `messages` one per line to the built server and collects the answers to those with an id. */
async function exchange(messages: object[]): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const wanted = messages.filter((m) => 'id' in m).length;
  const answers: Record<string, unknown>[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer within 15 s')), 15_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      answers.push(JSON.parse(line) as Record<string, unknown>);
      if (answers.length === wanted) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
  try {
    await done;
  } finally {
    child.kill();
  }
  return answers;
}

describe('prompt arguments on the wire', () => {
  it('are listed as declared, vendor keys and default included, on 2025 and 2026-07-28', async () => {
    const expected = [
      { name: 'city', title: 'City', description: 'The city visited', required: true, 'x-example': 'Paris' },
      {
        name: 'style',
        description: 'How the report reads',
        default: 'short',
        'com.example/ui': { widget: 'select', options: ['short', 'long'] },
      },
    ];
    const legacy = await exchange([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} },
    ]);
    expect((legacy[1]!.result as { prompts: { arguments: unknown }[] }).prompts[0]!.arguments).toEqual(expected);
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await exchange([{ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { _meta: envelope } }]);
    expect((modern[0]!.result as { prompts: { arguments: unknown }[] }).prompts[0]!.arguments).toEqual(expected);
  });

  it('the default fills the placeholder when the argument is left out', async () => {
    const answers = await exchange([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'trip_report', arguments: { city: 'Oslo' } } },
    ]);
    expect(answers[1]!.result).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Write a short report on a trip to Oslo.' } }],
    });
  });
});
