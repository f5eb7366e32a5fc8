import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import type { Note } from '../../../src/generated/types.js';
import { complete, read } from '../../../src/handlers/templates/tag.js';
import { createNote, resetNotes } from '../../../src/store.js';

/** Reads notes://tag/{tag} and parses it: the handler answers with JSON text. */
async function readTag(tag: string): Promise<Note[]> {
  const body = await read({ tag }, new URL(`notes://tag/${tag}`), testContext());
  assert.ok(typeof body === 'string', 'expected JSON text');
  return JSON.parse(body) as Note[];
}

const completeTag = (value: string) => complete.tag(value, { arguments: {} });

describe('tag template', () => {
  beforeEach(resetNotes);

  it('reads the notes with the tag, newest first, as JSON', async () => {
    const notes = await readTag('work');
    assert.deepEqual(
      notes.map((note) => note.id),
      ['n3', 'n2'],
    );
    assert.equal(notes[0]?.title, 'Podcast idea');
    assert.equal(notes[0]?.body, 'A weekly show about small tools that do one thing well.');
  });

  it('reads an unused tag as no notes', async () => {
    assert.deepEqual(await readTag('unused'), []);
  });

  it('completes from the tags in use', async () => {
    assert.deepEqual(await completeTag(''), ['groceries', 'ideas', 'meetings', 'work']);
    assert.deepEqual(await completeTag('W'), ['work']);
    createNote({ title: 'Trip', body: '', tags: ['weekend'] });
    assert.deepEqual(await completeTag('w'), ['weekend', 'work']);
  });
});
