/**
 * Output formats of `mcpgen validate` (cli/report), checked against what their consumers expect:
 * SARIF against the official OASIS 2.1.0 JSON Schema (test/fixtures/sarif/README.md says where it
 * comes from), GitHub workflow commands against the runner's escaping rules, the JSON shape as
 * documented, and the human format's code frames and colours.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsImport, { type FormatsPlugin } from 'ajv-formats';
import { afterAll, describe, expect, test } from 'vitest';
import { validateCommand, type ValidateOptions } from '../cli/commands/validate.js';
import type { Diagnostic } from '../cli/diagnostics.js';
import type { CliIO } from '../cli/io.js';
import { lintRules } from '../cli/lint/index.js';
import { runCli } from '../cli/main.js';
import { Codes } from '../cli/manifest/codes.js';
import { CODE_DESCRIPTIONS } from '../cli/report/code-descriptions.js';
import { githubUrl, helpUri } from '../cli/report/help-uri.js';
import { findRepositoryRoot } from '../cli/report/locations.js';
import { escapeData, escapeProperty, formatGithub } from '../cli/report/github.js';
import { codeFrame, formatStylish } from '../cli/report/stylish.js';
import { VERSION } from '../cli/version.js';

const addFormats: FormatsPlugin =
  (addFormatsImport as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsImport as unknown as FormatsPlugin);
const root = path.resolve(import.meta.dirname, '..');
const cases = path.join(root, 'test/cases');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-report-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function memoryIO(cwd: string, isTTY = false, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY, env };
  return { io, out: () => out, err: () => err };
}

async function validateIn(dir: string, opts: ValidateOptions, isTTY = false, env: Record<string, string> = {}) {
  const m = memoryIO(dir, isTTY, env);
  const code = await validateCommand(opts, m.io);
  return { code, stdout: m.out(), stderr: m.err() };
}

/** Cases whose reports together hold every kind of diagnostic: lint, schema, semantic, YAML, encoding, referenced files. */
const SAMPLE = [
  'invalid-lint-missing-description',
  'invalid-lint-unconstrained-input',
  'invalid-lint-uri-scheme-format',
  'invalid-schema-wrong-types',
  'invalid-resource-uris',
  'invalid-file-references',
  'invalid-yaml-syntax',
  'invalid-yaml-not-utf8',
  'invalid-unicode-names',
  'invalid-very-long-line',
];
const argsOf = (name: string): ValidateOptions => {
  const f = path.join(cases, name, 'args.json');
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as ValidateOptions) : {};
};

