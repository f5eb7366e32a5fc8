/**
 * The one printer of manifest data in generated code: a JSON value as a TypeScript literal, in
 * mcpgen's own fixed layout. An object or array whose one-line form is short stays on one line;
 * any other puts one member per line, two spaces deeper. The layout does not depend on where the
 * value stands, so a value prints the same in every file.
 */

/** A TypeScript expression inside data, printed as is (`jsonSchemas.getWeatherInput`). */
export class Code {
  constructor(readonly text: string) {}
}

/** The longest one-line form an object or array keeps. */
export const INLINE = 80;

/**
 * A string literal with JSON's escapes (controls, lone surrogates): in single quotes, or in double
 * quotes when the text has a `'` and no `"`, so it reads as written.
 */
export function printString(s: string): string {
  if (/^[^'"\\\x00-\x1f\ud800-\udfff]*$/.test(s)) return `'${s}'`;
  const json = JSON.stringify(s);
  if (s.includes("'") && !s.includes('"')) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** An object literal's key: bare when it is an identifier; `__proto__` computed, as a plain key would set the prototype. */
export function propertyKey(key: string): string {
  if (key === '__proto__') return "['__proto__']";
  return IDENTIFIER.test(key) ? key : printString(key);
}

/** `value` as a literal whose continuation lines are indented by `indent` spaces. */
export function printLiteral(value: unknown, indent = 0): string {
  const one = inline(value);
  if (one !== null) return one;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value))
    return `[\n${value.map((e) => `${pad}${printLiteral(e, indent + 2)},\n`).join('')}${' '.repeat(indent)}]`;
  const members = Object.entries(value as object).map(
    ([k, v]) => `${pad}${propertyKey(k)}: ${printLiteral(v, indent + 2)},\n`,
  );
  return `{\n${members.join('')}${' '.repeat(indent)}}`;
}

/** The one-line form of `value`, or null when it is an object or array too long for one line. */
function inline(value: unknown): string | null {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return printString(value);
  if (value instanceof Code) return value.text;
  if (typeof value !== 'object') throw new Error(`internal: ${typeof value} is not data`);
  const parts: string[] = [];
  let length = 4;
  const add = (text: string | null): boolean => {
    if (text === null || (length += text.length + 2) > INLINE) return false;
    parts.push(text);
    return true;
  };
  if (Array.isArray(value)) {
    for (const e of value) if (!add(inline(e))) return null;
    return `[${parts.join(', ')}]`;
  }
  const entries = Object.entries(value);
  if (!entries.length) return '{}';
  for (const [k, v] of entries) {
    const printed = inline(v);
    if (!add(printed === null ? null : `${propertyKey(k)}: ${printed}`)) return null;
  }
  return `{ ${parts.join(', ')} }`;
}

/** A JSON file: two-space indentation, a final newline. */
export function printJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
