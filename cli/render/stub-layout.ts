/**
 * The stubs' statements whose layout depends on a name's width, printed as prettier prints them:
 * `<head> = async (<params>) => …;`, `<head> = { … };` and their `<key>: async (…) => [],` entries
 * take prettier's "fluid" assignment layout — on one line when it fits; else the right side's first
 * group breaks when what precedes that break still fits; else the right side moves below the
 * operator, indented — built from prettier's public doc builders. Statements that fit as written
 * (printable ASCII within the width) are returned as written, without loading the doc printer.
 */
import { createRequire } from 'node:module';
import type { Doc } from 'prettier';
import { ASCII, WIDTH } from '../format/literal.js';

type DocModule = typeof import('prettier/doc');
let loaded: DocModule | undefined;
const docs = () => (loaded ??= createRequire(import.meta.url)('prettier/doc') as DocModule);

/** An arrow function's body: statements in a block, or an expression such as `[]`. */
export type Body = { block: string[] } | { expression: string };

/** An entry `<key>: async (<params>) => <expression>` of an object. */
export interface ArrowEntry {
  key: string;
  params: readonly string[];
  expression: string;
}

/** `(a, b)`, or one per line with a trailing comma. */
function paramsDoc(names: readonly string[]): Doc {
  const { group, indent, softline, line, join, ifBreak } = docs().builders;
  return group(['(', indent([softline, join([',', line], [...names])]), ifBreak(','), softline, ')']);
}

/** A statement or a line comment; a call of one argument (`throw new NotImplementedError('…');`) breaks around it. */
function statementDoc(text: string): Doc {
  const { group, indent, softline, ifBreak } = docs().builders;
  const call = text.startsWith('//') ? null : /^([^(]*)\((.*)\);$/.exec(text);
  return call ? [call[1]!, group(['(', indent([softline, call[2]!]), ifBreak(','), softline, ')']), ';'] : text;
}

function arrowDoc(params: readonly string[], body: Body): Doc {
  const { group, indent, hardline } = docs().builders;
  const tail: Doc = 'block' in body ? ['{', indent(body.block.flatMap((s) => [hardline, statementDoc(s)])), hardline, '}'] : body.expression;
  return group(['async ', paramsDoc(params), ' => ', tail]);
}

/** prettier's fluid layout of `<left><operator> <right>`. */
function fluidDoc(left: string, operator: string, right: Doc): Doc {
  const { group, indent, line, indentIfBreak } = docs().builders;
  const id = Symbol('assignment');
  return group([left, operator, group(indent(line), { id }), indentIfBreak(right, { groupId: id })]);
}

function objectDoc(entries: readonly ArrowEntry[]): Doc {
  const { group, indent, line, join, ifBreak } = docs().builders;
  const props = entries.map((e) => fluidDoc(e.key, ':', arrowDoc(e.params, { expression: e.expression })));
  return group(['{', indent([line, join([',', line], props)]), ifBreak(','), line, '}'], { shouldBreak: true });
}

function print(doc: Doc): string {
  const { printDocToString } = docs().printer;
  return printDocToString(doc, { printWidth: WIDTH, tabWidth: 2, useTabs: false } as Parameters<typeof printDocToString>[1]).formatted;
}

const fits = (lines: string[]) => lines.every((l) => ASCII.test(l) && l.length <= WIDTH);
const entryLine = (e: ArrowEntry) => `  ${e.key}: async (${e.params.join(', ')}) => ${e.expression},`;

/** `<head> = async (<params>) => <body>;` at the top level of a module. */
export function arrowConst(head: string, params: readonly string[], body: Body): string {
  const first = `${head} = async (${params.join(', ')}) => ${'block' in body ? '{' : `${body.expression};`}`;
  const written = 'block' in body ? [first, ...body.block.map((s) => `  ${s}`), '};'] : [first];
  return fits(written) ? written.join('\n') : print([fluidDoc(head, ' =', arrowDoc(params, body)), ';']);
}

/** `<head> = { <entries> };`, the object broken one entry per line. */
export function objectConst(head: string, entries: readonly ArrowEntry[]): string {
  const written = [`${head} = {`, ...entries.map(entryLine), '};'];
  return fits(written) ? written.join('\n') : print([fluidDoc(head, ' =', objectDoc(entries)), ';']);
}
