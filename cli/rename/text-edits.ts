/**
 * The user's files that name the entry: the handler's type reference (`ToolHandlers['old']`), the
 * stub's "not implemented" path and doc comment, and the test stub's import and title. Only those
 * exact spellings are replaced; the rest of the user's code is moved as it is.
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

/** Replaces every occurrence of each `before` (in order) by its `after`, listing each with its line. */
function replaceAll(text: string, pairs: [string, string][]): { text: string; edits: TextEdit[] } {
  const edits: TextEdit[] = [];
  let out = text;
  for (const [before, after] of pairs) {
    if (before === after) continue;
    let at = out.indexOf(before);
    while (at >= 0) {
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
): { text: string; edits: TextEdit[] } {
  const pairs: [string, string][] = [];
  for (const lit of literals(names.from))
    pairs.push([`${kind.handlersType}[${lit}]`, `${kind.handlersType}[${printString(names.to)}]`]);
  for (const lit of literals(files.from))
    pairs.push([`NotImplementedError(${lit})`, `NotImplementedError(${printString(files.to)})`]);
  pairs.push([`${kind.docLabel} \`${names.from}\``, `${kind.docLabel} \`${names.to}\``]);
  return replaceAll(text, pairs);
}

/** The test stub's edits: the handler module it imports and its title. */
export function testEdits(
  text: string,
  names: { from: string; to: string },
  modules: { from: string; to: string },
): { text: string; edits: TextEdit[] } {
  const pairs: [string, string][] = [];
  for (const lit of literals(modules.from)) pairs.push([`from ${lit}`, `from ${printString(modules.to)}`]);
  for (const lit of literals(`${names.from} handler`))
    pairs.push([`test(${lit}`, `test(${printString(`${names.to} handler`)}`]);
  return replaceAll(text, pairs);
}
