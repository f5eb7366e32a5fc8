/**
 * Prints type declarations in mcpgen's fixed layout (nothing formats types.ts afterwards): an object
 * type is always expanded, one member a line, two spaces deeper than its parent; everything else
 * (unions, intersections, tuples, arrays) stays on its line, however long.
 */
import { printString } from '../literal.js';
import type { Member, TypeNode } from './schema-type.js';

/** One exported declaration of types.ts. */
export interface Declaration {
  name: string;
  doc: string[];
  type: TypeNode;
}

/**
 * A property name in a type: bare when it is an identifier, quoted otherwise. `__proto__` is an
 * ordinary property in a type (only an object literal gives it a meaning), so it stays bare.
 */
export function propertyKey(name: string): string {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name) ? name : printString(name);
}

/** JSDoc lines: one line as `/** text *\/`, several as a block; `*\/` in the text is broken up. */
function jsdoc(lines: string[]): string[] {
  const text = lines.map((l) => l.replace(/\*\//g, '*\\/').trimEnd());
  while (text.length && text.at(-1) === '') text.pop();
  while (text.length && text[0] === '') text.shift();
  if (text.length === 0) return [];
  if (text.length === 1) return [`/** ${text[0]} */`];
  return ['/**', ...text.map((l) => (l ? ` * ${l}` : ' *')), ' */'];
}

/** The type as written at indentation `level` (an object's members go one level deeper). */
function typeText(t: TypeNode, level: number): string {
  switch (t.kind) {
    case 'name':
      return t.text;
    case 'literal':
      return typeof t.value === 'string'
        ? printString(t.value)
        : typeof t.value === 'number'
          ? JSON.stringify(t.value)
          : String(t.value);
    case 'object':
      return t.members.length === 0 ? '{}' : `{\n${membersText(t.members, level + 1)}${'  '.repeat(level)}}`;
    case 'array':
      return `${grouped(t.element, level)}[]`;
    case 'tuple': {
      const items = t.elements.map((e) => typeText(e, level));
      if (t.rest) items.push(`...${grouped(t.rest, level)}[]`);
      return `[${items.join(', ')}]`;
    }
    case 'union':
      return t.members
        .map((m) => (m.kind === 'intersection' ? `(${typeText(m, level)})` : typeText(m, level)))
        .join(' | ');
    case 'intersection':
      return t.members.map((m) => grouped(m, level)).join(' & ');
  }
}

/** A union or intersection in parentheses, where it would otherwise bind wrongly (`(A | B)[]`). */
function grouped(t: TypeNode, level: number): string {
  return t.kind === 'union' || t.kind === 'intersection' ? `(${typeText(t, level)})` : typeText(t, level);
}

/** An object's members, each line indented to `level`, each ending in a newline. */
function membersText(members: Member[], level: number): string {
  const pad = '  '.repeat(level);
  let out = '';
  for (const m of members) {
    for (const l of jsdoc(m.doc)) out += `${pad}${l}\n`;
    const head = m.name === null ? '[k: string]' : `${propertyKey(m.name)}${m.optional ? '?' : ''}`;
    out += `${pad}${head}: ${typeText(m.type, level)};\n`;
  }
  return out;
}

/** One declaration: an object type as an interface, any other as a type alias. */
export function printDeclaration(d: Declaration): string {
  const comment = jsdoc(d.doc)
    .map((l) => `${l}\n`)
    .join('');
  const t = d.type;
  if (t.kind === 'object')
    return `${comment}export interface ${d.name} ${t.members.length === 0 ? '{}' : `{\n${membersText(t.members, 1)}}`}`;
  return `${comment}export type ${d.name} = ${typeText(t, 0)};`;
}
