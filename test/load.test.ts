import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { UsageError } from '../cli/diagnostics.js';
import { findManifest, loadManifest, locateInString, MAX_MANIFEST_BYTES } from '../cli/load/index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-load-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** Write `content` to a fresh temp file and load it. */
function load(content: string | Buffer, name = 'mcpgen.yaml') {
  const dir = path.join(tmp, `case-${n++}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return loadManifest(file, name);
}

const codes = (r: ReturnType<typeof load>) => r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`);

describe('loadManifest: data and positions', () => {
  const source = [
    'version: 1', // 1
    'server:', // 2
    '  name: weather', // 3
    '  version: "0.1.0"', // 4
    'tools:', // 5
    '  get_forecast:', // 6
    '    annotations: &ro { readOnlyHint: true }', // 7
    '    input:', // 8
    '      type: object', // 9
    '      required: [city, days]', // 10
    '  other:', // 11
    '    annotations: *ro', // 12
    '    meta:', // 13
    '      <<: { a: 1 }', // 14
    '      b: 2', // 15
  ].join('\n');
  const { manifest, diagnostics } = load(source);

  test('loads into plain JSON data, aliases and merge keys resolved', () => {
    expect(diagnostics).toEqual([]);
    expect(manifest?.data).toEqual({
      version: 1,
      server: { name: 'weather', version: '0.1.0' },
      tools: {
        get_forecast: { annotations: { readOnlyHint: true }, input: { type: 'object', required: ['city', 'days'] } },
        other: { annotations: { readOnlyHint: true }, meta: { a: 1, b: 2 } },
      },
    });
    expect(manifest?.file).toBe('mcpgen.yaml');
    expect(path.isAbsolute(manifest!.absPath)).toBe(true);
    expect(manifest?.dir).toBe(path.dirname(manifest!.absPath));
  });

  test('locates values and keys (1-based, end exclusive)', () => {
    const m = manifest!;
    expect(m.locate(['server', 'name'])).toEqual({ line: 3, column: 9, endLine: 3, endColumn: 16 });
    expect(m.locate(['server', 'name'], { key: true })).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 7 });
    expect(m.locate(['server', 'version'])).toEqual({ line: 4, column: 12, endLine: 4, endColumn: 19 });
    expect(m.locate(['tools', 'get_forecast', 'input', 'required', 1])).toMatchObject({ line: 10, column: 24 });
    expect(m.locate(['tools', 'get_forecast'], { key: true })).toMatchObject({ line: 6, column: 3 });
    expect(m.locate(['tools', 'get_forecast', 'input'])).toEqual({ line: 9, column: 7, endLine: 10, endColumn: 29 });
  });

  test('follows aliases and merge keys into the anchored node', () => {
    const m = manifest!;
    expect(m.locate(['tools', 'other', 'annotations'])).toMatchObject({ line: 12, column: 18 });
    expect(m.locate(['tools', 'other', 'annotations', 'readOnlyHint'])).toMatchObject({ line: 7, column: 38 });
    expect(m.locate(['tools', 'other', 'meta', 'a'])).toMatchObject({ line: 14, column: 16 });
    expect(m.locate(['tools', 'other', 'meta', 'b'])).toMatchObject({ line: 15, column: 10 });
  });

  test('falls back to the nearest existing ancestor', () => {
    const m = manifest!;
    expect(m.locate(['tools', 'get_forecast', 'input', 'properties', 'city'])).toEqual(
      m.locate(['tools', 'get_forecast', 'input']),
    );
    expect(m.locate(['nope'])).toEqual(m.locate([]));
    expect(m.locate([])).toMatchObject({ line: 1, column: 1 });
    expect(m.locate(['server', 'name', 'deeper'], { key: true })).toEqual(m.locate(['server', 'name']));
  });
});

