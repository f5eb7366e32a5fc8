// The notes, in memory. Module scope on purpose: over HTTP the server factory runs for every
// request, so anything kept inside createServer() would be gone by the next call. Everything is
// lost when the process stops; swap this module for a database to keep notes.
import type { Note } from './generated/types.js';

/** What it takes to create a note: the store assigns the id and the creation time. */
export interface NewNote {
  title: string;
  body: string;
  tags?: readonly string[];
}

export interface NoteFilter {
  /** Text the title or the body must contain, ignoring case. */
  query?: string;
  tag?: string;
}

// Seeded so that every resource, template and prompt has something to show on first run.
const SEED: readonly (NewNote & { createdAt: string })[] = [
  {
    title: 'Shopping list',
    body: 'Eggs, oat milk, coffee beans, fresh basil.',
    tags: ['groceries'],
    createdAt: '2026-01-05T09:00:00.000Z',
  },
  {
    title: 'Project kickoff',
    body: 'Kickoff with the design team on Monday at 10:00. Bring the draft roadmap.',
    tags: ['work', 'meetings'],
    createdAt: '2026-01-06T14:30:00.000Z',
  },
  {
    title: 'Podcast idea',
    body: 'A weekly show about small tools that do one thing well.',
    tags: ['ideas', 'work'],
    createdAt: '2026-01-07T20:15:00.000Z',
  },
];

const notes = new Map<string, Note>();
let lastId = 0;

// Notes go out as copies, so that a caller changing one cannot change the store behind its back.
const copy = (note: Note): Note => ({ ...note, tags: [...note.tags] });

function insert(input: NewNote, createdAt: string): Note {
  const note: Note = {
    // Ids are never reused, so a deleted note's id cannot come to mean another note.
    id: `n${++lastId}`,
    title: input.title.trim(),
    body: input.body,
    tags: [...new Set(input.tags)], // a tag given twice is one tag
    createdAt,
  };
  notes.set(note.id, note);
  return copy(note);
}

/** Saves a new note and returns it. */
export function createNote(input: NewNote): Note {
  if (input.title.trim() === '') throw new Error('A note needs a title that is not blank');
  return insert(input, new Date().toISOString());
}

export function getNote(id: string): Note | undefined {
  const note = notes.get(id);
  return note && copy(note);
}

/** Deletes a note; returns it, or undefined when there was no such note. */
export function deleteNote(id: string): Note | undefined {
  const note = notes.get(id);
  notes.delete(id);
  return note;
}

/** Every note, oldest first. */
export function listNotes(): Note[] {
  return [...notes.values()].map(copy);
}

/** The notes that match every given filter, newest first. */
export function findNotes({ query, tag }: NoteFilter = {}): Note[] {
  const needle = query?.toLowerCase() ?? '';
  return listNotes()
    .filter((note) => tag === undefined || note.tags.includes(tag))
    .filter((note) => `${note.title}\n${note.body}`.toLowerCase().includes(needle))
    .reverse();
}

/** How many notes have each tag, by tag name. */
export function tagCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const note of notes.values()) {
    for (const tag of note.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

/** Every tag some note has, sorted. */
export function tagsInUse(): string[] {
  return [...tagCounts().keys()];
}

/** Puts the store back to its seed notes, n1 to n3. For tests, and for a fresh start. */
export function resetNotes(): void {
  notes.clear();
  lastId = 0;
  for (const { createdAt, ...note } of SEED) insert(note, createdAt);
}

resetNotes();