describe('sarif', () => {
  const schema = JSON.parse(
    fs.readFileSync(path.join(root, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'),
  ) as Record<string, unknown>;
  // draft-04 → draft-07 engine: only the root `id` keyword is spelled differently.
  schema.$id = schema.id;
  delete schema.id;
  delete schema.$schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  test('the schema is the official OASIS SARIF 2.1.0 one', () => {
    expect(schema.$id).toBe(
      'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    );
    expect(schema.title).toBe('Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema');
  });

  test('the schema does reject a broken log (the check has teeth)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] })).toBe(false);
    expect(
      validate({
        version: '2.1.0',
        runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }],
      }),
    ).toBe(false);
  });

  test.each(SAMPLE)('%s: valid SARIF 2.1.0 with rules and locations', async (name) => {
    const { code, stdout, stderr } = await validateIn(path.join(cases, name), { ...argsOf(name), format: 'sarif' });
    expect(stderr).toBe('');
    expect([0, 1]).toContain(code);
    const log = JSON.parse(stdout) as {
      version: string;
      runs: {
        tool: {
          driver: {
            name: string;
            rules: { id: string; name?: string; helpUri?: string; defaultConfiguration: { level: string } }[];
          };
        };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: Record<string, number> };
          }[];
        }[];
        originalUriBaseIds?: Record<string, { uri: string }>;
      }[];
    };
    expect(validate(log), ajv.errorsText(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('mcpgen');
    for (const r of lintRules) expect(run.tool.driver.rules.find((x) => x.id === r.code)?.name).toBe(r.id);
    for (const r of run.tool.driver.rules) expect(r.helpUri).toBe(helpUri(r.id));
    // Run in the case's folder, the manifest is named from the repository root, as code scanning needs.
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `${pathToFileURL(root).href}/` } });
    expect(run.results.length).toBeGreaterThan(0);
    for (const res of run.results) {
      expect(run.tool.driver.rules[res.ruleIndex]!.id).toBe(res.ruleId);
      expect(['error', 'warning', 'note']).toContain(res.level);
      const { region, artifactLocation } = res.locations[0]!.physicalLocation;
      expect(artifactLocation.uri).not.toMatch(/\\/);
      expect(artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(decodeURI(artifactLocation.uri)).toMatch(new RegExp(`^test/cases/${name}/[^/]+$`));
      expect(region.startLine).toBeGreaterThanOrEqual(1);
      expect(region.startColumn).toBeGreaterThanOrEqual(1);
      expect(region.endLine).toBeGreaterThanOrEqual(region.startLine!);
    }
  });

  test('opt-in rules are disabled by default in the rule metadata; warnings stay warnings', async () => {
    const { stdout } = await validateIn(path.join(cases, 'invalid-lint-resource-mime-type'), { format: 'sarif' });
    const run = (
      JSON.parse(stdout) as {
        runs: { tool: { driver: { rules: Record<string, unknown>[] } }; results: { level: string }[] }[];
      }
    ).runs[0]!;
    expect(run.tool.driver.rules.find((r) => r.id === Codes.LINT_UNCONSTRAINED_INPUT)!.defaultConfiguration).toEqual({
      level: 'warning',
      enabled: false,
    });
    expect(run.results.map((r) => r.level)).toEqual(['warning', 'warning']);
  });
});

describe('github', () => {
  test('escapes data (%, CR, LF) and properties (also : and ,) as the runner does', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('C:\\x,y%\n')).toBe('C%3A\\x%2Cy%25%0A');
  });

  test('one workflow command per diagnostic, every position property, severity → command', () => {
    const d = (over: Partial<Diagnostic>): Diagnostic => ({
      code: 'MCPG110',
      severity: 'error',
      message: 'bad: 50%, really\nsecond line',
      file: 'dir,x/my:file.yaml',
      line: 3,
      column: 5,
      endLine: 3,
      endColumn: 9,
      hint: 'fix it',
      ...over,
    });
    const out = formatGithub([
      d({}),
      d({ severity: 'warning', code: 'MCPG301' }),
      d({ severity: 'info', endLine: undefined, endColumn: undefined }),
    ]);
    expect(out.split('\n')).toEqual([
      '::error file=dir%2Cx/my%3Afile.yaml,line=3,col=5,endLine=3,endColumn=9,title=MCPG110::bad: 50%25, really%0Asecond line%0Ahint: fix it',
      '::warning file=dir%2Cx/my%3Afile.yaml,line=3,col=5,endLine=3,endColumn=9,title=MCPG301::bad: 50%25, really%0Asecond line%0Ahint: fix it',
      '::notice file=dir%2Cx/my%3Afile.yaml,line=3,col=5,endLine=3,endColumn=5,title=MCPG110::bad: 50%25, really%0Asecond line%0Ahint: fix it',
      '',
    ]);
  });

  test('round trip: unescaping the properties gives the diagnostic back', async () => {
    const { stdout, code } = await validateIn(
      path.join(cases, 'invalid-schema-wrong-types'),
      { format: 'github' },
      false,
      { GITHUB_WORKSPACE: root },
    );
    expect(code).toBe(1);
    const unescapeAnnotation = (s: string) =>
      s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const m = /^::(error|warning|notice) ([^:]*)::(.*)$/.exec(line);
      expect(m, line).not.toBeNull();
      const props = Object.fromEntries(
        m![2]!.split(',').map((p) => p.split('=').map(unescapeAnnotation) as [string, string]),
      );
      expect(Object.keys(props)).toEqual(['file', 'line', 'col', 'endLine', 'endColumn', 'title']);
      expect(props.file).toBe('test/cases/invalid-schema-wrong-types/mcpgen.yaml');
      expect(props.title).toMatch(/^MCPG\d{3}$/);
      expect(Number(props.line)).toBeGreaterThan(0);
    }
  });
});

