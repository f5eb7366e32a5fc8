/**
 * The stdio transport's answer to a line over its limit: the line's own id when it can be read as
 * the bytes stream by (never holding the line), null when it cannot. Lines are fed whole, byte by
 * byte and in odd splits, so every state of the id scan is crossed at a chunk boundary.
 */
import { Buffer } from 'node:buffer';
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { IdScanner, StdioTransport } from '../src/stdio-transport.js';

const LIMIT = 64;
const pad = 'x'.repeat(200);
const tooLong = (id: string | number | null) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32600,
    message: `Invalid Request: message longer than ${LIMIT} bytes (0 MiB), the stdio line limit; skipped up to its newline`,
  },
});

/** A transport on in-memory streams: what it answers, and what it delivers. */
async function transport() {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new StdioTransport(input, output, { maxLineBytes: LIMIT });
  const delivered: unknown[] = [];
  t.onmessage = (message) => delivered.push(message);
  await t.start();
  let text = '';
  output.on('data', (d: Buffer) => (text += d.toString('utf8')));
  const answers = async () => {
    await turn();
    await turn();
    const lines = text.split('\n').filter(Boolean);
    text = '';
    return lines.map((line) => JSON.parse(line) as unknown);
  };
  return { input, t, delivered, answers };
}

/** The id a scan of `line` reads, fed in pieces of `size` bytes. */
function scanned(line: string, size: number): { done: boolean; id: unknown } {
  const scan = new IdScanner();
  const bytes = Buffer.from(line);
  for (let i = 0; i < bytes.length && !scan.done; i += size) scan.feed(bytes.subarray(i, i + size));
  return { done: scan.done, id: scan.id };
}

describe('IdScanner', () => {
  const cases: [string, string, string | number | null][] = [
    ['id first (string)', `{"jsonrpc":"2.0","id":"big-1","method":"ping","params":{"p":"${pad}"}}`, 'big-1'],
    [
      'id after params, as the TypeScript SDK writes it',
      `{"method":"tools/call","params":{"p":"${pad}"},"jsonrpc":"2.0","id":7}`,
      7,
    ],
    ['a negative id, spaces around', `{ "id" : -3 , "method":"ping"}`, -3],
    ['an id as the last member', `{"method":"ping","params":{},"id":12}`, 12],
    ['an id with escapes and non-ASCII', `{"id":"a\\"b\\\\c é","method":"ping"}`, 'a"b\\c é'],
    ['a member name written with escapes', `{"\\u0069\\u0064":"esc","method":"ping"}`, 'esc'],
    [
      '"id" members inside params and inside strings are not the id',
      `{"params":{"id":1,"list":[{"id":2}],"text":"\\"id\\":3 ${pad}","k\\"id":4},"note":"}{][","id":"outer"}`,
      'outer',
    ],
    ['no id (a notification)', `{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${pad}"}}`, null],
    ['id null', `{"id":null,"method":"ping"}`, null],
    ['id true', `{"id":true,"method":"ping"}`, null],
    ['id 1.5', `{"id":1.5,"method":"ping"}`, null],
    ['id 01 (not JSON)', `{"id":01,"method":"ping"}`, null],
    ['id an object', `{"id":{"a":1},"method":"ping"}`, null],
    ['an id followed by what is not JSON', `{"id":5 6,"method":"ping"}`, null],
    ['a batch', `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, null],
    ['not JSON', `id: 5 ${pad}`, null],
    ['an id longer than 4096 bytes', `{"id":"${'i'.repeat(5000)}","method":"ping"}`, null],
    ['a long member name, then the id', `{"${'k'.repeat(100)}":1,"id":"after"}`, 'after'],
  ];
  it.each(cases)('%s', (_name, line, id) => {
    for (const size of [1, 2, 3, 7, 64, line.length]) {
      const result = scanned(line, size);
      expect(result, `in pieces of ${size}`).toEqual({ done: true, id });
    }
  });

  it('waits while the top-level object goes on without an id', () => {
    expect(scanned(`{"method":"ping","params":{"p":"${pad}`, 5)).toEqual({ done: false, id: null });
    // Stopped inside an id: not read until it is confirmed by what follows.
    expect(scanned(`{"id":12`, 1)).toEqual({ done: false, id: null });
    expect(scanned(`{"id":"s"`, 1)).toEqual({ done: false, id: null });
  });
});

describe('StdioTransport: a line over maxLineBytes', () => {
  it('answers at once with the id when the id comes first, and goes on', async () => {
    const { input, delivered, answers } = await transport();
    input.write(`{"jsonrpc":"2.0","id":"big-1","method":"ping","params":{"p":"${pad}`);
    expect(await answers()).toEqual([tooLong('big-1')]);
    input.write(`${pad}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await answers()).toEqual([]);
    expect(delivered).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('answers with an id written after the params once it streams by', async () => {
    const { input, delivered, answers } = await transport();
    const line = `{"method":"tools/call","params":{"name":"t","arguments":{"p":"${pad}\\"id\\":9"}},"jsonrpc":"2.0","id":42}`;
    for (const byte of Buffer.from(line)) input.write(Buffer.from([byte]));
    expect(await answers()).toEqual([tooLong(42)]);
    input.write('\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    expect(await answers()).toEqual([]);
    expect(delivered).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });

  it('answers id null at the newline when the line has no readable id', async () => {
    const { input, answers } = await transport();
    input.write(`{"jsonrpc":"2.0","method":"ping","params":{"p":"${pad}`);
    expect(await answers()).toEqual([]);
    input.write('"}\n');
    expect(await answers()).toEqual([tooLong(null)]);
    input.write(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping","params":{"p":"${pad}"}}\n`);
    expect(await answers()).toEqual([tooLong(null)]);
  });

  it('answers a line cut off by the end of input', async () => {
    const { input, answers } = await transport();
    input.write(`{"jsonrpc":"2.0","method":"ping","params":{"p":"${pad}`);
    input.end();
    expect(await answers()).toEqual([tooLong(null)]);
  });

  it('answers a line held under the limit, then passing it, with its id', async () => {
    const { input, answers } = await transport();
    input.write('{"jsonrpc":"2.0",');
    input.write('"id":"held",');
    expect(await answers()).toEqual([]);
    input.write(`"method":"ping","params":{"p":"${pad}"}}\n`);
    expect(await answers()).toEqual([tooLong('held')]);
  });
});
