/**
 * Prints type declarations in prettier's layout (mcpgen's options): nothing formats types.ts afterwards.
 * - Most lines are fixed by construction and written directly: object types are always expanded
 *   (prettier keeps an object type expanded when it is written so), and a member or alias whose
 *   type fits on its line is printed flat, as prettier's group would be.
 * - Everything else (a union, tuple or intersection that has to break) becomes the same doc —
 *   groups, indents, line breaks — that prettier's TypeScript printer builds for it, laid out by
 *   prettier's own doc printer, so the line-fitting decisions are prettier's. The doc shapes were
 *   read off `prettier.__debug.printToDoc`.
 * test/ts-types.test.ts prints thousands of random schemas and requires prettier to change nothing.
 */
import { builders, printer, type builders as B } from 'prettier/doc';
// Only ASCII text is measured here; anything else is left to the doc printer, which measures wide characters.
import { ASCII, printNumber, printString, WIDTH } from '../../format/literal.js';
import type { Member, TypeNode } from './schema-type.js';

type Doc = B.Doc;
const DOC_OPTIONS = { printWidth: WIDTH, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1];
const { group, indent, align, line, softline, hardline, ifBreak, indentIfBreak, lineSuffixBoundary, join } = builders;

/** One exported declaration of types.ts. */
export interface Declaration {
  name: string;
  doc: string[];
  type: TypeNode;
}

const KEYWORDS = new Set(['string', 'number', 'boolean', 'null', 'undefined', 'unknown', 'never']);
const isObjectType = (t: TypeNode) => t.kind === 'object';
const isNull = (t: TypeNode) => t.kind === 'name' && t.text === 'null';
const isReference = (t: TypeNode) => t.kind === 'name' && !KEYWORDS.has(t.text);

/**
 * `{ … } | null` and `Name | null`: prettier keeps the object or name where it is and appends
 * ` | null` ("hugging") instead of breaking the union into `| …` lines.
 */
function hugs(t: TypeNode): t is Extract<TypeNode, { kind: 'union' }> {
  return (
    t.kind === 'union' &&
    t.members.filter(isNull).length === t.members.length - 1 &&
    t.members.some((m) => isObjectType(m) || isReference(m))
  );
}

/** A union as prettier prints it: `A | B` flat, `| A` per line (aligned by 2) when broken. */
function unionCode(t: Extract<TypeNode, { kind: 'union' }>): Doc {
  const members = t.members.map((m) => align(2, m.kind === 'intersection' ? ['(', typeDoc(m), ')'] : typeDoc(m)));
  return group([ifBreak('| '), join([line, '| '], members)]);
}

/** The type in a position that needs parentheses around a union or intersection (`(A | B)[]`). */
function parenthesized(t: TypeNode): Doc {
  if (t.kind === 'union' && !hugs(t)) return ['(', group([indent([softline, unionCode(t)]), softline]), ')'];
  if (t.kind === 'union' || t.kind === 'intersection') return ['(', typeDoc(t), ')'];
  return typeDoc(t);
}

/** After `key: ` and `[k: string]: `: a broken union starts on the next line, indented. */
function annotation(t: TypeNode): Doc {
  return t.kind === 'union' && !hugs(t) ? group(indent([softline, unionCode(t)])) : typeDoc(t);
}

function typeDoc(t: TypeNode): Doc {
  switch (t.kind) {
    case 'name':
      return t.text;
    case 'literal':
      return typeof t.value === 'string' ? printString(t.value) : typeof t.value === 'number' ? printNumber(t.value) : String(t.value);
    case 'object':
      return objectDoc(t.members);
    case 'array':
      return [parenthesized(t.element), '[]'];
    case 'tuple':
      return tupleDoc(t);
    case 'union':
      return hugs(t) ? join(' | ', t.members.map(typeDoc)) : unionCode(t);
    case 'intersection':
      return intersectionDoc(t.members);
  }
}