describe('paths from the repository root (github, sarif)', () => {
  // A repository with the manifest in a subfolder: `.git` marks the root (a folder, or a file in a
  // worktree); git itself is not needed.
  const repo = path.join(tmp, 'repo');
  const server = path.join(repo, 'servers', 'my server');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(path.join(server, 'deeper'), { recursive: true });
  fs.writeFileSync(
    path.join(server, 'mcpgen.yaml'),
    'version: 1\nserver: { name: s, version: 1.0.0 }\ntools:\n  ping: { descripton: x }\n',
  );
  const files = (stdout: string): string[] =>
    [...stdout.matchAll(/ file=([^,]*),/g)].map((m) => m[1]!.replace(/%2C/g, ',').replace(/%3A/g, ':'));

  test('github, run from a subfolder of a git repository: file= is relative to the repository root', async () => {
    const here = await validateIn(server, { format: 'github' });
    expect(here.code).toBe(1);
    expect(new Set(files(here.stdout))).toEqual(new Set(['servers/my server/mcpgen.yaml']));
    // From below the manifest's folder (-f ..) and from the root: the same path.
    const below = await validateIn(path.join(server, 'deeper'), { format: 'github', file: '../mcpgen.yaml' });
    expect(below.stdout).toBe(here.stdout);
    const atRoot = await validateIn(repo, { format: 'github', file: 'servers/my server/mcpgen.yaml' });
    expect(atRoot.stdout).toBe(here.stdout);
    // The message names the unknown key.
    expect(here.stdout).toContain(
      'title=MCPG110::unknown key `descripton` in tool `ping`; did you mean `description`?',
    );
    // stylish and json keep paths relative to the working folder, for terminals and editors.
    const stylish = await validateIn(path.join(server, 'deeper'), { file: '../mcpgen.yaml' });
    expect(stylish.stderr).toMatch(/^\.\.\/mcpgen\.yaml:4:11: error MCPG110/m);
  });

  test('GITHUB_WORKSPACE wins; a worktree `.git` file counts; outside any repository, the working folder', async () => {
    const ws = await validateIn(server, { format: 'github' }, false, { GITHUB_WORKSPACE: path.join(repo, 'servers') });
    expect(new Set(files(ws.stdout))).toEqual(new Set(['my server/mcpgen.yaml']));
    expect(findRepositoryRoot(server, '/', { GITHUB_WORKSPACE: repo })).toBe(repo);
    expect(findRepositoryRoot(path.join(server, 'deeper'), '/', {})).toBe(repo);

    const worktree = path.join(tmp, 'worktree');
    fs.mkdirSync(path.join(worktree, 'a'), { recursive: true });
    fs.writeFileSync(path.join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/w\n');
    expect(findRepositoryRoot(path.join(worktree, 'a'), '/', {})).toBe(worktree);

    const loose = path.join(tmp, 'no-repo', 'sub');
    fs.mkdirSync(loose, { recursive: true });
    fs.copyFileSync(path.join(server, 'mcpgen.yaml'), path.join(loose, 'mcpgen.yaml'));
    expect(findRepositoryRoot(loose, path.dirname(loose), {})).toBe(path.dirname(loose));
    const plain = await validateIn(path.dirname(loose), { format: 'github', file: 'sub/mcpgen.yaml' });
    expect(new Set(files(plain.stdout))).toEqual(new Set(['sub/mcpgen.yaml']));
  });

  test.skipIf(process.platform === 'win32')(
    'GITHUB_WORKSPACE or -f through a symbolic link: still relative to the root',
    async () => {
      // The working folder is always a real path; the workspace or the manifest path may not be.
      const link = path.join(tmp, 'repo-link');
      fs.symlinkSync(repo, link);
      const lines = async (cwd: string, env: Record<string, string>, file: string) => {
        const m = memoryIO(cwd, false, env);
        const code = await runCli(['validate', '--format', 'github', '-f', file], m.io);
        return { code, files: new Set(files(m.out())) };
      };
      const expected = { code: 1, files: new Set(['servers/my server/mcpgen.yaml']) };
      expect(await lines(repo, { GITHUB_WORKSPACE: link }, 'servers/my server/mcpgen.yaml')).toEqual(expected);
      expect(await lines(repo, { GITHUB_WORKSPACE: repo }, path.join(link, 'servers/my server/mcpgen.yaml'))).toEqual(
        expected,
      );
    },
  );

  test('sarif: repository-relative uri under %SRCROOT%, resolved by originalUriBaseIds; outside the root, a file: URI', async () => {
    const { stdout } = await validateIn(path.join(server, 'deeper'), { format: 'sarif', file: '../mcpgen.yaml' });
    const run = (
      JSON.parse(stdout) as {
        runs: {
          originalUriBaseIds: Record<string, { uri: string }>;
          results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[];
        }[];
      }
    ).runs[0]!;
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: `${pathToFileURL(repo).href}/` } });
    const locations = run.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation);
    expect(locations.length).toBeGreaterThan(0);
    for (const l of locations) expect(l).toEqual({ uri: 'servers/my%20server/mcpgen.yaml', uriBaseId: '%SRCROOT%' });
    // The base and the relative uri give the file back, as a consumer resolves them.
    expect(fileURLToPath(new URL(locations[0]!.uri, run.originalUriBaseIds['%SRCROOT%']!.uri))).toBe(
      path.join(server, 'mcpgen.yaml'),
    );

    const outside = await validateIn(server, { format: 'sarif' }, false, { GITHUB_WORKSPACE: path.join(tmp, 'other') });
    const loc = (
      JSON.parse(outside.stdout) as {
        runs: { results: { locations: { physicalLocation: { artifactLocation: Record<string, string> } }[] }[] }[];
      }
    ).runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation;
    expect(loc).toEqual({ uri: pathToFileURL(path.join(server, 'mcpgen.yaml')).href });
  });

  test('helpUri: the diagnostics page at this release, with an anchor the page has for every code', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/manifest-diagnostics.md'), 'utf8');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    expect(githubUrl(pkg.repository.url)).toBe('https://github.com/mcpgen/mcpgen');
    for (const code of Object.values(Codes)) {
      expect(helpUri(code)).toBe(
        `https://github.com/mcpgen/mcpgen/blob/v${VERSION}/docs/manifest-diagnostics.md#${code.toLowerCase()}`,
      );
      expect(doc, code).toContain(`<a name="${code.toLowerCase()}"></a>`);
    }
    for (const spec of [
      'git+https://github.com/o/r.git',
      'https://github.com/o/r',
      'git@github.com:o/r.git',
      'ssh://git@github.com/o/r.git',
      'github:o/r',
      'o/r',
      'https://github.com/o/r#readme',
    ])
      expect(githubUrl(spec), spec).toBe('https://github.com/o/r');
    expect(githubUrl('https://gitlab.com/o/r.git')).toBeUndefined();
  });
});

