/**
 * `mcpgen add tool|resource|template|prompt`: the entry inserted into the manifest's text as
 * written (comments, layout, the section's indentation), validated before the write; refusals
 * write nothing; `mcpgen add` names its kinds; every `add` subcommand's --help has examples.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, scratch } from './helpers/project.js';

const MANIFEST = `# Notes server: a comment that must survive.
version: 1
server: { name: notes, version: 0.1.0 }   # flow style kept

tools:
    list_notes:   # indented by four: the new tool too
        description: Lists the notes, newest first
        annotations: { readOnlyHint: true }

# Prompts come last.
prompts:
  greet: { description: Greets the user by name, messages: [{ role: user, text: Hello }] }
`;

async function cli(dir: string, ...args: string[]) {
  const io = memoryIO(dir);
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

describe('mcpgen add <kind>', () => {
  it('a manifest with a BOM and CRLF keeps both (add, then rename)', async () => {
    const dir = scratch('add-entry-bom');
    const file = path.join(dir, 'mcpgen.yaml');
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    writeFileSync(file, `\uFEFF${crlf(MANIFEST)}`);
    expect((await cli(dir, 'add', 'tool', 'get_note', '-d', 'Gets one note by its id')).code).toBe(0);
    const added = readFileSync(file, 'utf8');
    expect(added).toBe(
      `\uFEFF${crlf(MANIFEST.replace('        annotations: { readOnlyHint: true }\n', '$&    get_note:\n        description: Gets one note by its id\n'))}`,
    );
    expect((await cli(dir, 'rename', 'tool', 'get_note', 'fetch_note', '--yes')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(added.replace('get_note:', 'fetch_note:'));
  });

  it('adds each kind in the text as written; the result validates and generates', async () => {
    const dir = scratch('add-entry');
    const file = path.join(dir, 'mcpgen.yaml');
    writeFileSync(file, MANIFEST);

    const tool = await cli(
      dir,
      'add',
      'tool',
      'get_note',
      '-d',
      'Gets one note by its id',
      '-i',
      'id:string:The id of the note to get',
      '--read-only',
    );
    expect(tool.code, tool.err).toBe(0);
    expect(tool.out).toContain('edit      mcpgen.yaml (tool get_note added under tools, line 9)');
    expect(tool.out).toContain(`Next: \`mcpgen generate\` creates ${path.join('src/handlers/tools/get_note.ts')}`);
    const resource = await cli(dir, 'add', 'resource', 'readme', '--uri', 'notes://readme', '--text', 'How to use');
    expect(resource.code, resource.err).toBe(0);
    expect(resource.out).toContain('no handler to write');
    expect(resource.err).toContain('warning MCPG301 resource `readme` has no description');
    const template = await cli(dir, 'add', 'template', 'note', '--uri-template', 'notes://{id}', '--json');
    expect(template.code, template.err).toBe(0);
    expect(JSON.parse(template.out)).toMatchObject({
      ok: true,
      command: 'add',
      changes: [{ action: 'edit', path: 'mcpgen.yaml' }],
      entry: {
        kind: 'template',
        name: 'note',
        section: 'resourceTemplates',
        handler: 'src/handlers/templates/note.ts',
      },
      next: [{ command: 'mcpgen generate' }],
    });
    const prompt = await cli(
      dir,
      'add',
      'prompt',
      'summarize',
      '-a',
      'topic:What to summarize',
      '--text',
      'Sum up {{topic}}',
    );
    expect(prompt.code, prompt.err).toBe(0);

    const after = readFileSync(file, 'utf8');
    // The user's text byte for byte, the entries inserted in their sections' indentation.
    expect(after).toBe(`# Notes server: a comment that must survive.
version: 1
server: { name: notes, version: 0.1.0 }   # flow style kept

tools:
    list_notes:   # indented by four: the new tool too
        description: Lists the notes, newest first
        annotations: { readOnlyHint: true }
    get_note:
        description: Gets one note by its id
        input:
            type: object
            properties:
                id:
                    type: string
                    description: The id of the note to get
            required:
                - id
        annotations:
            readOnlyHint: true

# Prompts come last.
prompts:
  greet: { description: Greets the user by name, messages: [{ role: user, text: Hello }] }
  summarize:
    arguments:
      topic:
        description: What to summarize
        required: true
    messages:
      - role: user
        text: Sum up {{topic}}

resources:
  readme:
    uri: notes://readme
    text: How to use

resourceTemplates:
  note:
    uriTemplate: notes://{id}
    params:
      id:
        type: string
`);

    // Each template variable gets a schema to edit, so there is nothing to warn about.
    const validate = await cli(dir, 'validate');
    expect(validate.code).toBe(0);
    expect(validate.out + validate.err).not.toContain('MCPG222');
    const generate = await cli(dir, 'generate');
    expect(generate.code, generate.err).toBe(0);
    for (const stub of ['src/handlers/tools/get_note.ts', 'src/handlers/templates/note.ts'])
      expect(existsSync(path.join(dir, stub)), stub).toBe(true);
    for (const none of ['src/handlers/resources/readme.ts', 'src/handlers/prompts/summarize.ts'])
      expect(existsSync(path.join(dir, none)), none).toBe(false);
  });

  it('refuses a name that exists or that is not a valid name, writing nothing', async () => {
    const dir = scratch('add-entry-refused');
    const file = path.join(dir, 'mcpgen.yaml');
    writeFileSync(file, MANIFEST);

    const duplicate = await cli(dir, 'add', 'tool', 'list_notes', '-d', 'Lists the notes again');
    expect(duplicate.code).toBe(2);
    expect(duplicate.err).toContain('mcpgen: tool `list_notes` already exists at mcpgen.yaml:6:5; pick another name');
    expect(readFileSync(file, 'utf8')).toBe(MANIFEST);

    // The diagnostic's position and code frame are those of the manifest as it would be.
    const bad = await cli(dir, 'add', 'prompt', 'sum up', '-d', 'Sums up the notes');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('mcpgen.yaml:13:3: error MCPG116 invalid prompt name "sum up"');
    expect(bad.err).toContain(' 13 |   sum up:\n');
    expect(bad.err).toContain('✖ with this prompt, mcpgen.yaml would not validate (1 error');
    expect(readFileSync(file, 'utf8')).toBe(MANIFEST);
    const json = await cli(dir, 'add', 'prompt', 'sum up', '--json');
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, exitCode: 1, errors: 1, applied: false });
    expect(readFileSync(file, 'utf8')).toBe(MANIFEST);
  });

  it('names the kinds when there is none or one it does not know', async () => {
    const dir = scratch('add-entry-kinds');
    for (const args of [['add'], ['add', 'tols', 'foo']]) {
      const r = await cli(dir, ...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(
        'one of: mcpgen add tool <name>, mcpgen add resource <name> --uri <uri>, mcpgen add template <name> --uri-template <template>, mcpgen add prompt <name>, mcpgen add view <tool>',
      );
    }
  });

  it.each(['tool', 'resource', 'template', 'prompt', 'view'])(
    'add %s --help shows examples and the docs',
    async (kind) => {
      const r = await cli(scratch('add-entry-help'), 'add', kind, '--help');
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Examples:\n  $ mcpgen add ${kind} `);
      expect(r.out).toMatch(/Documentation: \S+docs[/\\]cli\.md/);
    },
  );
});
