import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { handler } from '../../../src/handlers/tools/delete_note.js';
import { createNote, getNote, resetNotes } from '../../../src/store.js';

// async, so that a throwing handler gives a rejected promise for assert.rejects.
const remove = async (id: string) => handler({ id }, testContext());

describe('delete_note', () => {
  beforeEach(resetNotes);

  it('deletes the note and says which', async () => {
    assert.equal(await remove('n1'), 'Deleted note n1 (Shopping list).');
    assert.equal(getNote('n1'), undefined);
    assert.ok(getNote('n2'));
  });

  it('fails clearly for an id with no note', async () => {
    await assert.rejects(remove('n99'), /No note with id n99/);
  });

  it('fails the second time, and never reuses the id', async () => {
    await remove('n3');
    await assert.rejects(remove('n3'), /No note with id n3/);
    assert.equal(createNote({ title: 'New', body: '' }).id, 'n4');
  });
});