describe('json', () => {
  test('an array of objects with exactly the documented keys', async () => {
    const { stdout, stderr, code } = await validateIn(path.join(cases, 'invalid-lint-missing-description'), {
      format: 'json',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const diags = JSON.parse(stdout) as Record<string, unknown>[];
    expect(diags.length).toBe(10);
    for (const d of diags) {
      expect(Object.keys(d)).toEqual([
        'file',
        'line',
        'column',
        'endLine',
        'endColumn',
        'severity',
        'code',
        'rule',
        'message',
        'path',
        'entry',
        'hint',
      ]);
    }
    expect(diags[0]).toMatchObject({
      code: 'MCPG301',
      rule: 'missing-description',
      path: '/tools/get_forecast',
      entry: 'get_forecast',
    });
  });

  test('file-level problems get a full range; a clean manifest is []', async () => {
    const bin = await validateIn(path.join(cases, 'invalid-yaml-binary'), { format: 'json' });
    expect(JSON.parse(bin.stdout)).toEqual([
      expect.objectContaining({
        code: 'MCPG100',
        endLine: expect.any(Number),
        endColumn: expect.any(Number),
        rule: null,
        path: null,
        entry: null,
      }),
    ]);
    const clean = await validateIn(path.join(root, 'test/fixtures/valid/minimal'), { format: 'json' });
    expect(clean).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});

describe('stylish', () => {
  const d: Diagnostic = {
    code: 'MCPG110',
    severity: 'error',
    message: 'm',
    file: 'f.yaml',
    line: 2,
    column: 3,
    endLine: 2,
    endColumn: 6,
    hint: 'h',
  };

  test('code frame: the line, carets under the range; multi-line ranges show up to 3 lines', () => {
    expect(codeFrame('a: 1\n\tbad: 2\n', d)).toEqual([' 2 |  bad: 2', '   |   ^^^']);
    expect(codeFrame('x\ny: [\n  1,\n  2,\n  3 ]\n', { ...d, line: 2, column: 4, endLine: 5, endColumn: 6 })).toEqual([
      ' 2 | y: [',
      '   |    ^',
      ' 3 |   1,',
      '   |   ^^',
      ' 4 |   2,',
      '   |   ^^',
      '   | …',
    ]);
    expect(codeFrame('', { ...d, line: 1, column: 1 })).toEqual([]);
    expect(codeFrame('a\n', { ...d, line: 9 })).toEqual([]);
  });

  test('colours only on a TTY, and not with NO_COLOR', async () => {
    const dir = path.join(cases, 'invalid-lint-resource-mime-type');
    expect((await validateIn(dir, {}, false)).stderr).not.toMatch(/\x1b\[/);
    expect((await validateIn(dir, {}, true)).stderr).toMatch(/\x1b\[33mwarning\x1b\[0m/);
    expect((await validateIn(dir, {}, true, { NO_COLOR: '1' })).stderr).not.toMatch(/\x1b\[/);
    expect(formatStylish([d], { sources: new Map([['f.yaml', 'a\nbcdefg\n']]), color: false })).toBe(
      'f.yaml:2:3: error MCPG110 m\n 2 | bcdefg\n   |   ^^^\n  hint: h\n',
    );
  });
});

describe('command line', () => {
  const dir = path.join(cases, 'invalid-lint-resource-mime-type');
  const cli = async (...args: string[]) => {
    const m = memoryIO(dir);
    const code = await runCli(['validate', ...args], m.io);
    return { code, stdout: m.out(), stderr: m.err() };
  };

  test('--rule (repeatable), --max-warnings, --format', async () => {
    expect((await cli()).code).toBe(0);
    expect((await cli('--rule', 'resource-mime-type=error')).code).toBe(1);
    expect((await cli('--rule', 'resource-mime-type=error', '--rule', 'resource-mime-type=off')).stderr).toBe(
      '✔ mcpgen.yaml is valid\n',
    );
    expect((await cli('--max-warnings', '2')).code).toBe(0);
    expect(await cli('--max-warnings', '1')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('more than --max-warnings 1'),
    });
    const json = await cli('--format', 'json');
    expect(JSON.parse(json.stdout)).toHaveLength(2);
    // A CI job failing on warnings alone says why, beside the report on stdout.
    for (const format of ['github', 'sarif', 'json']) {
      const r = await cli('--format', format, '--max-warnings', '1');
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('✖ 2 warnings in mcpgen.yaml: more than --max-warnings 1\n');
      expect((await cli('--format', format, '--max-warnings', '2')).stderr).toBe('');
    }
  });

  test('usage errors exit 2 with a message and no output', async () => {
    for (const args of [
      ['--format', 'xml'],
      ['--rule', 'no-such-rule=off'],
      ['--rule', 'max-tools=loud'],
      ['--max-warnings', '-1'],
      ['--max-warnings', 'many'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^mcpgen: /);
    }
  });
});

test('every diagnostic code has a description for SARIF rules', () => {
  const lintCodes = new Set(lintRules.map((r) => r.code));
  const missing = Object.values(Codes).filter((c) => !lintCodes.has(c) && !CODE_DESCRIPTIONS[c]);
  expect(
    missing,
    'add a line for each to cli/report/code-descriptions.ts (as in docs/manifest-diagnostics.md)',
  ).toEqual([]);
});
