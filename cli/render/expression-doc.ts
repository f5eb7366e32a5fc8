/**
 * Expressions of server.ts (calls whose last argument hugs, arrow functions, objects, member
 * lookups, declarations) as prettier's estree printer builds their docs (its call-arguments.js,
 * arrow-function.js, assignment.js, member.js), so the doc printer lays them out as prettier
 * does. Each also has its one-line text: what fits is emitted as is (cli/render/code-doc.ts).
 */
import type { Doc } from 'prettier';
import { printString } from '../format/literal.js';
import { doc, type Code } from './code-doc.js';

/** What the hugging and assignment rules look at. */
type Kind = 'arrow' | 'call' | 'object' | 'array' | 'string' | 'chain' | 'other';

export interface Expr extends Code {
  kind: Kind;
  /** An arrow whose body is a call, object or array, an object or an array with entries: may hug as a last argument. */
  huggable?: boolean;
  /** Its doc when hugged as a call's last argument. */
  expanded?: () => Doc;
}

const b = () => doc().builders;

export const atom = (s: string, kind: Kind = 'other'): Expr => ({ flat: s, doc: () => s, kind });
export const str = (s: string): Expr => atom(printString(s), 'string');

/**
 * `root.a['b']?.c`: steps are `.name`, `?.name` or `['printed string']`. A `.name` lookup stays on
 * its line only on a bare identifier not itself looked into; others may break before the dot.
 */
export function path(root: string, ...steps: string[]): Expr {
  let flat = root;
  let parts: () => Doc[] = () => [root];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const prev = parts;
    flat += step;
    if (step.startsWith('[')) {
      const inner = step.slice(1, -1);
      parts = () => {
        const { group, indent, softline } = b();
        return [prev(), b().lineSuffixBoundary, group(['[', indent([softline, inner]), softline, ']'])];
      };
    } else {
      const inline = i === 0 && steps.length === 1;
      parts = () => {
        const { group, indent, softline, lineSuffixBoundary } = b();
        return [prev(), lineSuffixBoundary, inline ? step : group(indent([softline, step]))];
      };
    }
  }
  // A chain of lookups without calls: prettier breaks after `:` before breaking it.
  return { flat, doc: () => parts(), kind: steps.length ? 'chain' : 'other' };
}


/** `callee<typeArg>(args)` as prettier prints a call (printCallArguments). */
export function call(callee: string | Expr, args: readonly Expr[], options: { typeArg?: string; isNew?: boolean; isImport?: boolean } = {}): Expr {
  const c = typeof callee === 'string' ? atom(callee) : callee;
  const head = `${options.isNew ? 'new ' : ''}${c.flat}${options.typeArg ? `<${options.typeArg}>` : ''}`;
  const flat = `${head}(${args.map((a) => a.flat).join(', ')})`;
  const argsDoc = (): Doc => {
    const { group, indent, softline, line, ifBreak, conditionalGroup } = b();
    if (args.length === 0) return '()';
    const comma = options.isImport ? '' : ifBreak(',');
    const printed = args.map((a, i) => (i === args.length - 1 ? a.doc() : [a.doc(), ',', line]));
    const last = args.at(-1)!;
    const penultimate = args.at(-2);
    const hug = last.huggable && last.expanded && (!penultimate || penultimate.kind !== last.kind);
    if (!hug) return group(['(', indent([softline, ...printed]), comma, softline, ')']);
    const headArgs = printed.slice(0, -1);
    const allBroken = group(['(', indent([line, ...printed]), comma, line, ')'], { shouldBreak: true });
    return conditionalGroup([
      ['(', ...headArgs, last.expanded!(), ')'],
      ['(', ...headArgs, group(last.expanded!(), { shouldBreak: true }), ')'],
      allBroken,
    ]);
  };
  // A member callee (`server.registerResource`) is a short member chain: one group.
  const member = c.kind === 'chain';
  return {
    flat,
    kind: options.isNew || options.isImport ? 'other' : 'call',
    // `import('module')` never breaks (nor does a call of `require`).
    doc: () => {
      if (options.isImport) return flat;
      const d = [options.isNew ? 'new ' : '', c.doc(), options.typeArg ? `<${options.typeArg}>` : '', argsDoc()];
      return member ? b().group(d) : d;
    },
  };
}

