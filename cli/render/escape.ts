/**
 * Escaping at the boundary: manifest text reaches generated code only through these.
 */

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
 * True for the names a plain object inherits (`constructor`, `toString`, `__proto__`…): generated
 * code reaches entries with such names only through own-property lookups, and TypeScript gives an
 * object-literal member with such a name the inherited member's type as its contextual type.
 */
export function isInheritedName(name: string): boolean {
  return Object.hasOwn(Object.prototype, name);
}
