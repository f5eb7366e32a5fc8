import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import type { SearchNotesInput, SearchNotesOutput } from '../../../src/generated/types.js';
import { handler } from '../../../src/handlers/tools/search_notes.js';
import { createNote, resetNotes } from '../../../src/store.js';

/** Calls the handler, which answers with its output object rather than a toolResult(). */
async function search(input: SearchNotesInput): Promise<SearchNotesOutput> {
  const result = await handler(input, testContext());
  assert.ok(!('content' in result), 'expected the output object');
  return result;
}

const ids = (result: SearchNotesOutput) => result.notes.map((note) => note.id);

describe('search_notes', () => {
  beforeEach(resetNotes);

  it('finds every note, newest first, without a query', async () => {
    const result = await search({});
    assert.deepEqual(ids(result), ['n3', 'n2', 'n1']);
    assert.equal(result.total, 3);
  });

  it('matches the title or the body, ignoring case', async () => {
    assert.deepEqual(ids(await search({ query: 'SHOPPING' })), ['n1']);
    assert.deepEqual(ids(await search({ query: 'roadmap' })), ['n2']);
    assert.deepEqual(ids(await search({ query: 'no such text' })), []);
  });

  it('keeps only the notes with the tag', async () => {
    assert.deepEqual(ids(await search({ tag: 'work' })), ['n3', 'n2']);
    assert.deepEqual(ids(await search({ tag: 'work', query: 'podcast' })), ['n3']);
    assert.deepEqual(ids(await search({ tag: 'unused' })), []);
  });

  it('returns at most `limit` notes, and the total before the limit', async () => {
    const result = await search({ tag: 'work', limit: 1 });
    assert.deepEqual(ids(result), ['n3']);
    assert.equal(result.total, 2);
  });

  it('returns 20 notes when no limit is given', async () => {
    for (let i = 0; i < 25; i++) createNote({ title: `Note ${i}`, body: 'bulk' });
    const result = await search({ query: 'bulk' });
    assert.equal(result.notes.length, 20);
    assert.equal(result.total, 25);
  });
});
