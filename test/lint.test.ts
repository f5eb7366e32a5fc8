/**
 * Lint rules (cli/lint): each rule's passing side (the failing side is a golden case,
 * test/cases/invalid-lint-<rule>/), configuration (defaults < manifest `lint.rules` < --rule),
 * and the registry's promises: stable ids and codes, documented in README.md and the diagnostics page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { UsageError } from '../cli/diagnostics.js';
import { inputProperties } from '../cli/lint/input-properties.js';
import { lintManifest, lintRules, parseRuleFlags, ruleById } from '../cli/lint/index.js';
import { loadManifest } from '../cli/load/load.js';
import { Codes } from '../cli/manifest/codes.js';

const root = path.resolve(import.meta.dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-lint-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function lint(yaml: string, cli: Parameters<typeof lintManifest>[1] = {}) {
  const file = path.join(tmp, `m${n++}.yaml`);
  fs.writeFileSync(file, yaml);
  const { manifest } = loadManifest(file, 'mcpgen.yaml');
  if (!manifest) throw new Error('fixture does not load');
  return lintManifest(manifest, cli).map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);
}

/** Only the findings of optional-without-default (a dotted name also gets name-format's). */
const lint303 = (yaml: string) => lint(yaml).filter((d) => d.endsWith(Codes.LINT_OPTIONAL_WITHOUT_DEFAULT));

const HEAD = 'version: 1\nserver: { name: s, version: 1.0.0 }\n';

/** A manifest that follows every rule, the opt-in one included. */
const CLEAN = `${HEAD}lint: { rules: { unconstrained-input: warn } }
schemas:
  City: { type: string, maxLength: 100, description: "Name of a city, in English" }
tools:
  get_forecast:
    description: Forecast for a city, up to 7 days ahead
    input:
      type: object
      properties:
        city: { $ref: "#/schemas/City" }
        days: { type: integer, minimum: 1, maximum: 7, default: 3, description: "Days ahead, 1 to 7" }
        units: { type: string, enum: [metric, imperial], default: metric, description: Units of the numbers }
        options:
          type: object
          default: {}
          description: Extra switches for the forecast
          properties:
            hourly: { type: boolean, default: false, description: "One value per hour, not per day" }
      required: [city]
prompts:
  review-code:
    description: Review a piece of code for bugs
    arguments:
      code: { description: The code to review, required: true }
resources:
  readme: { uri: "my-app://readme", description: How this server works, mimeType: text/markdown, text: "# Hi" }
resourceTemplates:
  note:
    uriTemplate: "notes://{id}"
    description: One note by its id
    mimeType: text/plain
    params: { id: { type: string, pattern: "^[0-9]+$" } }
`;

