import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import type { SummarizeNotesArgs } from '../../../src/generated/types.js';
import { complete, get } from '../../../src/handlers/prompts/summarize_notes.js';
import { createNote, resetNotes } from '../../../src/store.js';

/** Renders the prompt: the handler answers with one text message. */
async function render(args: SummarizeNotesArgs): Promise<string> {
  const text = await get(args, testContext());
  assert.ok(typeof text === 'string', 'expected text');
  return text;
}

describe('summarize_notes prompt', () => {
  beforeEach(resetNotes);

  it('includes the text of every note with the tag, and only those', async () => {
    const text = await render({ tag: 'work' });
    assert.match(text, /^Summarize my 2 notes tagged #work as a bulleted list/);
    assert.ok(text.includes('Kickoff with the design team on Monday at 10:00.'));
    assert.ok(text.includes('A weekly show about small tools that do one thing well.'));
    assert.ok(!text.includes('oat milk'));
    // Oldest first, in the order they were written.
    assert.ok(text.indexOf('Project kickoff') < text.indexOf('Podcast idea'));
  });

  it('asks for the chosen style', async () => {
    assert.match(await render({ tag: 'work', style: 'paragraph' }), /as one short paragraph/);
    assert.match(await render({ tag: 'work', style: 'tweet' }), /280 characters/);
    assert.match(await render({ tag: 'work', style: 'haiku' }), /in this style: haiku/);
  });

  it('accepts a tag written as a hashtag', async () => {
    assert.match(await render({ tag: ' #Groceries' }), /^Summarize my note tagged #groceries/);
  });

  it('still renders for a tag with no notes', async () => {
    assert.match(await render({ tag: 'unused' }), /no notes tagged #unused/);
  });

  it('completes from the tags in use', async () => {
    createNote({ title: 'Trip', body: '', tags: ['weekend'] });
    assert.deepEqual(await complete.tag('w', { arguments: {} }), ['weekend', 'work']);
    assert.deepEqual(await complete.tag('x', { arguments: {} }), []);
  });
});
