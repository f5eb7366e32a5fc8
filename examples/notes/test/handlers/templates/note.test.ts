import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { ResourceNotFoundError } from '@modelcontextprotocol/server';

import { testContext } from '@mcpgen/runtime';
import { complete, list, read } from '../../../src/handlers/templates/note.js';
import { createNote, resetNotes } from '../../../src/store.js';

/** Reads notes://note/{id}: the handler answers with Markdown text. */
async function readNote(id: string): Promise<string> {
  const body = await read({ id }, new URL(`notes://note/${id}`), testContext());
  assert.ok(typeof body === 'string', 'expected Markdown text');
  return body;
}

const completeId = (value: string) => complete.id(value, { arguments: {} });

describe('note template', () => {
  beforeEach(resetNotes);

  it('reads a note as Markdown', async () => {
    const markdown = await readNote('n2');
    assert.match(markdown, /^# Project kickoff\n\nKickoff with the design team/);
    assert.match(markdown, /^- Tags: #work #meetings$/m);
    assert.match(markdown, /^- Created: 2026-01-06T14:30:00.000Z$/m);
  });

  it('answers "resource not found" for an id with no note', async () => {
    await assert.rejects(
      readNote('n99'),
      (error) => error instanceof ResourceNotFoundError && error.uri === 'notes://note/n99',
    );
  });

  it('lists every note', async () => {
    createNote({ title: 'Fourth', body: '' });
    const resources = await list(testContext());
    assert.deepEqual(
      resources.map(({ uri, name, title }) => [uri, name, title]),
      [
        ['notes://note/n1', 'n1', 'Shopping list'],
        ['notes://note/n2', 'n2', 'Project kickoff'],
        ['notes://note/n3', 'n3', 'Podcast idea'],
        ['notes://note/n4', 'n4', 'Fourth'],
      ],
    );
    for (const resource of resources) assert.equal(resource.mimeType, 'text/markdown');
  });

  it('completes ids by prefix', async () => {
    for (let i = 0; i < 9; i++) createNote({ title: `Note ${i}`, body: '' });
    assert.deepEqual(
      await completeId(''),
      Array.from({ length: 12 }, (_, i) => `n${i + 1}`),
    );
    assert.deepEqual(await completeId('n1'), ['n1', 'n10', 'n11', 'n12']);
    assert.deepEqual(await completeId('x'), []);
  });
});