describe('every rule passes a manifest that follows it', () => {
  test('the clean manifest has no findings at all', () => {
    expect(lint(CLEAN)).toEqual([]);
  });

  test.each(lintRules.map((r) => r.id))('%s: no finding on the clean manifest, even as error', (id) => {
    expect(lint(CLEAN, { [id]: 'error' })).toEqual([]);
  });

  test('name-format: 64 characters, digits, `_` and `-` are fine', () => {
    expect(
      lint(
        `${HEAD}tools:\n  ${'a'.repeat(64)}: { description: The longest name allowed }\n  a-b_C9: { description: Mixed characters are fine }\n`,
      ),
    ).toEqual([]);
  });

  test('missing-description: a description from the referenced schema counts', () => {
    expect(
      lint(`${HEAD}schemas: { Id: { type: string, description: The id of a note } }
tools:
  get:
    description: Get one note by id
    input: { type: object, properties: { id: { $ref: "#/schemas/Id" } }, required: [id] }
`),
    ).toEqual([]);
  });

  test('description-length: exactly 10 and exactly 1024 characters are fine', () => {
    expect(
      lint(`${HEAD}tools:\n  a: { description: "${'x'.repeat(10)}" }\n  b: { description: "${'y'.repeat(1024)}" }\n`),
    ).toEqual([]);
  });

  test('optional-without-default: `const` counts as a default; required properties need none', () => {
    expect(
      lint(`${HEAD}tools:
  t:
    description: A tool with inputs
    input:
      type: object
      properties:
        a: { type: string, const: x, description: "Always x, nothing else" }
        b: { type: string, description: Needed every time }
      required: [b]
`),
    ).toEqual([]);
  });

  test('optional-without-default: a patch-style update tool (eight optional fields) gets no warning', () => {
    const fields = `
      properties:
        id: { type: string, description: The note to change }
        title: { type: string, description: The new title }
        body: { type: string, description: The new text }
        tags: { type: array, items: { type: string }, description: The new tags }
        pinned: { type: boolean, description: Pinned to the top }
        color: { type: string, description: The colour of its card }
        due: { type: string, format: date, description: The day it is due }
        archived: { type: boolean, description: Moved out of the list }
        priority: { type: integer, description: Its rank among the others }
      required: [id]
`;
    const tool = (name: string, extra = '') =>
      `  ${name}:\n    description: Change the given fields of a note${extra}\n    input:\n      type: object${fields}`;
    for (const name of [
      'update_note',
      'note_update',
      'notes.patch',
      'editTask',
      'modify-note',
      'set_note',
      'notes.update_item',
    ])
      expect(lint303(`${HEAD}tools:\n${tool(name)}`), name).toEqual([]);
    // By its title: the tool's own or the annotation MCP defines.
    expect(lint303(`${HEAD}tools:\n${tool('note', '\n    title: Update a note')}`)).toEqual([]);
    expect(lint303(`${HEAD}tools:\n${tool('note', '\n    annotations: { title: Patch note }')}`)).toEqual([]);
    // A normal tool with the same inputs still warns, once per optional field; so does a name
    // where the verb is only inside (`get_update_status`) or part of a word (`reset`, `settings`).
    for (const name of ['create_note', 'get_update_status', 'reset_note', 'settings'])
      expect(lint303(`${HEAD}tools:\n${tool(name)}`), name).toHaveLength(8);
    // The hints alone do not make an update: a delete is idempotent and not read-only too.
    expect(
      lint303(`${HEAD}tools:\n${tool('note', '\n    annotations: { readOnlyHint: false, idempotentHint: true }')}`),
    ).toHaveLength(8);
  });

  test('optional-without-default: a description that says it is optional, or unchanged when omitted', () => {
    const m = (description: string) => `${HEAD}tools:
  search:
    description: Search the notes by text
    input:
      type: object
      properties:
        q: { type: string, description: "${description}" }
`;
    for (const d of [
      'Optional. A filter by tag',
      'The tag to filter by (optional)',
      'The tag; all tags if omitted',
      'The title; leaves it unchanged',
      'The title, unchanged if not given',
      'The title; left unchanged when omitted',
      'The tag; every tag if not given',
    ])
      expect(lint(m(d)), d).toEqual([]);
    for (const d of ['The tag to filter by', 'Options are listed in the docs', 'The unchanged part of the text'])
      expect(lint(m(d)), d).toEqual(['9:9 warning MCPG303']);
  });

  test('optional-without-default: a shared property is reported for a tool that is no update', () => {
    const m = (a: string, b: string) => `${HEAD}schemas:
  Fields:
    type: object
    properties:
      title: { type: string, description: The title of the note }
tools:
  ${a}:
    description: Works on the fields of a note
    input: { $ref: "#/schemas/Fields" }
  ${b}:
    description: Works on the fields of a note
    input: { $ref: "#/schemas/Fields" }
`;
    expect(lint(m('update_note', 'patch_note'))).toEqual([]);
    const found = lintManifest(
      loadManifest(
        (() => {
          const f = path.join(tmp, `m${n++}.yaml`);
          fs.writeFileSync(f, m('update_note', 'create_note'));
          return f;
        })(),
        'mcpgen.yaml',
      ).manifest!,
    ).filter((d) => d.code === Codes.LINT_OPTIONAL_WITHOUT_DEFAULT);
    expect(found.map((d) => d.message)).toEqual([
      'optional input property `title` of tool `create_note` has no `default`',
    ]);
  });

  test('unconstrained-input (opt-in): off by default; format, pattern, const and one bound are enough', () => {
    const m = `${HEAD}tools:
  t:
    description: A tool with inputs
    input:
      type: object
      properties:
        a: { type: string, description: Any text at all }
        b: { type: string, format: email, description: An e-mail address }
        c: { type: string, pattern: "^x", description: Starts with an x }
        d: { type: number, exclusiveMinimum: 0, description: A positive number }
        e: { type: boolean, description: "Yes or no, really" }
      required: [a, b, c, d, e]
`;
    expect(lint(m)).toEqual([]);
    expect(lint(m, { 'unconstrained-input': 'warn' })).toEqual(['9:9 warning MCPG304']);
  });

  test('uri-scheme-format: registered schemes with `+` or `.`, and https/file, are fine', () => {
    expect(
      lint(
        `${HEAD}resources:
  a: { uri: "git+ssh://host/repo", description: A repository over ssh, mimeType: text/plain, text: a }
  b: { uri: "https://example.com/a", description: A page on the web, mimeType: text/html, text: b }
  c: { uri: "file:///tmp/c.txt", description: A file on this disk, mimeType: text/plain, text: c }
`,
        { 'https-resource': 'off' },
      ),
    ).toEqual([]);
  });

  test('max-tools: 40 tools are fine, 41 are not', () => {
    const tools = (k: number) =>
      Array.from({ length: k }, (_, i) => `  t${i}: { description: Tool number ${i} of many }`).join('\n');
    expect(lint(`${HEAD}tools:\n${tools(40)}\n`)).toEqual([]);
    expect(lint(`${HEAD}tools:\n${tools(41)}\n`)).toEqual(['44:3 warning MCPG307']);
  });

  test('odd shapes (the schema reports them) never throw', () => {
    for (const body of [
      'tools: 5',
      'tools: { t: [1] }',
      'tools: { t: { input: { properties: [a] } } }',
      'tools: { t: { input: { $ref: "#/schemas/Nope" } } }',
      'tools: { t: { input: { properties: { a: { $ref: "#/schemas/A" } } } } }\nschemas: { A: { $ref: "#/schemas/A" } }',
      'resources: { r: { uri: 5 } }',
      'prompts: { p: { arguments: [1, 2] } }',
      'lint: { rules: [1] }',
    ]) {
      expect(() => lint(`${HEAD}${body}\n`)).not.toThrow();
    }
  });
});

