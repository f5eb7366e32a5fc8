import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateCommand } from '../cli/commands/validate.js';
import type { Diagnostic } from '../cli/diagnostics.js';
import type { CliIO } from '../cli/io.js';
import { loadManifest } from '../cli/load/load.js';
import type { LoadedManifest } from '../cli/load/types.js';
import { findPlaceholders } from '../cli/manifest/placeholders.js';
import { parseUriTemplate } from '../cli/manifest/uri-template.js';
import { runCli } from '../cli/main.js';
import { checkRefCycles } from '../cli/validate/checks/ref-cycles.js';
import { suggest } from '../cli/validate/suggest.js';
import { validateManifest } from '../cli/validate/validate.js';
import { memoryIO, scratch } from './helpers/project.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-validate-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function manifest(yaml: string, files: Record<string, string> = {}): LoadedManifest {
  const dir = path.join(tmp, `case-${n++}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), yaml);
  const { manifest: m, diagnostics } = loadManifest(path.join(dir, 'mcpgen.yaml'), 'mcpgen.yaml');
  expect(diagnostics).toEqual([]);
  return m!;
}

const HEAD = 'version: 1\nserver: { name: demo, version: 0.1.0 }\n';
const validate = (yaml: string, files?: Record<string, string>): Diagnostic[] =>
  validateManifest(manifest(HEAD + yaml, files));
const brief = (ds: Diagnostic[]): string[] => ds.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);

describe('schema diagnostics', () => {
  test('a minimal manifest is valid', () => {
    expect(validate('')).toEqual([]);
  });

  test('diagnostics carry file, range, JSON pointer and entry', () => {
    const [d] = validate('tools:\n  get.x:\n    titel: X\n');
    expect(d).toEqual({
      code: 'MCPG110',
      severity: 'error',
      message: 'unknown key `titel` in tool `get.x`; did you mean `title`?',
      file: 'mcpgen.yaml',
      line: 5,
      column: 5,
      endLine: 5,
      endColumn: 10,
      path: '/tools/get.x/titel',
      entry: 'get.x',
    });
    const [e] = validate('tools:\n  t:\n    input: { type: object, properties: { "a/b~": { type: strin } } }\n');
    expect(e).toMatchObject({
      code: 'MCPG203',
      path: '/tools/t/input/properties/a~1b~0/type',
      entry: 't',
      line: 5,
      column: 58,
    });
  });

  test('collects every problem, sorted by position', () => {
    const ds = validate(
      'tools:\n  a: { title: 1 }\n  b: { titl: x }\nprompts:\n  p: { messages: [{ role: bot, text: hi }] }\n',
    );
    expect(brief(ds)).toEqual([
      '4:15 MCPG111 `title`: expected a string, got the number 1',
      '5:8 MCPG110 unknown key `titl` in tool `b`; did you mean `title`?',
      '7:27 MCPG113 `role`: expected `user` or `assistant`, got the string "bot"',
    ]);
  });

  test('unions report the branch that matters', () => {
    expect(brief(validate('transports: { http: { port: "80" } }\n'))).toEqual([
      '3:29 MCPG111 `port`: expected an integer, got the string "80"',
    ]);
    expect(brief(validate('transports: { http: 3000 }\n'))).toEqual([
      '3:21 MCPG111 `http`: expected a mapping or `false`, got the number 3000',
    ]);
    expect(brief(validate('transports: { http: false, stdio: {} }\n'))).toEqual([]);
  });

  test('exactly-one-of keys', () => {
    const ds = validate(
      'prompts:\n  p:\n    messages:\n      - { role: user, text: a, audio: { data: AAAA, mimeType: audio/wav } }\n',
    );
    expect(ds.map((d) => d.code)).toEqual(['MCPG117']);
    expect(ds[0]!.message).toBe(
      'message 1 of prompt `p` has both `text` and `audio`: use exactly one of `text`, `image`, `audio` or `resource`',
    );
  });

  test('booleans written as yes/no get a hint', () => {
    const [d] = validate('options: { headerVersion: no }\n');
    expect(d!.message).toBe('`headerVersion`: expected true or false, got the string "no"');
    expect(d!.hint).toBe('write false: YAML 1.2 reads no as text');
  });
});

describe('semantic checks', () => {
  test('a recursive tree is valid (with the MCPG207 warning); pure ref cycles are not', () => {
    const tree =
      'schemas:\n  Tree: { type: object, properties: { kids: { type: array, items: { $ref: "#/schemas/Tree" } } } }\n';
    expect(brief(validate(tree))).toEqual([
      '4:3 MCPG207 schema `Tree` refers to itself, so it cannot be inlined: schemas that use it advertise it under `$defs` with a `$ref`',
    ]);
    const cyc = manifest(
      HEAD +
        'schemas:\n  A: { $ref: "#/schemas/B" }\n  B: { oneOf: [{ $ref: "#/schemas/C" }] }\n  C: { not: { $ref: "#/schemas/A" } }\n',
    );
    expect(checkRefCycles(cyc).map((d) => d.message)).toEqual([
      '`$ref` cycle never reaches a schema: #/schemas/A → #/schemas/B → #/schemas/C → #/schemas/A',
    ]);
  });

  test('a root $ref to an object schema satisfies the tool root rule', () => {
    const yaml =
      'schemas:\n  In: { type: object, properties: { q: { type: string } } }\ntools:\n  t: { input: { $ref: "#/schemas/In" } }\n';
    expect(validate(yaml)).toEqual([]);
  });

  test('required check leaves composed schemas alone', () => {
    const yaml =
      'schemas:\n  Base: { type: object, properties: { id: { type: string } } }\ntools:\n  t:\n    input:\n      type: object\n      allOf: [{ $ref: "#/schemas/Base" }]\n      required: [id]\n';
    expect(validate(yaml)).toEqual([]);
  });

  test('files: text vs base64 encodings, inside symlinks', () => {
    const files = { 'a.txt': 'hello', 'b.bin': '\u0000\u0001' };
    expect(
      validate(
        'resources:\n  a: { uri: "x://a", file: a.txt, encoding: text }\n  b: { uri: "x://b", file: b.bin, encoding: base64 }\n',
        files,
      ),
    ).toEqual([]);
    const ds = validate('resources:\n  b: { uri: "x://b", file: b.bin, encoding: text }\n', files);
    expect(ds.map((d) => d.code)).toEqual(['MCPG244']);
  });

  test('exploded template variables may be lists', () => {
    expect(
      validate('resourceTemplates:\n  f: { uriTemplate: "x://f{/path*}", params: { path: { type: array } } }\n'),
    ).toEqual([]);
  });

  test('never throws on data of the wrong shape', () => {
    const shapes = [
      'tools: 5',
      'tools: { a: null, b: [], c: "x" }',
      'tools: { a: { input: [], output: 5, annotations: [] } }',
      'schemas: { A: [], B: 5, C: { $ref: 5 }, D: { properties: [], required: {} } }',
      'resources: { r: { uri: 5, file: 7, text: [] }, s: null }',
      'resourceTemplates: { t: { uriTemplate: 5, params: [], complete: 3 }, u: { uriTemplate: "x://{a}", params: { a: 5 } } }',
      'prompts: { p: { arguments: [], messages: [null, 5, "x", { text: 5 }, { image: { file: 5 } }] } }',
      'transports: []',
      'transports: { stdio: false, http: null }',
      'options: 5',
    ];
    for (const s of shapes) {
      const ds = validate(`${s}\n`);
      expect(ds.length, s).toBeGreaterThan(0);
      for (const d of ds) {
        expect(d.line, s).toBeGreaterThanOrEqual(1);
        expect(d.column, s).toBeGreaterThanOrEqual(1);
        expect(d.path, s).toMatch(/^(\/|$)/);
      }
    }
  });

  test('works on a hand-built manifest (no YAML positions)', () => {
    const m: LoadedManifest = {
      file: 'inline.yaml',
      absPath: path.join(tmp, 'inline.yaml'),
      dir: tmp,
      source: '',
      data: {
        version: 1,
        server: { name: 'x', version: '1.0.0' },
        resourceTemplates: { t: { uriTemplate: 'x://{a b}' } },
      },
      locate: () => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }),
    };
    expect(validateManifest(m).map((d) => d.code)).toEqual(['MCPG220']);
  });
});

describe('RFC 6570 URI templates', () => {
  test('variables with operators, explode and prefix', () => {
    const { variables, errors } = parseUriTemplate('x://{host}{/path*}{?q,lang:2}{#frag}{+raw}{;p}{.ext}{&more}');
    expect(errors).toEqual([]);
    expect(variables.map((v) => [v.name, v.operator, v.explode, v.prefix])).toEqual([
      ['host', '', false, undefined],
      ['path', '/', true, undefined],
      ['q', '?', false, undefined],
      ['lang', '?', false, 2],
      ['frag', '#', false, undefined],
      ['raw', '+', false, undefined],
      ['p', ';', false, undefined],
      ['ext', '.', false, undefined],
      ['more', '&', false, undefined],
    ]);
    expect(parseUriTemplate('x://{a.b}/{%41x}').errors).toEqual([]);
  });

  test.each([
    ['x://{a', '`{` is never closed', 4],
    ['x://a}', '`}` without a matching `{`', 5],
    ['x://{}', 'empty expression `{}`: name a variable, e.g. `{id}`', 4],
    ['x://{|a}', 'operator `|` is reserved by RFC 6570 and cannot be used', 5],
    ['x://{a:0}', 'prefix `:0` must be a number from 1 to 9999', 6],
    ['x://{a..b}', '`.` is not allowed in variable name `a..b` (use letters, digits, _ and single dots)', 7],
    ['x://{a,}', 'missing variable name', 7],
    ['x://a b', 'a space is not allowed in a URI template (percent-encode it as %20)', 5],
    ['x://%zz', '`%` must start a percent-escape like %20', 4],
    ['x://{a{b}', '`{` is never closed', 4],
  ])('%s', (template, message, start) => {
    expect(parseUriTemplate(template).errors[0]).toMatchObject({ message, start });
  });
});

test('placeholders', () => {
  expect(findPlaceholders('Hi {{ name }}, {{x}} {{}} {x} {{a b}}')).toEqual([
    { name: 'name', start: 3, end: 13 },
    { name: 'x', start: 15, end: 20 },
    { name: '', start: 21, end: 25 },
    { name: 'a b', start: 30, end: 37 },
  ]);
});

test('suggest', () => {
  expect(suggest('desciption', ['title', 'description'])).toBe('description');
  expect(suggest('uri_template', ['uriTemplate'])).toBe('uriTemplate');
  expect(suggest('inputSchema', ['input', 'output'])).toBe('input');
  expect(suggest('desc', ['title', 'description'])).toBe('description');
  expect(suggest('cors', ['port', 'path'])).toBeUndefined();
  expect(suggest('b', ['a'])).toBeUndefined();
  // Found by the fuzzer: a 2.7 MB string where a type name belongs was compared cell by cell
  // (minutes). No candidate is within reach of a word that long, and none is measured.
  expect(
    suggest('\\'.repeat(2_700_000), ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']),
  ).toBeUndefined();
  expect(suggest('strin', ['string', 'number'])).toBe('string');
});

describe('validateCommand', () => {
  function io(cwd: string): CliIO & { err: () => string } {
    let err = '';
    return { cwd, stdout: () => {}, stderr: (t) => void (err += t), isTTY: false, env: {}, err: () => err };
  }

  test('warnings only: exit 0, listed, counted in the summary', async () => {
    const dir = path.join(tmp, 'warn');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      HEAD +
        'resources:\n  r: { uri: "x://r", text: hi, encoding: text, mimeType: text/plain, description: The r resource }\n',
    );
    const out = io(dir);
    expect(await validateCommand({}, out)).toBe(0);
    expect(out.err()).toBe(
      [
        'mcpgen.yaml:4:32: warning MCPG213 `encoding` of resource `r` has no effect: it only applies to `file` content',
        ' 4 |   r: { uri: "x://r", text: hi, encoding: text, mimeType: text/plain, description: The r resource }',
        '   |                                ^^^^^^^^',
        '✔ mcpgen.yaml is valid (1 warning)',
        '',
      ].join('\n'),
    );
  });

  test('found in a parent folder: paths relative to cwd', async () => {
    const dir = path.join(tmp, 'parent');
    fs.mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'mcpgen.yaml'),
      `${HEAD}tools: { t: { titel: x, description: Does the t thing } }\n`,
    );
    const out = io(path.join(dir, 'src', 'deep'));
    expect(await validateCommand({}, out)).toBe(1);
    expect(out.err()).toBe(
      [
        '../../mcpgen.yaml:3:15: error MCPG110 unknown key `titel` in tool `t`; did you mean `title`?',
        ' 3 | tools: { t: { titel: x, description: Does the t thing } }',
        '   |               ^^^^^',
        '✖ 1 error in ../../mcpgen.yaml',
        '',
      ].join('\n'),
    );
  });

  test('a one-character description: "1 character"', async () => {
    const dir = scratch('validate-one-character');
    fs.writeFileSync(path.join(dir, 'mcpgen.yaml'), `${HEAD}tools: { t: { description: x } }\n`);
    const io = memoryIO(dir);
    expect(await runCli(['validate'], io)).toBe(0);
    expect(io.err).toContain('description of tool `t` is too short (1 character; at least 10)');
  });

  test('-f relative to cwd; usage errors exit 2', async () => {
    const dir = path.join(tmp, 'flag');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'server.yml'), HEAD);
    const ok = io(dir);
    expect(await validateCommand({ file: 'server.yml' }, ok)).toBe(0);
    expect(ok.err()).toBe('✔ server.yml is valid\n');
    const bad = io(dir);
    expect(await validateCommand({ file: 'nope.yml' }, bad)).toBe(2);
    expect(bad.err()).toBe(
      'mcpgen: manifest nope.yml does not exist: run `mcpgen init` to create one, or pass -f <file>\n',
    );
  });
});

/*
 * A manifest path that is no readable file (a folder, a FIFO, a symbolic link that loops or leads
 * nowhere), given with -f or found as mcpgen.yaml: every command that reads the manifest says what
 * is there and exits 2 (an environment or usage error, not a problem in the manifest), without
 * opening a FIFO (which would block until a writer comes).
 */
const COMMANDS = ['validate', 'generate', 'diff', 'build'] as const;
const hasFifo = process.platform !== 'win32';

async function cli(cwd: string, ...args: string[]) {
  const io = memoryIO(cwd);
  const code = await runCli(args, io);
  return { code, err: io.err, out: io.out };
}

describe('two manifests in one run', () => {
  // commander keeps the last value: the first manifest, broken, went unchecked and CI passed.
  test('-f given twice, or a manifest as an argument, is a usage error saying to pass one with -f', async () => {
    const dir = scratch('validate-two-f');
    fs.mkdirSync(path.join(dir, 'a'));
    fs.mkdirSync(path.join(dir, 'b'));
    fs.writeFileSync(path.join(dir, 'a/mcpgen.yaml'), `${HEAD}tools: { t: { titel: x } }\n`);
    fs.writeFileSync(path.join(dir, 'b/mcpgen.yaml'), HEAD);
    for (const args of [
      ['validate', '-f', 'a/mcpgen.yaml', '-f', 'b/mcpgen.yaml'],
      ['validate', '--format', 'github', '--file=a/mcpgen.yaml', '--file', 'b/mcpgen.yaml'],
      ['generate', '--check', '-f', 'a/mcpgen.yaml', '-f', 'b/mcpgen.yaml'],
      ['diff', '-f', 'a/mcpgen.yaml', '-f', 'b/mcpgen.yaml'],
    ]) {
      const r = await cli(dir, ...args);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: '' });
      expect(r.err).toBe(
        `mcpgen: -f/--file given twice (a/mcpgen.yaml, then b/mcpgen.yaml): mcpgen ${args[0]} takes one; run it once per manifest\n`,
      );
    }
    // As a linter takes files: said to pass it with -f, not counted as too many arguments.
    for (const command of ['validate', 'generate', 'diff']) {
      const r = await cli(dir, command, 'a/mcpgen.yaml');
      expect({ command, code: r.code, out: r.out }).toEqual({ command, code: 2, out: '' });
      expect(r.err).toBe(
        `mcpgen: ${command} takes no arguments (got "a/mcpgen.yaml"): pass the manifest with -f: mcpgen ${command} -f a/mcpgen.yaml\n`,
      );
    }
    expect((await cli(dir, 'generate', '--check', 'HEAD')).err).toBe(
      'mcpgen: generate takes no arguments (got "HEAD"): it works on one manifest, passed with -f <file> (default: mcpgen.yaml here or above)\n',
    );
    const revisions = await cli(dir, 'diff', 'HEAD~1', 'HEAD');
    expect(revisions.code).toBe(2);
    expect(revisions.err).toMatch(
      /^mcpgen: diff takes no arguments \(got "HEAD~1" "HEAD"\): it works on one manifest, passed with -f <file>/,
    );
    const format = await cli(dir, 'validate', '-f', 'b/mcpgen.yaml', '--format', 'github', '--format', 'sarif');
    expect(format.code).toBe(2);
    expect(format.err).toBe(
      'mcpgen: --format given twice (github, then sarif): mcpgen validate takes one; give it once\n',
    );
  });
});

function mkfifo(p: string): void {
  execFileSync('mkfifo', [p]);
}

describe('-f naming no readable file', () => {
  const dir = scratch('file-kind-flag');
  fs.mkdirSync(path.join(dir, 'server'));
  fs.symlinkSync('loop-b.yaml', path.join(dir, 'loop-a.yaml'));
  fs.symlinkSync('loop-a.yaml', path.join(dir, 'loop-b.yaml'));
  fs.symlinkSync('gone.yaml', path.join(dir, 'dangling.yaml'));
  if (hasFifo) mkfifo(path.join(dir, 'pipe.yaml'));
  const cases: [string, RegExp][] = [
    ['server', /server is a folder, not a manifest file: pass the manifest in it, e\.g\. -f server\/mcpgen\.yaml/],
    ['loop-a.yaml', /loop-a\.yaml is a symbolic link that loops/],
    ['dangling.yaml', /dangling\.yaml is a symbolic link to gone\.yaml, which does not exist/],
    ...(hasFifo ? ([['pipe.yaml', /pipe\.yaml is a FIFO \(named pipe\), not a file/]] as [string, RegExp][]) : []),
  ];
  test.each(COMMANDS)('%s: exit 2, what is there', async (command) => {
    for (const [file, message] of cases) {
      const r = await cli(dir, command, '-f', file);
      expect({ file, code: r.code }).toEqual({ file, code: 2 });
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/MCPG90|internal error|\n\s+at /);
    }
  });
});

describe('mcpgen.yaml found in the folder, but no readable file', () => {
  const make: [string, (p: string) => void, RegExp][] = [
    ['folder', (p) => fs.mkdirSync(p), /^(error|mcpgen): mcpgen\.yaml is a folder, not a manifest file/],
    ['loop', (p) => fs.symlinkSync('mcpgen.yaml', p), /^(error|mcpgen): mcpgen\.yaml is a symbolic link that loops/],
    ...(hasFifo
      ? ([['fifo', mkfifo, /^(error|mcpgen): mcpgen\.yaml is a FIFO \(named pipe\), not a file/]] as [
          string,
          (p: string) => void,
          RegExp,
        ][])
      : []),
  ];
  test.each(make)('%s: every command names it, exit 2', async (name, create, message) => {
    const dir = scratch(`file-kind-found-${name}`);
    create(path.join(dir, 'mcpgen.yaml'));
    for (const command of COMMANDS) {
      const r = await cli(dir, command);
      expect({ command, code: r.code }).toEqual({ command, code: 2 });
      expect(r.err).toMatch(message);
    }
  });

  test('a usable mcpgen.yml beside a folder named mcpgen.yaml is the manifest', async () => {
    const dir = scratch('file-kind-found-yml');
    fs.mkdirSync(path.join(dir, 'mcpgen.yaml'));
    fs.writeFileSync(path.join(dir, 'mcpgen.yml'), 'version: 1\nserver: { name: x, version: 0.1.0 }\n');
    const r = await cli(dir, 'validate');
    expect(r.err).toContain('mcpgen.yml is valid');
    expect(r.code).toBe(0);
  });
});

describe.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('a manifest without read permission', () => {
  test.each(COMMANDS)('%s: cannot open …: permission denied, exit 2', async (command) => {
    const dir = scratch(`file-kind-unreadable-${command}`);
    const file = path.join(dir, 'mcpgen.yaml');
    fs.writeFileSync(file, 'version: 1\nserver: { name: x, version: 0.1.0 }\n');
    fs.chmodSync(file, 0o000);
    const r = await cli(dir, command);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot open .*mcpgen\.yaml: permission denied \(EACCES\)/);
  });
});
