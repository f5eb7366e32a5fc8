import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { testContext } from '@mcpgen/runtime';
import { read } from '../../../src/handlers/resources/stats.js';
import { createNote, resetNotes } from '../../../src/store.js';

/** Reads the resource and parses it: the handler answers with JSON text. */
async function readStats(): Promise<unknown> {
  const body = await read(new URL('notes://stats'), testContext());
  assert.ok(typeof body === 'string', 'expected JSON text');
  return JSON.parse(body);
}

describe('stats resource', () => {
  beforeEach(resetNotes);

  it('counts the notes and the notes per tag', async () => {
    assert.deepEqual(await readStats(), {
      notes: 3,
      untagged: 0,
      tags: 4,
      byTag: { groceries: 1, ideas: 1, meetings: 1, work: 2 },
    });
  });

  it('follows new notes', async () => {
    createNote({ title: 'Plain', body: '' });
    createNote({ title: 'Chores', body: '', tags: ['home', 'work'] });
    assert.deepEqual(await readStats(), {
      notes: 5,
      untagged: 1,
      tags: 5,
      byTag: { groceries: 1, home: 1, ideas: 1, meetings: 1, work: 3 },
    });
  });
});