describe('configuration', () => {
  const m = `${HEAD}resources:\n  r: { uri: "docs://r", description: A resource here, text: x }\n`;

  test('default: warning', () => expect(lint(m)).toEqual(['4:3 warning MCPG306']));
  test('manifest lint.rules', () => {
    expect(lint(`${m}lint: { rules: { resource-mime-type: error } }\n`)).toEqual(['4:3 error MCPG306']);
    expect(lint(`${m}lint: { rules: { resource-mime-type: off } }\n`)).toEqual([]);
  });
  test('the command line wins over the manifest', () => {
    expect(lint(`${m}lint: { rules: { resource-mime-type: off } }\n`, { 'resource-mime-type': 'warn' })).toEqual([
      '4:3 warning MCPG306',
    ]);
  });

  test('parseRuleFlags: last one wins; unknown ids and settings are usage errors', () => {
    expect(parseRuleFlags(['max-tools=off', 'max-tools=error', 'name-format=warn'])).toEqual({
      'max-tools': 'error',
      'name-format': 'warn',
    });
    expect(() => parseRuleFlags(['missing-descripton=off'])).toThrow(UsageError);
    expect(() => parseRuleFlags(['missing-descripton=off'])).toThrow(/did you mean `missing-description`/);
    expect(() => parseRuleFlags(['max-tools=fatal'])).toThrow(/max-tools=off, max-tools=warn or max-tools=error/);
    expect(() => parseRuleFlags(['max-tools'])).toThrow(UsageError);
  });
});

describe('registry', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const diagnosticsDoc = fs.readFileSync(path.join(root, 'docs/manifest-diagnostics.md'), 'utf8');
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/manifest.v1.json'), 'utf8')) as {
    $defs: { LintRules: { properties: Record<string, { default: string; description: string }> } };
  };

  test('ids and codes are unique, kebab-case and MCPG3xx from cli/manifest/codes.ts', () => {
    const ids = lintRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(lintRules.map((r) => r.code)).size).toBe(ids.length);
    for (const r of lintRules) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.code).toMatch(/^MCPG3\d\d$/);
      expect(Object.values(Codes)).toContain(r.code);
      expect(ruleById(r.id)).toBe(r);
    }
  });

  test('every rule is in the schema (lint.rules) with its default, named in README.md, and in the diagnostics page', () => {
    const props = schema.$defs.LintRules.properties;
    expect(Object.keys(props).sort()).toEqual(lintRules.map((r) => r.id).sort());
    for (const r of lintRules) {
      expect(props[r.id]!.default).toBe(r.default);
      expect(props[r.id]!.description).toContain(r.code);
      expect(readme).toContain(`\`${r.id}\``);
      if (r.default === 'off') expect(readme).toContain(`\`${r.id}\` (off unless enabled)`);
      expect(diagnosticsDoc).toContain(`| ${r.code} | \`${r.id}\` | ${r.default} |`);
    }
  });

  test('every rule has a golden failing case', () => {
    for (const r of lintRules)
      expect(fs.existsSync(path.join(root, 'test/cases', `invalid-lint-${r.id}`, 'mcpgen.yaml'))).toBe(true);
  });
});