/** `(params) => body` (printArrowFunction: not a chain; a body that is an object stays on the line). */
export function arrow(params: readonly string[], body: Expr): Expr {
  const sig = `(${params.join(', ')})`;
  const sameLine = body.kind === 'object';
  const flat = `${sig} => ${sameLine ? `(${body.flat})` : body.flat}`;
  const print = (expandLastArg: boolean): Doc => {
    const { group, indent, softline, line, ifBreak, join } = b();
    const paramsDoc: Doc =
      params.length === 0 || expandLastArg ? sig : ['(', indent([softline, join([',', line], [...params])]), ifBreak(','), softline, ')'];
    const bodyDoc: Doc = sameLine
      ? [' (', body.doc(), ')']
      : [indent([line, body.doc()]), expandLastArg ? ifBreak(',') : '', expandLastArg ? softline : ''];
    return group([group(paramsDoc), ' =>', group(bodyDoc)]);
  };
  // An arrow hugs when its body is a call, an object or an array (couldExpandArg).
  const huggable = body.kind === 'call' || body.kind === 'object' || body.kind === 'array';
  return { flat, kind: 'arrow', huggable, doc: () => print(false), expanded: () => print(true) };
}

/** `key: value` in an object literal or as a declaration (printAssignment's layouts). */
function assignment(left: string, operator: string, value: Expr, property: boolean): Doc {
  const { group, indent, line, indentIfBreak, lineSuffixBoundary } = b();
  const shortKey = property && left.length < 5;
  if (!shortKey && (value.kind === 'string' || value.kind === 'chain')) return group([group(left), operator, group(indent([line, value.doc()]))]);
  if (shortKey) return group([group(left), operator, ' ', value.doc()]);
  const id = Symbol('assignment');
  return group([group(left), operator, group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(value.doc(), { groupId: id })]);
}

export type Member = { spread: Expr } | { key: string; value: Expr };

/** `{ a: b, ...c }` (written on one line: broken only when it does not fit). */
export function object(members: readonly Member[]): Expr {
  const one = (m: Member) => ('spread' in m ? `...${m.spread.flat}` : `${m.key}: ${m.value.flat}`);
  return {
    flat: members.length ? `{ ${members.map(one).join(', ')} }` : '{}',
    kind: 'object',
    huggable: members.length > 0,
    expanded: () => object(members).doc(),
    doc: () => {
      const { group, indent, line, ifBreak, join } = b();
      if (!members.length) return '{}';
      const docs = members.map((m) => ('spread' in m ? ['...', m.spread.doc()] : assignment(m.key, ':', m.value, true)));
      return group(['{', indent([line, join([',', line], docs)]), ifBreak(','), line, '}']);
    },
  };
}

/** `[a, b]`. */
export function array(elements: readonly Expr[]): Expr {
  return {
    flat: `[${elements.map((e) => e.flat).join(', ')}]`,
    kind: 'array',
    huggable: elements.length > 0,
    expanded: () => array(elements).doc(),
    doc: () => {
      const { group, indent, softline, line, ifBreak, join } = b();
      if (!elements.length) return '[]';
      return group(['[', indent([softline, join([',', line], elements.map((e) => e.doc()))]), ifBreak(','), softline, ']']);
    },
  };
}

/** An object member `key: value` (its `,` is added where it is printed). */
export function property(key: string, value: Expr): Code {
  return { flat: `${key}: ${value.flat}`, doc: () => assignment(key, ':', value, true) };
}

/** `const name = value` (its `;` is added where it is printed). */
export function constant(name: string, value: Expr): Code {
  return { flat: `const ${name} = ${value.flat}`, doc: () => b().group(['const ', assignment(name, ' =', value, false)]) };
}
