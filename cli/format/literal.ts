/**
 * Prints JSON data as a TypeScript literal exactly as prettier (mcpgen's options) would print it,
 * so generated data — schemas, contents, expected lists — needs no formatter; a test formats
 * thousands of printed values and requires prettier to change nothing.
 *
 * The rules followed (prettier 3, typescript parser, printWidth 100, singleQuote, trailingComma all):
 * - an object or array goes on one line when it fits (measured as prettier measures text) and holds
 *   nothing that always breaks; otherwise one `key: value,` or element per line, except all-number
 *   arrays, which fill lines. Always broken: a matrix (two or more arrays of two or more elements)
 *   and a list of records (two or more objects of two or more keys);
 * - keys are bare when they are identifiers, else single-quoted (quoteProps: as-needed);
 * - strings take single quotes unless they hold more single than double quotes; a string value that
 *   overflows goes on the next line when its key is 5 characters or wider.
 * Only property values are supported (the data always sits inside an object in generated code).
 */
import { createRequire } from 'node:module';
import { hasKeys, isRecord as isPlainObject } from '../manifest/json-path.js';

/** prettier's printWidth for everything mcpgen emits (cli/format/style.ts). */
export const WIDTH = 100;

/**
 * A TypeScript expression inside data, printed as is: a reference to a value the generated code
 * declares elsewhere (`jsonSchemas.getWeatherInput`), so the data does not repeat it. Laid out as
 * prettier lays out a member chain, which is how it lays out a string.
 */
export class Code {
  constructor(readonly text: string) {}
}