function tupleDoc(t: Extract<TypeNode, { kind: 'tuple' }>): Doc {
  if (t.elements.length === 0 && !t.rest) return group(['[', ']']);
  const several = t.elements.length + (t.rest ? 1 : 0) > 1;
  const items = t.elements.map((e) => {
    // A union among several elements gets parentheses when it breaks over lines.
    if (e.kind === 'union' && !hugs(e) && several) return group(group([indent([ifBreak(['(', softline]), unionCode(e)]), softline, ifBreak(')')]));
    return group(typeDoc(e));
  });
  if (t.rest) items.push(group(['...', parenthesized(t.rest), '[]']));
  return group(['[', indent([softline, join([',', line], items), ifBreak(',')]), softline, ']']);
}

/** prettier's printIntersectionType: objects next to each other or to names stay on the line. */
function intersectionDoc(members: TypeNode[]): Doc {
  const result: Doc[] = [];
  let wasIndented = false;
  members.forEach((m, i) => {
    const d = parenthesized(m);
    const prev = members[i - 1];
    if (!prev) result.push(d);
    else if (!isObjectType(prev) && !isObjectType(m)) result.push(indent([' &', line, d]));
    else if (isObjectType(prev) && isObjectType(m)) result.push([' & ', wasIndented ? indent(d) : d]);
    else {
      if (i > 1) wasIndented = true;
      result.push(' & ', i > 1 ? indent(d) : d);
    }
  });
  return group(result);
}

/** Object types are always written expanded, one member per line (prettier keeps them so). */
function objectDoc(members: Member[]): Doc {
  if (members.length === 0) return '{}';
  const printed = members.map(memberDoc);
  return group(['{', indent([line, join([';', line], printed), ifBreak(';')]), line, '}'], { shouldBreak: true });
}

function memberDoc(m: Member): Doc {
  return [...jsdoc(m.doc), memberTypeDoc(m)];
}

function memberTypeDoc(m: Member): Doc {
  const head: Doc =
    m.name === null
      ? ['[', group([indent([softline, 'k', ':', ' ', 'string']), softline]), ']']
      : [propertyKey(m.name), m.optional ? '?' : ''];
  return group([head, ':', ' ', annotation(m.type)]);
}

/**
 * A property name as prettier leaves it (quoteProps as-needed, typescript parser): bare when it is
 * an identifier (prettier unquotes those), quoted otherwise — numbers included, which prettier
 * keeps quoted in TypeScript.
 */
export function propertyKey(name: string): string {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name) ? name : printString(name);
}

