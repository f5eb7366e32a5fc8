/**
 * Escaping at the boundary (STYLE.md §5): manifest text reaches generated code only through these.
 */
import { isPlainIdentifier } from '../normalize/names.js';

/** A TypeScript string literal. JSON is a subset of JS string syntax (ES2019+ allows U+2028/9). */
export function stringLiteral(value: string): string {
  return JSON.stringify(value);
}

/** A JSON value as a TypeScript expression. `undefined` becomes `undefined`, never a missing token. */
export function jsonLiteral(value: unknown, indent?: number): string {
  return value === undefined ? 'undefined' : JSON.stringify(value, null, indent);
}

/** Text inside a `/** … *\/` comment: `*\/` broken up, each line prefixed. */
export function docLines(text: string): string[] {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
}

/** A full JSDoc block at the given indentation, or '' when there is no text. */
export function docComment(text: string | null | undefined, indent = ''): string {
  if (!text) return '';
  const lines = docLines(text);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** A single-line `//` comment body: newlines flattened so text cannot end the comment early. */
export function lineComment(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/**
 * A property key: bare when it is an identifier, quoted otherwise. `__proto__` is computed: in an
 * object literal, bare or quoted, it would set the prototype instead of adding the entry.
 */
export function propertyKey(name: string): string {
  if (name === '__proto__') return "['__proto__']";
  return isPlainIdentifier(name) ? name : stringLiteral(name);
}

/**
 * True for the names a plain object inherits (`constructor`, `toString`, `__proto__`…): generated
 * code reaches entries with such names only through own-property lookups, and TypeScript gives an
 * object-literal member with such a name the inherited member's type as its contextual type.
 */
export function isInheritedName(name: string): boolean {
  return Object.hasOwn(Object.prototype, name);
}
