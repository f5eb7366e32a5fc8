/**
 * The user's files that name the entry: the handler's type reference (`ToolHandlers['old']`), the
 * stub's "not implemented" path and doc comment, the test stub's import and title, and in any
 * other file of the user's the entry's generated type names and imports of its handler module.
 * Only those exact spellings are replaced; the rest of the user's code is kept as it is.
 */
import { printString } from '../render/literal.js';
import type { KindInfo } from './kinds.js';

export interface TextEdit {
  /** 1-based line of the edit in the new text. */
  line: number;
  before: string;
  after: string;
}

/** A string literal as mcpgen prints it, as JSON, and in the other quotes: how a user may have left it. */
function literals(s: string): string[] {
  const forms = [printString(s), JSON.stringify(s)];
  if (/^[^'"\\\x00-\x1f]*$/.test(s)) forms.push(`'${s}'`, `"${s}"`);
  return [...new Set(forms)];
}

/**
 * The generated types named after the entry (`GreetInput`, `GreetOutput`, nested `GreetOutputItem`,
 * `ForecastParams`, `SummarizeArgs`): `from` and `to` are the two type bases, `taken` the type names
 * that only look like one of them (another entry's, `greet_input`'s `GreetInputInput`, or a named schema's).
 */
export interface TypeRename {
  from: string;
  to: string;
  suffixes: string[];
  taken: (identifier: string) => boolean;
}

/** Each whole-word type name of the entry, as [before, after]. */
function typePairs(text: string, types: TypeRename | null): [string, string][] {
  if (!types?.suffixes.length || types.from === types.to) return [];
  const re = new RegExp(`(?<![\\w$])${types.from}(?:${types.suffixes.join('|')})[A-Za-z0-9_]*(?![\\w$])`, 'g');
  const found = new Set(text.match(re) ?? []);
  return [...found].filter((id) => !types.taken(id)).map((id) => [id, types.to + id.slice(types.from.length)]);
}

/** Replaces every occurrence of each `before` (in order) by its `after`, listing each with its line. */
function replaceAll(
  text: string,
  pairs: [string, string][],
  words = new Set<string>(),
): { text: string; edits: TextEdit[] } {
  const edits: TextEdit[] = [];
  let out = text;
  for (const [before, after] of pairs) {
    if (before === after) continue;
    let at = out.indexOf(before);
    while (at >= 0) {
      // A type name is replaced only as a whole word (`GreetInput`, not `MyGreetInput`).
      if (words.has(before) && (/[\w$]/.test(out[at - 1] ?? '') || /[\w$]/.test(out[at + before.length] ?? ''))) {
        at = out.indexOf(before, at + before.length);
        continue;
      }
      out = out.slice(0, at) + after + out.slice(at + before.length);
      edits.push({ line: out.slice(0, at).split('\n').length, before, after });
      at = out.indexOf(before, at + after.length);
    }
  }
  edits.sort((a, b) => a.line - b.line);
  return { text: out, edits };
}

/** The handler file's edits: its type reference, the stub's file path and doc comment. */
export function handlerEdits(
  kind: KindInfo,
  text: string,
  names: { from: string; to: string },
  files: { from: string; to: string },
  types: TypeRename | null = null,
): { text: string; edits: TextEdit[] } {
  const pairs: [string, string][] = [];
  for (const lit of literals(names.from))
    pairs.push([`${kind.handlersType}[${lit}]`, `${kind.handlersType}[${printString(names.to)}]`]);
  for (const lit of literals(files.from))
    pairs.push([`NotImplementedError(${lit})`, `NotImplementedError(${printString(files.to)})`]);
  pairs.push([`${kind.docLabel} \`${names.from}\``, `${kind.docLabel} \`${names.to}\``]);
  const typed = typePairs(text, types);
  return replaceAll(text, [...pairs, ...typed], new Set(typed.map(([before]) => before)));
}

/** The test stub's edits: the handler module it imports and its title. */
export function testEdits(
  text: string,
  names: { from: string; to: string },
  modules: { from: string; to: string },
  types: TypeRename | null = null,
): { text: string; edits: TextEdit[] } {
  const pairs: [string, string][] = [];
  for (const lit of literals(modules.from)) pairs.push([`from ${lit}`, `from ${printString(modules.to)}`]);
  for (const lit of literals(`${names.from} handler`))
    pairs.push([`test(${lit}`, `test(${printString(`${names.to} handler`)}`]);
  const typed = typePairs(text, types);
  return replaceAll(text, [...pairs, ...typed], new Set(typed.map(([before]) => before)));
}

/**
 * Another of the user's files (a shared helper, a test of their own): the entry's generated type
 * names, as whole words, and imports of its handler module (`…/handlers/tools/old.js`).
 */
export function referenceEdits(
  text: string,
  types: TypeRename | null,
  handlers: { from: string; to: string },
): { text: string; edits: TextEdit[] } {
  const typed = typePairs(text, types);
  const pairs: [string, string][] = [...typed];
  for (const quote of ["'", '"'])
    pairs.push([`/handlers/${handlers.from}.js${quote}`, `/handlers/${handlers.to}.js${quote}`]);
  return replaceAll(text, pairs, new Set(typed.map(([before]) => before)));
}
