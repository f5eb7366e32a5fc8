import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { read } from '../../../src/handlers/resources/index.js';
import { createNote, deleteNote, listNotes, resetNotes } from '../../../src/store.js';

/** Reads the resource: the handler answers with Markdown text. */
async function readIndex(): Promise<string> {
  const body = await read(new URL('notes://index'), testContext());
  assert.ok(typeof body === 'string', 'expected Markdown text');
  return body;
}

describe('index resource', () => {
  beforeEach(resetNotes);

  it('lists every note as a link to its resource, with its id and tags', async () => {
    const markdown = await readIndex();
    assert.match(markdown, /^# Notes\n/);
    assert.match(markdown, /^- \[Shopping list\]\(notes:\/\/note\/n1\) `n1` #groceries$/m);
    assert.match(markdown, /^- \[Project kickoff\]\(notes:\/\/note\/n2\) `n2` #work #meetings$/m);
    assert.equal(markdown.match(/^- /gm)?.length, 3);
  });

  it('keeps a title from breaking its link', async () => {
    createNote({ title: 'See [1]', body: '' });
    assert.match(await readIndex(), /^- \[See \\\[1\\\]\]\(notes:\/\/note\/n4\) `n4`$/m);
  });

  it('says so when there are no notes', async () => {
    for (const note of listNotes()) deleteNote(note.id);
    assert.match(await readIndex(), /No notes yet/);
  });
});