// Prettier unquotes any identifier name, not only ASCII ones (`日志: …`), as ts-types/print.ts's propertyKey.
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;
/** Text JSON.stringify leaves alone and that holds no quote: printed as is between single quotes. */
const PLAIN = /^[^'"\\\x00-\x1f\ud800-\udfff]*$/;

function isIdentifier(key: string): boolean {
  return IDENTIFIER.test(key);
}

/** A string literal as prettier prints it: JSON escapes, quotes chosen by prettier's rule. */
export function printString(s: string): string {
  if (PLAIN.test(s)) return `'${s}'`;
  const json = JSON.stringify(s);
  const singles = (s.match(/'/g) ?? []).length;
  const doubles = (s.match(/"/g) ?? []).length;
  if (singles > doubles) return json;
  // Switch to single quotes: `\"` needs no escape any more, `'` now does.
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** Printed keys: a schema document repeats a few dozen keys thousands of times. */
const printedKeys = new Map<string, string>();

function printKey(key: string, json: boolean): string {
  if (json) return JSON.stringify(key);
  let printed = printedKeys.get(key);
  // `__proto__` is computed: bare or quoted, it would set the literal's prototype.
  if (printed === undefined) printedKeys.set(key, (printed = key === '__proto__' ? "['__proto__']" : isIdentifier(key) ? key : printString(key)));
  return printed;
}

/** An object literal's property key as prettier prints it (quoteProps: as-needed). */
export function printPropertyKey(key: string): string {
  return printKey(key, false);
}

/** Numbers as prettier prints them: JSON's form without the `+` of an exponent. */
export function printNumber(n: number): string {
  return JSON.stringify(n).replace('e+', 'e');
}

/** A matrix — two or more arrays of two or more elements — is always broken, one row per line. */
function isMatrix(v: unknown[]): boolean {
  return v.length > 1 && v.every((e) => Array.isArray(e) && e.length > 1);
}

/** Two or more objects of two or more keys each: prettier always breaks such an array, one per line. */
function isRecordList(v: unknown[]): boolean {
  return v.length > 1 && v.every((e) => isPlainObject(e) && !(e instanceof Code) && hasTwoKeys(e));
}

function hasTwoKeys(o: object): boolean {
  let n = 0;
  for (const _ in o) if (++n > 1) return true;
  return false;
}

/**
 * One-line form of a value, or null when it cannot be on one line: a matrix or list of records, a
 * JSON object (printJson keeps every object expanded, as prettier keeps JSON it finds expanded),
 * or an array or object longer than a line (it could never be used).
 */
function flat(v: unknown, json: boolean): string | null {
  if (v === null || typeof v === 'boolean') return JSON.stringify(v);
  if (v instanceof Code) {
    if (json) throw new Error('internal: code in JSON data');
    return v.text;
  }
  if (typeof v === 'number') return printNumber(v);
  if (typeof v === 'string') return json ? JSON.stringify(v) : printString(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (isMatrix(v) || (!json && isRecordList(v))) return null;
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      const p = flat(v[i], json);
      if (p === null) return null;
      out += i === 0 ? p : `, ${p}`;
      if (out.length > WIDTH) return null;
    }
    return `${out}]`;
  }
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    if (json) return null;
    let out = '{ ';
    for (let i = 0; i < keys.length; i++) {
      const p = flat(v[keys[i]!], json);
      if (p === null) return null;
      out += `${i === 0 ? '' : ', '}${printKey(keys[i]!, false)}: ${p}`;
      if (out.length > WIDTH) return null;
    }
    return `${out} }`;
  }
  return 'null';
}

/** Printable ASCII only: text whose width is its length (anything else is measured as prettier measures it). */
export const ASCII = /^[\x20-\x7e]*$/;
/**
 * Code points prettier may measure as part of an emoji sequence (symbols, variation selectors,
 * joiners, keycaps, tags, pictographs): text holding one is measured whole by its doc printer.
 */
const EMOJI_LIKE = /[\u00a9\u00ae\u2000-\u2bff\u3030\u303d\u3297\u3299\ufe00-\ufe0f\ud800-\udfff]/;
let docPrinter: typeof import('prettier/doc') | undefined;
/** Widths of single non-ASCII code points, as prettier's doc printer measures them. */
const codePointWidths = new Map<number, number>();

/**
 * Whether a one-line form fits in `room` columns, measured as prettier measures: printable ASCII
 * by its length; other text (wide CJK characters, combining marks) code point by code point, each
 * measured once by prettier's own doc printer (loaded only then); text that may hold an emoji
 * sequence whole by the doc printer.
 */
function fits(text: string, room: number): boolean {
  if (ASCII.test(text)) return text.length <= room;
  if (room < 0) return false;
  if (EMOJI_LIKE.test(text)) return docFits(text, room);
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp < 0x7f) width++;
    else {
      let w = codePointWidths.get(cp);
      if (w === undefined) codePointWidths.set(cp, (w = docFits(ch, 0) ? 0 : docFits(ch, 1) ? 1 : 2));
      width += w;
    }
    if (width > room) return false;
  }
  return true;
}

/** Whether prettier's doc printer keeps `text` on a line of `room` columns. */
function docFits(text: string, room: number): boolean {
  docPrinter ??= createRequire(import.meta.url)('prettier/doc') as typeof import('prettier/doc');
  const { builders, printer } = docPrinter;
  const doc = builders.group([text, builders.softline]);
  return !printer.printDocToString(doc, { printWidth: room, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1]).formatted.includes('\n');
}

/**
 * Prints `value` whose first character goes at column `column` of a line indented by `indent`
 * spaces; `suffix` is what follows it on its last line (`,` or `;`), which counts for the width.
 */
export function printLiteral(value: unknown, indent: number, column: number, suffix: string): string {
  const out: string[] = [];
  print(out, value, indent, column, suffix, false);
  return out.join('');
}

/**
 * A JSON document as prettier's json parser prints it: the same layout, but keys and strings keep
 * JSON's double quotes, long strings never move below their key, and there are no trailing commas.
 */
export function printJson(value: unknown): string {
  // Objects, strings, booleans and integers only: JSON.stringify lays that out as prettier does
  // (every object expanded, two spaces), ≈ 25× faster than the printer (contracts.json of 1000 tools).
  if (objectsOnly(value, 0)) return `${JSON.stringify(value, null, 2)}\n`;
  const out: string[] = [];
  print(out, value, 0, 0, '', true);
  out.push('\n');
  return out.join('');
}

/** A tree of plain objects (empty arrays allowed) whose leaves JSON.stringify prints as `print` does. */
function objectsOnly(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.length === 0;
  if (!isPlainObject(v) || depth > 64) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false; // Code, Date (toJSON), class instances
  for (const k in v) if (!objectsOnly((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/**
 * Whether a scalar property value, printed `text`, moves below its key (`key:` then the value on
 * the next line, indented): a string, `null` or negative number that overflows moves below a key
 * that is not short (prettier's "break-after-operator" / "fluid" layouts; keys narrower than
 * tabWidth + 3 never break); other numbers and booleans never move. `indent` is the key's column.
 */
export function movesBelowKey(key: string, v: unknown, text: string, indent: number, suffix: string): boolean {
  return (
    key.length >= 5 &&
    (typeof v === 'string' || v === null || (typeof v === 'number' && v < 0) || v instanceof Code) &&
    !fits(text, WIDTH - (indent + key.length + 2) - suffix.length)
  );
}

/**
 * Whether a string assigned to a variable (`const name = 'text';`), printed `text` at `column`,
 * moves below the `=` (indented): prettier's "break-after-operator" layout of a string, taken as
 * soon as the line overflows.
 */
export function movesBelowOperator(text: string, column: number, suffix: string): boolean {
  return !fits(text, WIDTH - column - suffix.length);
}

const pads: string[] = [];
const spaces = (n: number) => (pads[n] ??= ' '.repeat(n));

/** Appends the printed value to `out` (one buffer for the whole literal: nothing is copied twice). */
function print(out: string[], value: unknown, indent: number, column: number, suffix: string, json: boolean): void {
  if (typeof value !== 'object' || value === null || value instanceof Code) return void out.push(flat(value, json) ?? 'null');
  const pad = spaces(indent + 2);
  if (!Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push('{}');
    // On one line when it fits (prettier keeps an object expanded only when it finds it so).
    const one = json ? null : flat(value, json);
    if (one !== null && fits(one, WIDTH - column - suffix.length)) return void out.push(one);
    out.push('{\n');
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      printMember(out, printKey(k, json), (value as Record<string, unknown>)[k], indent + 2, json && i === keys.length - 1 ? '' : ',', json);
    }
    out.push(spaces(indent), '}');
    return;
  }
  if (value.length === 0) return void out.push('[]');
  const one = flat(value, json);
  if (one !== null && fits(one, WIDTH - column - suffix.length)) return void out.push(one);
  if (value.every((e) => typeof e === 'number')) return void out.push(fillNumbers(value as number[], indent, json));
  out.push('[\n');
  for (let i = 0; i < value.length; i++) {
    const last = json && i === value.length - 1 ? '' : ',';
    out.push(pad);
    print(out, value[i], indent + 2, indent + 2, last, json);
    out.push(last, '\n');
  }
  out.push(spaces(indent), ']');
}

/**
 * One object member `key: value<last>` at `indent` (the key's column), as prettier lays it out
 * inside an expanded object; `last` is what follows the value (`,`, or `` for JSON's last member).
 */
function printMember(out: string[], key: string, v: unknown, indent: number, last: string, json: boolean): void {
  const pad = spaces(indent);
  if (typeof v !== 'object' || v === null || v instanceof Code) {
    const text = flat(v, json)!;
    const below = !json && movesBelowKey(key, v, text, indent, last);
    out.push(pad, key, below ? `:\n${pad}  ` : ': ', text, last, '\n');
    return;
  }
  // An object or array whose opening (`key: {`, or `key: [],` when empty) overflows moves below
  // a long key (prettier's "fluid" layout measures up to the value's first possible break).
  if (!json) {
    const empty = Array.isArray(v) ? v.length === 0 : !hasKeys(v);
    // (Keys narrower than tabWidth + 3 never break, as for strings: deep nesting reaches them.)
    if (key.length >= 5 && indent + key.length + 2 + (empty ? 2 + last.length : 1) > WIDTH) {
      out.push(pad, key, `:\n${pad}  `);
      print(out, v, indent + 2, indent + 2, last, json);
      out.push(last, '\n');
      return;
    }
  }
  out.push(pad, key, ': ');
  print(out, v, indent, indent + key.length + 2, last, json);
  out.push(last, '\n');
}

/**
 * A member `key: value,` of an expanded object literal whose key sits at column `indent`, printed
 * as prettier prints it, with its trailing newline; `suffix` goes between the value and the comma
 * (` satisfies T`), and counts for the width.
 */
export function printProperty(name: string, value: unknown, indent: number, suffix = ''): string {
  const out: string[] = [];
  printMember(out, printKey(name, false), value, indent, `${suffix},`, false);
  return out.join('');
}

/** A property name as prettier prints it in an object literal or a type (quoteProps as-needed). */
export function propertyName(name: string): string {
  return printKey(name, false);
}

/** prettier's "fill" for number arrays: as many per line as fit, after a line break. */
function fillNumbers(values: number[], indent: number, json: boolean): string {
  const pad = ' '.repeat(indent + 2);
  const lines: string[] = [];
  let line = '';
  for (const [i, n] of values.entries()) {
    const item = `${printNumber(n)}${json && i === values.length - 1 ? '' : ','}`;
    if (line && pad.length + line.length + 1 + item.length > WIDTH) {
      lines.push(line);
      line = item;
    } else line = line ? `${line} ${item}` : item;
  }
  lines.push(line);
  return `[\n${lines.map((l) => pad + l).join('\n')}\n${' '.repeat(indent)}]`;
}
