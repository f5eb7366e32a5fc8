/**
 * `mcpgen add view <tool>`: the manifest's text kept (comments, layout), the view's two lines
 * added and validated, the starter files written once; refusals write nothing.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, scratch } from './helpers/project.js';

const MANIFEST = `# Notes server: a comment that must survive.
version: 1
server: { name: '@acme/notes', version: 0.1.0 }   # scoped: the URI takes the bare name
tools:
  list_notes:
    description: Lists the notes   # trailing comment kept
    annotations: { readOnlyHint: true }

  delete_note:
    description: Deletes a note
    input: { type: object, properties: { id: { type: string, description: The note } }, required: [id] }
resources:
  readme: { uri: notes://readme, mimeType: text/plain, text: Notes }
`;

describe('mcpgen add view', () => {
  it('adds the view and its link in the text as written, and writes the starter once', async () => {
    const dir = scratch('add-view');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    const io = memoryIO(dir);
    expect(await runCli(['add', 'view', 'list_notes'], io), io.err).toBe(0);
    const after = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
    // Only lines added: the user's text is all there, in order.
    const added = after.split('\n').filter((l) => !MANIFEST.split('\n').includes(l));
    expect(added).toEqual([
      '    ui: { resource: list_notes_view }',
      '  list_notes_view:',
      '    uri: ui://notes/list-notes',
      '    title: list_notes view',
      '    description: Shows the result of list_notes in hosts that render views (MCP Apps)',
      '    build: ./ui/list_notes',
      '    ui: {}',
    ]);
    // …and nothing else changed: without the added lines it is the manifest as it was.
    expect(
      after
        .split('\n')
        .filter((l) => !added.includes(l))
        .join('\n'),
    ).toBe(MANIFEST);
    for (const file of ['index.html', 'main.ts']) expect(existsSync(path.join(dir, 'ui/list_notes', file))).toBe(true);
    expect(io.out).toContain('Next: `mcpgen generate`');
    const validate = memoryIO(dir);
    expect(await runCli(['validate'], validate), validate.err).toBe(0);

    // A second view for the same tool is refused, byte for byte.
    const again = memoryIO(dir);
    expect(await runCli(['add', 'view', 'list_notes'], again)).toBe(2);
    expect(again.err).toContain('tool `list_notes` already has a view');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(after);
  });

  it('edits the file a symlinked manifest points to, keeping the link and the mode', async () => {
    const dir = scratch('add-view-symlink');
    mkdirSync(path.join(dir, 'shared'));
    writeFileSync(path.join(dir, 'shared/mcpgen.yaml'), MANIFEST, { mode: 0o640 });
    symlinkSync('shared/mcpgen.yaml', path.join(dir, 'mcpgen.yaml'));
    const io = memoryIO(dir);
    expect(await runCli(['add', 'view', 'list_notes'], io), io.err).toBe(0);
    expect(lstatSync(path.join(dir, 'mcpgen.yaml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(dir, 'shared/mcpgen.yaml'), 'utf8')).toContain('list_notes_view:');
    expect(statSync(path.join(dir, 'shared/mcpgen.yaml')).mode & 0o777).toBe(0o640);
  });

  it('--json: the next step is a command to run in the working folder, naming a manifest given with -f', async () => {
    const dir = scratch('add-view-json');
    mkdirSync(path.join(dir, 'servers/notes'), { recursive: true });
    writeFileSync(path.join(dir, 'servers/notes/mcpgen.yaml'), MANIFEST);
    const io = memoryIO(dir);
    expect(await runCli(['add', 'view', 'list_notes', '-f', 'servers/notes/mcpgen.yaml', '--json'], io), io.err).toBe(
      0,
    );
    expect(JSON.parse(io.out).next).toEqual([
      { message: 'regenerate the project', command: 'mcpgen generate -f servers/notes/mcpgen.yaml', cwd: '.' },
    ]);
  });

  it('keeps a starter file already there, and refuses a tool that does not exist', async () => {
    const dir = scratch('add-view-kept');
    writeFileSync(path.join(dir, 'mcpgen.yaml'), MANIFEST);
    mkdirSync(path.join(dir, 'ui/delete_note'), { recursive: true });
    writeFileSync(path.join(dir, 'ui/delete_note/index.html'), '<!doctype html><p>mine</p>\n');
    const missing = memoryIO(dir);
    expect(await runCli(['add', 'view', 'archive_note'], missing)).toBe(2);
    expect(missing.err).toContain('no tool `archive_note` in mcpgen.yaml; tools: list_notes, delete_note');
    expect(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8')).toBe(MANIFEST);

    const io = memoryIO(dir);
    expect(await runCli(['add', 'view', 'delete_note'], io), io.err).toBe(0);
    expect(readFileSync(path.join(dir, 'ui/delete_note/index.html'), 'utf8')).toBe('<!doctype html><p>mine</p>\n');
    expect(io.out).toContain(`keep      ${path.join('ui', 'delete_note', 'index.html')}`);
    expect(io.out).toContain(`create    ${path.join('ui', 'delete_note', 'main.ts')}`);
  });
});
