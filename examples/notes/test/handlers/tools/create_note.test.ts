import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import type { CreateNoteInput, Note } from '../../../src/generated/types.js';
import { handler } from '../../../src/handlers/tools/create_note.js';
import { getNote, resetNotes } from '../../../src/store.js';

// Calls the handler directly, without a client: test/generated covers the protocol side.

/** Calls the handler, which answers with the new note rather than a toolResult(). */
async function create(input: CreateNoteInput): Promise<Note> {
  const result = await handler(input, testContext());
  assert.ok(!('content' in result), 'expected the note');
  return result;
}

describe('create_note', () => {
  // The store is module state shared by every test in this file: start each from the seed notes.
  beforeEach(resetNotes);

  it('saves a note with the next id and returns it', async () => {
    const note = await create({ title: 'Call the plumber', body: 'Before Friday', tags: ['home'] });
    assert.equal(note.id, 'n4');
    assert.equal(note.title, 'Call the plumber');
    assert.equal(note.body, 'Before Friday');
    assert.deepEqual(note.tags, ['home']);
    assert.ok(Math.abs(Date.parse(note.createdAt) - Date.now()) < 60_000);
    assert.deepEqual(getNote('n4'), note);
  });

  it('defaults tags to none and drops repeated tags', async () => {
    assert.deepEqual((await create({ title: 'Untagged', body: '' })).tags, []);
    const tagged = await create({ title: 'Tagged', body: '', tags: ['a', 'b', 'a'] });
    assert.deepEqual(tagged.tags, ['a', 'b']);
  });

  it('trims the title and rejects a blank one', async () => {
    assert.equal((await create({ title: '  Spaced  ', body: '' })).title, 'Spaced');
    await assert.rejects(create({ title: '   ', body: 'text' }), /title/);
  });

  it('gives out ids in order', async () => {
    const first = await create({ title: 'One', body: '' });
    const second = await create({ title: 'Two', body: '' });
    assert.deepEqual([first.id, second.id], ['n4', 'n5']);
  });
});
