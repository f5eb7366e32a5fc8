/**
 * Prints JSON data as a TypeScript literal exactly as prettier (mcpgen's options) would print it,
 * so generated data — schemas, contents, expected lists — needs no prettier pass. prettier is by far
 * the slowest stage of generation; a test formats thousands of printed values and requires prettier
 * to change nothing.
 *
 * The rules followed (prettier 3, typescript parser, printWidth 100, singleQuote, trailingComma all):
 * - a non-empty object is printed expanded (prettier keeps an object expanded when its first key
 *   starts a new line in the source), one `key: value,` per line;
 * - keys are bare when they are identifiers, else single-quoted (quoteProps: as-needed);
 * - an array goes on one line when it fits and holds no object; otherwise one element per line,
 *   except all-number arrays, which fill lines;
 * - strings take single quotes unless they hold more single than double quotes; a string value that
 *   overflows goes on the next line when its key is 5 characters or wider.
 * Only property values are supported (the data always sits inside an object in generated code).
 */
import { isRecord as isPlainObject } from '../manifest/json-path.js';

const WIDTH = 100;

/**
 * A TypeScript expression inside data, printed as is: a reference to a value the generated code
 * declares elsewhere (`jsonSchemas.getWeatherInput`), so the data does not repeat it. Laid out as
 * prettier lays out a member chain, which is how it lays out a string.
 */
export class Code {
  constructor(readonly text: string) {}
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
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
  if (printed === undefined) printedKeys.set(key, (printed = isIdentifier(key) ? key : printString(key)));
  return printed;
}

/** Numbers as prettier prints them: JSON's form without the `+` of an exponent. */
export function printNumber(n: number): string {
  return JSON.stringify(n).replace('e+', 'e');
}

/** A matrix — two or more arrays of two or more elements — is always broken, one row per line. */
function isMatrix(v: unknown[]): boolean {
  return v.length > 1 && v.every((e) => Array.isArray(e) && e.length > 1);
}

/** One-line form of a value, or null when it cannot be on one line (it holds an object). */
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
    if (isMatrix(v)) return null;
    const parts: string[] = [];
    for (const e of v) {
      const p = flat(e, json);
      if (p === null) return null;
      parts.push(p);
    }
    return `[${parts.join(', ')}]`;
  }
  if (isPlainObject(v)) return Object.keys(v).length === 0 ? '{}' : null;
  return 'null';
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
  const out: string[] = [];
  print(out, value, 0, 0, '', true);
  out.push('\n');
  return out.join('');
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
    out.push('{\n');
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const key = printKey(k, json);
      const v = (value as Record<string, unknown>)[k];
      const last = json && i === keys.length - 1 ? '' : ',';
      if (typeof v !== 'object' || v === null || v instanceof Code) {
        const text = flat(v, json)!;
        // A string, `null` or negative number that overflows moves below a key that is not short
        // (prettier's "break-after-operator" / "fluid" layouts; keys narrower than tabWidth + 3
        // never break); other numbers and booleans never move.
        const below =
          !json &&
          key.length >= 5 &&
          (typeof v === 'string' || v === null || (typeof v === 'number' && v < 0) || v instanceof Code) &&
          indent + 2 + key.length + 2 + text.length + 1 > WIDTH;
        out.push(pad, key, below ? `:\n${pad}  ` : ': ', text, last, '\n');
        continue;
      }
      // An object or array whose opening (`key: {`, or `key: [],` when empty) overflows moves below
      // a long key (prettier's "fluid" layout measures up to the value's first possible break).
      if (!json) {
        const empty = Array.isArray(v) ? v.length === 0 : !hasKeys(v);
        if (indent + 2 + key.length + 2 + (empty ? 2 + last.length : 1) > WIDTH) {
          out.push(pad, key, `:\n${pad}  `);
          print(out, v, indent + 4, indent + 4, last, json);
          out.push(last, '\n');
          continue;
        }
      }
      out.push(pad, key, ': ');
      print(out, v, indent + 2, indent + 2 + key.length + 2, last, json);
      out.push(last, '\n');
    }
    out.push(spaces(indent), '}');
    return;
  }
  if (value.length === 0) return void out.push('[]');
  const one = flat(value, json);
  if (one !== null && column + one.length + suffix.length <= WIDTH) return void out.push(one);
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

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
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
