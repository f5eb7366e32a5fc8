/**
 * Width-dependent code (a call, a type reference, an object member whose layout depends on the
 * length of names) printed with prettier's own doc builders and doc printer, built as prettier's
 * TypeScript printer builds them, so the text is what prettier prints. Text that fits on its line
 * is emitted as is: the doc printer (prettier/doc, not prettier) is loaded only for what overflows.
 */
import { createRequire } from 'node:module';
import type { Doc } from 'prettier';
import { ASCII, WIDTH } from '../format/literal.js';

type DocModule = typeof import('prettier/doc');
let docModule: DocModule | undefined;
export const doc = (): DocModule => (docModule ??= createRequire(import.meta.url)('prettier/doc') as DocModule);

/** A piece of code: its one-line text, and how to build its doc when that does not fit. */
export interface Code {
  flat: string;
  doc: () => Doc;
}

export const text = (s: string): Code => ({ flat: s, doc: () => s });

/** `open a, b close`: broken one item per line (with a trailing comma unless `trailing` is false) when it does not fit. */
function list(open: string, items: readonly Code[], close: string, trailing = true): Code {
  return {
    flat: `${open}${items.map((i) => i.flat).join(', ')}${close}`,
    doc: () => {
      const { group, indent, softline, line, ifBreak, join } = doc().builders;
      if (items.length === 0) return `${open}${close}`;
      return group([open, indent([softline, join([',', line], items.map((i) => i.doc()))]), ifBreak(trailing ? ',' : ''), softline, close]);
    },
  };
}

/** `callee(args)` whose arguments are not hugged (none is an object, array or function). */
export function call(callee: string | Code, args: readonly Code[]): Code {
  const c = typeof callee === 'string' ? text(callee) : callee;
  const l = list('(', args, ')');
  return { flat: `${c.flat}${l.flat}`, doc: () => [c.doc(), l.doc()] };
}

/** `Name<A, B>` (a type reference with type arguments): a lone simple type argument never breaks. */
export function typeRef(name: string, args: readonly Code[]): Code {
  if (args.length === 1) return text(`${name}<${args[0]!.flat}>`);
  // Type arguments take no trailing comma.
  const l = list('<', args, '>', false);
  return { flat: `${name}${l.flat}`, doc: () => [name, l.doc()] };
}

/** `{ a: A; b: B }` (an object type literal written on one line in the source). */
export function typeLiteral(members: readonly { key: string; type: Code }[]): Code {
  return {
    flat: `{ ${members.map((m) => `${m.key}: ${m.type.flat};`).join(' ').slice(0, -1)} }`,
    doc: () => {
      const { group, indent, line, ifBreak, join } = doc().builders;
      return group(['{', indent([line, join([';', line], members.map((m) => [m.key, ': ', m.type.doc()]))]), ifBreak(';'), line, '}']);
    },
  };
}

/** An object literal member `key: value` (prettier's "fluid" assignment layout; keys narrower than 5 never break). */
export function member(key: string, value: Code): Code {
  return {
    flat: `${key}: ${value.flat}`,
    doc: () => {
      const { group, indent, line, indentIfBreak, lineSuffixBoundary } = doc().builders;
      if (key.length < 5) return group([key, ': ', value.doc()]);
      const id = Symbol('member');
      return group([key, ':', group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(group(value.doc()), { groupId: id })]);
    },
  };
}

/** An interface (or type literal) member `key: Type`: its type never moves below the key. */
export function field(key: string, type: Code): Code {
  return { flat: `${key}: ${type.flat}`, doc: () => [key, ': ', type.doc()] };
}

/** `code` + `end` on a line indented by `indent`, as prettier prints it (no trailing newline). */
export function printAt(code: Code, indent: number, end: string): string {
  const pad = ' '.repeat(indent);
  const one = `${pad}${code.flat}${end}`;
  if (one.length <= WIDTH && ASCII.test(one)) return one;
  const { builders, printer } = doc();
  const d = [pad, builders.align(indent, [code.doc(), end])];
  return printer.printDocToString(d, { printWidth: WIDTH, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1]).formatted;
}