describe('locateInString', () => {
  const { manifest } = load(
    [
      'plain: weather://x/{a b}',
      'quoted: "weather://x/{a b}"',
      'escaped: "tab\\there {{x}}"',
      'block: |',
      '  line one',
      '  say {{name}} twice {{name}}',
    ].join('\n'),
  );
  const m = manifest!;
  test('plain and quoted scalars map offsets exactly', () => {
    expect(locateInString(m, ['plain'], 13, 14)).toEqual({ line: 1, column: 21, endLine: 1, endColumn: 22 });
    expect(locateInString(m, ['quoted'], 13, 14)).toEqual({ line: 2, column: 23, endLine: 2, endColumn: 24 });
  });
  test('escaped and block scalars find the snippet in the source', () => {
    const escaped = (m.data as { escaped: string }).escaped;
    const at = escaped.indexOf('{{x}}');
    expect(locateInString(m, ['escaped'], at, at + 5)).toEqual({ line: 3, column: 21, endLine: 3, endColumn: 26 });
    const text = (m.data as { block: string }).block;
    const second = text.lastIndexOf('{{name}}');
    expect(locateInString(m, ['block'], second, second + 8)).toEqual({
      line: 6,
      column: 22,
      endLine: 6,
      endColumn: 30,
    });
  });
  test('falls back to the whole node', () => {
    expect(locateInString(m, ['missing'], 0, 1)).toEqual(m.locate([]));
  });
});