/** JSDoc: one line as `/** text *\/`, several as a block; `*\/` in the text is broken up. */
function jsdoc(lines: string[]): Doc[] {
  const text = lines.map((l) => l.replace(/\*\//g, '*\\/').trimEnd());
  while (text.length && text.at(-1) === '') text.pop();
  while (text.length && text[0] === '') text.shift();
  if (text.length === 0) return [];
  if (text.length === 1) return [`/** ${text[0]} */`, hardline];
  return ['/**', hardline, ...text.flatMap((l) => [l ? ` * ${l}` : ' *', hardline]), ' */', hardline];
}

function declarationDoc(d: Declaration): Doc {
  const comment = jsdoc(d.doc);
  const t = d.type;
  if (t.kind === 'object') {
    const body = t.members.length === 0 ? '{}' : ['{', indent([hardline, join([';', hardline], t.members.map(memberDoc)), ';']), hardline, '}'];
    return [...comment, 'export interface ', d.name, ' ', body];
  }
  const left = group(['type ', d.name]);
  if (t.kind === 'union' && !hugs(t)) return [...comment, 'export ', group([left, ' =', group(indent([line, unionCode(t)]))]), ';'];
  // prettier's "fluid" assignment layout: break after `=` only when the right side cannot start on the line.
  const id = Symbol('assignment');
  return [...comment, 'export ', group([left, ' =', group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(typeDoc(t), { groupId: id })]), ';'];
}

/**
 * The flat (one-line) form of a type, or null when it holds an object (objects are always
 * expanded). It is what the doc prints when its group fits on the line.
 */
function flat(t: TypeNode): string | null {
  switch (t.kind) {
    case 'name':
    case 'literal':
      return typeDoc(t) as string;
    case 'object':
      return t.members.length === 0 ? '{}' : null;
    case 'array': {
      const e = flat(t.element);
      if (e === null) return null;
      return t.element.kind === 'union' || t.element.kind === 'intersection' ? `(${e})[]` : `${e}[]`;
    }
    case 'tuple': {
      const parts = t.elements.map(flat);
      if (t.rest) {
        const rest = flat({ kind: 'array', element: t.rest });
        parts.push(rest === null ? null : `...${rest}`);
      }
      return parts.includes(null) ? null : `[${parts.join(', ')}]`;
    }
    case 'union':
    case 'intersection': {
      const parts: string[] = [];
      for (const m of t.members) {
        const f = flat(m);
        if (f === null) return null;
        const nested = t.kind === 'union' ? m.kind === 'intersection' : m.kind === 'union';
        parts.push(nested ? `(${f})` : f);
      }
      return parts.join(t.kind === 'union' ? ' | ' : ' & ');
    }
  }
}

/** Prints a doc at `level` indentation on a line of its own (the rest of the file breaks after it). */
function printAt(level: number, doc: Doc): string {
  let d: Doc = [hardline, doc];
  for (let i = 0; i < level; i++) d = indent(d);
  return printer.printDocToString(d, DOC_OPTIONS).formatted.slice(1);
}

/**
 * Lines of an object's members at `level`. The common shapes — a member whose type fits on its
 * line, a nested object, an array of objects, `{ … } | null` — are written directly (the layout
 * prettier's doc gives them is fixed); anything else goes through the doc printer.
 */
function membersText(members: Member[], level: number, out: string[]): void {
  const pad = '  '.repeat(level);
  for (const m of members) {
    for (const l of jsdocLines(m.doc)) out.push(pad + l);
    const head = m.name === null ? '[k: string]: ' : `${propertyKey(m.name)}${m.optional ? '?' : ''}: `;
    const t = m.type;
    const f = flat(t);
    if (f !== null) {
      const text = `${pad}${head}${f};`;
      if (text.length <= WIDTH && ASCII.test(text)) {
        out.push(text);
        continue;
      }
    } else if (pad.length + head.length + 1 <= WIDTH && ASCII.test(head)) {
      // `{ … }`, `{ … }[]`, `{ … } | null`: the object breaks, the rest stays on its lines.
      let inner: TypeNode = t;
      let suffix = ';';
      if (t.kind === 'union' && hugs(t) && t.members.length === 2 && t.members[0]!.kind === 'object') [inner, suffix] = [t.members[0]!, ' | null;'];
      while (inner.kind === 'array') [inner, suffix] = [inner.element, `[]${suffix}`];
      if (inner.kind === 'object' && inner.members.length > 0) {
        out.push(`${pad}${head}{`);
        membersText(inner.members, level + 1, out);
        out.push(`${pad}}${suffix}`);
        continue;
      }
    }
    out.push(printAt(level, [memberTypeDoc(m), ';']));
  }
}

/** JSDoc lines, without indentation. */
function jsdocLines(lines: string[]): string[] {
  return jsdoc(lines).filter((p): p is string => typeof p === 'string');
}

/** One declaration, exactly as prettier would format it. */
export function printDeclaration(d: Declaration): string {
  const t = d.type;
  const comment = jsdocLines(d.doc);
  if (t.kind === 'object') {
    if (t.members.length === 0) return [...comment, `export interface ${d.name} {}`].join('\n');
    const out = [...comment, `export interface ${d.name} {`];
    membersText(t.members, 1, out);
    out.push('}');
    return out.join('\n');
  }
  const f = flat(t);
  const text = f === null ? null : `export type ${d.name} = ${f};`;
  if (text !== null && text.length <= WIDTH && ASCII.test(text)) return [...comment, text].join('\n');
  return printer.printDocToString(declarationDoc(d), DOC_OPTIONS).formatted;
}