describe('counted, not located (generate past a few warnings)', () => {
  // Same findings as the located run, one for one, on every manifest at hand: the golden cases,
  // the examples, a synthetic 100-tool manifest, and one that reaches a property through `$ref`
  // from two tools (found once, as when located).
  const manifests = [
    ...fs.readdirSync(path.join(root, 'test/cases')).map((c) => path.join(root, 'test/cases', c, 'mcpgen.yaml')),
    ...fs.readdirSync(path.join(root, 'examples')).map((e) => path.join(root, 'examples', e, 'mcpgen.yaml')),
  ].filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  test('every golden case and example', () => {
    let counted = 0;
    for (const file of manifests) {
      const { manifest } = loadManifest(file, 'mcpgen.yaml');
      if (!manifest) continue;
      const located = lintManifest(manifest)
        .map((d) => `${d.severity} ${d.code} ${d.path} ${d.message}`)
        .sort();
      const quick = lintManifest(manifest, {}, { locateUpTo: 0 });
      if (manifest.aliasFree && located.length > 0 && !located.some((d) => d.startsWith('error'))) {
        counted++;
        expect(
          quick.every((d) => d.line === 1 && d.column === 1),
          file,
        ).toBe(true);
      }
      expect(quick.map((d) => `${d.severity} ${d.code} ${d.path} ${d.message}`).sort(), file).toEqual(located);
    }
    expect(counted).toBeGreaterThan(20);
  });
  test('a synthetic manifest with thousands of warnings, and a property shared through $ref', async () => {
    const { syntheticManifest } = (await import(path.join(root, 'bench/synthetic.mjs'))) as {
      syntheticManifest: (n: number) => string;
    };
    const shared = `${HEAD}schemas:\n  Shared:\n    type: object\n    properties:\n      q: { type: string }\ntools:\n  a_tool:\n    description: Tool a does a thing\n    input: { $ref: '#/schemas/Shared' }\n  b_tool:\n    description: Tool b does a thing\n    input: { $ref: '#/schemas/Shared' }\n`;
    for (const yaml of [syntheticManifest(100), shared]) {
      const file = path.join(tmp, `m${n++}.yaml`);
      fs.writeFileSync(file, yaml);
      const { manifest } = loadManifest(file, 'mcpgen.yaml');
      expect(manifest?.aliasFree).toBe(true);
      const located = lintManifest(manifest!)
        .map((d) => `${d.code} ${d.path} ${d.message}`)
        .sort();
      const quick = lintManifest(manifest!, {}, { locateUpTo: 0 });
      expect(quick.every((d) => d.line === 1)).toBe(true);
      expect(quick.map((d) => `${d.code} ${d.path} ${d.message}`).sort()).toEqual(located);
    }
  });
  test('few findings are located, from the one walk of the data the unlocated run made', () => {
    const file = path.join(tmp, `m${n++}.yaml`);
    fs.writeFileSync(
      file,
      `${HEAD}tools:\n  get_it:\n    description: Gets the thing it is asked for\n    input:\n      type: object\n      properties:\n        q: { type: string }\n`,
    );
    const { manifest } = loadManifest(file, 'mcpgen.yaml');
    const walked = inputProperties(manifest!);
    // Another wrapper of the same data (as lint's unlocated run makes) gets the same walk back.
    expect(inputProperties({ ...manifest!, locate: () => ({ line: 1, column: 1, endLine: 1, endColumn: 1 }) })).toBe(
      walked,
    );
    const few = lintManifest(manifest!, {}, { locateUpTo: 10 });
    expect(few.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['9:9 MCPG301', '9:9 MCPG303']);
    expect(
      lintManifest(
        loadManifest(path.join(root, 'test/cases', 'minimal', 'mcpgen.yaml'), 'mcpgen.yaml').manifest!,
        {},
        { locateUpTo: 10 },
      ),
    ).toEqual([]);
  });
});