describe('loadManifest: problems become diagnostics, never throws', () => {
  test('missing file', () => {
    const r = loadManifest(path.join(tmp, 'nope.yaml'), 'nope.yaml');
    expect(r.manifest).toBeUndefined();
    expect(r.diagnostics).toMatchObject([
      { code: 'MCPG900', severity: 'error', file: 'nope.yaml', line: 1, column: 1 },
    ]);
  });

  test('directory', () => {
    const r = loadManifest(tmp, 'tmp');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['MCPG901']);
  });

  test.skipIf(!fs.existsSync('/dev/zero'))('not a regular file', () => {
    expect(loadManifest('/dev/zero', '/dev/zero').diagnostics).toMatchObject([
      { code: 'MCPG902', message: expect.stringMatching(/^\/dev\/zero is a character device, not a file/) },
    ]);
  });

  test('too large (checked before reading)', () => {
    const file = path.join(tmp, 'huge.yaml');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_MANIFEST_BYTES + 1); // sparse: costs no disk
    const r = loadManifest(file, 'huge.yaml');
    expect(r.diagnostics).toMatchObject([{ code: 'MCPG903' }]);
    expect(r.diagnostics[0]!.message).toContain('10 MiB');
  });

  test.skipIf(process.getuid?.() === 0)('unreadable', () => {
    const file = path.join(tmp, 'secret.yaml');
    fs.writeFileSync(file, 'version: 1\n');
    fs.chmodSync(file, 0o000);
    expect(loadManifest(file).diagnostics).toMatchObject([{ code: 'MCPG902' }]);
  });

  test('binary, invalid UTF-8 (with position) and UTF-16', () => {
    expect(codes(load(Buffer.from('version: 1\nx: \u0000\n')))).toEqual(['2:4 MCPG100']);
    expect(codes(load(Buffer.from([0x61, 0x3a, 0x20, 0xc3, 0x28])))).toEqual(['1:4 MCPG100']);
    expect(codes(load(Buffer.from('\ufeffversion: 1', 'utf16le')))).toEqual(['1:1 MCPG100']);
    expect(codes(load(Buffer.from([0x61, 0x3a, 0x20, 0xed, 0xa0, 0x80])))).toEqual(['1:4 MCPG100']); // a UTF-8-encoded surrogate
  });

  test('a UTF-8 BOM is skipped and does not shift columns', () => {
    const { manifest, diagnostics } = load(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('server: {name: x}\n')]),
    );
    expect(diagnostics).toEqual([]);
    expect(manifest!.locate(['server', 'name'])).toMatchObject({ line: 1, column: 16 });
  });

  test('empty, comments only, or not a mapping', () => {
    expect(codes(load(''))).toEqual(['1:1 MCPG105']);
    expect(codes(load('# nothing yet\n\n'))).toEqual(['1:1 MCPG105']);
    expect(codes(load('- a\n- b\n'))).toEqual(['1:1 MCPG106']);
    expect(codes(load('just text\n'))).toEqual(['1:1 MCPG106']);
    expect(codes(load('~\n'))).toEqual(['1:1 MCPG106']);
  });

  test('syntax errors: one per line, with a position and no data', () => {
    const r = load('a: 1\nb: [1, 2\nc: "open\n');
    expect(r.manifest).toBeUndefined();
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics.every((d) => d.code === 'MCPG101' && d.line >= 2)).toBe(true);
    expect(new Set(r.diagnostics.map((d) => d.line)).size).toBe(r.diagnostics.length);
  });

  test('duplicate keys are errors at the second key, but the data still loads', () => {
    const r = load('version: 1\nserver:\n  name: a\n  name: b\n');
    expect(r.diagnostics).toMatchObject([
      { code: 'MCPG103', line: 4, column: 3, message: 'duplicate key `name` (first defined on line 3)' },
    ]);
    expect(r.manifest?.data).toEqual({ version: 1, server: { name: 'b' } });
    // The data holds the later value, so the later one is where it is located; also through a merge.
    expect(r.manifest!.locate(['server', 'name'])).toMatchObject({ line: 4, column: 9 });
    const merged = load('base: &b\n  x: 1\n  x: 2\nuse:\n  <<: *b\n');
    expect(merged.manifest!.locate(['use', 'x'])).toMatchObject({ line: 3, column: 6 });
  });

  test('custom tags, undefined aliases, bad merges and complex keys stop loading', () => {
    expect(codes(load('a: !env HOME\n'))).toEqual(['1:4 MCPG104']);
    expect(codes(load('a: !!set {x}\n'))).toEqual(['1:4 MCPG104']);
    expect(codes(load('a: *nothing\n'))).toEqual(['1:4 MCPG101']);
    expect(codes(load('a:\n  <<: 5\n'))).toEqual(['2:7 MCPG101']);
    expect(codes(load('? [a, b]\n: 1\n'))).toEqual(['1:3 MCPG108']);
    expect(codes(load('a: &x\n  b: *x\n'))).toEqual(['2:6 MCPG101']); // circular
    expect(load('a: !env HOME\n').manifest).toBeUndefined();
  });

  test('standard tags are fine', () => {
    const r = load('a: !!str 123\nb: !!int "7"\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.manifest?.data).toEqual({ a: '123', b: 7 });
  });

  test('alias expansion is capped (billion laughs)', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    const r = load(lines.join('\n'));
    expect(codes(r)[0]).toMatch(/MCPG107$/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('more than one document', () => {
    expect(codes(load('a: 1\n---\nb: 2\n'))).toEqual(['2:1 MCPG101']);
  });

  test('the display name is used in every diagnostic', () => {
    const r = load('a: [\n');
    expect(r.diagnostics.every((d) => d.file === 'mcpgen.yaml')).toBe(true);
    const named = loadManifest(path.join(tmp, 'missing.yaml'), 'sub/missing.yaml');
    expect(named.diagnostics[0]!.file).toBe('sub/missing.yaml');
  });
});

describe('findManifest', () => {
  const root = path.join(tmp, 'find');
  const deep = path.join(root, 'a', 'b');
  fs.mkdirSync(deep, { recursive: true });

  test('explicit -f: resolved against cwd; missing is a usage error', () => {
    fs.writeFileSync(path.join(root, 'custom.yaml'), 'version: 1\n');
    expect(findManifest(root, 'custom.yaml')).toBe(path.join(root, 'custom.yaml'));
    expect(() => findManifest(root, 'other.yaml')).toThrow(UsageError);
    expect(() => findManifest(root, 'other.yaml')).toThrow('manifest other.yaml does not exist');
  });

  test('searches cwd, then parents; prefers mcpgen.yaml over mcpgen.yml', () => {
    fs.writeFileSync(path.join(root, 'mcpgen.yml'), 'version: 1\n');
    expect(findManifest(deep)).toBe(path.join(root, 'mcpgen.yml'));
    fs.writeFileSync(path.join(root, 'mcpgen.yaml'), 'version: 1\n');
    expect(findManifest(deep)).toBe(path.join(root, 'mcpgen.yaml'));
    fs.writeFileSync(path.join(deep, 'mcpgen.yml'), 'version: 1\n');
    expect(findManifest(deep)).toBe(path.join(deep, 'mcpgen.yml'));
  });

  test('none: a usage error that says what to do', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-none-'));
    try {
      expect(() => findManifest(empty)).toThrow(UsageError);
      expect(() => findManifest(empty)).toThrow(/mcpgen init.*-f/);
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });
});

describe('positions after syntax errors stay inside the file (found by the fuzz test)', () => {
  const inside = (source: string) => {
    const r = load(source);
    const lines = source.split('\n');
    for (const d of r.diagnostics) {
      expect(d.line).toBeLessThanOrEqual(lines.length);
      expect(d.column).toBeLessThanOrEqual(lines[d.line - 1]!.length + 1);
      expect(d.endLine!).toBeLessThanOrEqual(lines.length);
      expect(d.endColumn!).toBeLessThanOrEqual(lines[d.endLine! - 1]!.length + 1);
    }
    return r.diagnostics.map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code}`);
  };

  test('an unclosed flow mapping or quote at the end of the file', () => {
    // Reported where the bracket or quote opens, and nothing after it.
    expect(inside('version: 1\nserver: { name: x')).toEqual(['2:9-2:10 MCPG101']);
    expect(inside('version: 1\nserver:\n  name: "x')).toEqual(['3:9-3:10 MCPG101']);
    expect(inside('a: [1, "2]\nb: 1\n')).toEqual(['1:8-1:9 MCPG101']);
    expect(inside('a: { b: [1, 2 }\nc: 1\n')).toEqual(['1:9-1:10 MCPG101']);
    expect(inside('a: [1, 2]]\nb: 1\nc: 2\n')).toEqual(['1:10-1:11 MCPG101']);
  });

  test('a block scalar in the wrong place spans its own lines', () => {
    expect(inside('a:\n  - x\n  b: |\n    one\n\n    two\nc: 1\n')).not.toEqual([]);
  });
});

describe('UTF-8 check', () => {
  test("Node's isUtf8 (the fast check) agrees with firstInvalidUtf8 (which finds the byte)", async () => {
    const { isUtf8 } = await import('node:buffer');
    const { firstInvalidUtf8 } = await import('../cli/load/read.js');
    let s = 1;
    const r = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const pool = [
      0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5,
      0xff,
    ];
    for (let n = 0; n < 50_000; n++) {
      const b = Buffer.alloc(1 + Math.floor(r() * 8));
      for (let i = 0; i < b.length; i++)
        b[i] = r() < 0.7 ? pool[Math.floor(r() * pool.length)]! : Math.floor(r() * 256);
      expect(isUtf8(b), b.toString('hex')).toBe(firstInvalidUtf8(b) === -1);
    }
  });
  test('a NUL byte is reported before invalid UTF-8, at its own position, whichever comes first', async () => {
    const { decodeUtf8 } = await import('../cli/load/read.js');
    const at = (bytes: number[]) => {
      const d = decodeUtf8(Buffer.from(bytes), 'm.yaml').diagnostics[0];
      return d ? `${d.line}:${d.column} ${d.message}` : 'ok';
    };
    const a = 0x61;
    const nl = 0x0a;
    expect(at([a, nl, a, 0x00, a])).toBe('2:2 m.yaml is not a text file (it contains a NUL byte)');
    expect(at([a, nl, 0xff, nl, 0x00])).toBe('3:1 m.yaml is not a text file (it contains a NUL byte)');
    expect(at([a, 0x00, nl, 0xff])).toBe('1:2 m.yaml is not a text file (it contains a NUL byte)');
    expect(at([a, nl, a, 0xc3])).toBe('2:2 m.yaml is not valid UTF-8 (byte 0xc3)');
    expect(at([0xef, 0xbb, 0xbf, a, 0xc3, 0xa9])).toBe('ok');
  });
});
