/**
 * Data printed where it stands: `{{literal x}}` in a template leaves a marker, and once the file is
 * rendered each marker becomes the value printed by the literal printer (cli/format/literal.ts) at
 * the marker's column, the rest of its line being what follows the value; the text around it is
 * the template's own, written in prettier's layout. So `const input = {{literal sample}} as Input;`
 * prints what prettier would, for any value.
 */
import { movesBelowKey, movesBelowOperator, printLiteral, printString } from '../format/literal.js';

/** NUL never reaches rendered text otherwise: escape.ts and the literal printer escape it in strings. */
const MARK = '\u0000literal';

/** `<indent><key>: ` before a marker: the key of an object property. */
const PROPERTY = /^( *)([A-Za-z_$][\w$]*|'(?:[^'\\]|\\.)*'): $/;

/** `<indent>const <name> = ` before a marker: a variable declared with the value. */
const DECLARATOR = /^ *(?:const|let) [A-Za-z_$][\w$]* = $/;

export function literalMarker(values: unknown[], value: unknown): string {
  values.push(value);
  return `${MARK}${values.length - 1}\u0000`;
}

export function placeLiterals(text: string, values: readonly unknown[]): string {
  if (values.length === 0) return text;
  let out = '';
  let from = 0;
  for (let n = 0, at = text.indexOf(MARK); at >= 0; n++, at = text.indexOf(MARK, from)) {
    const end = text.indexOf('\u0000', at + MARK.length);
    if (Number(text.slice(at + MARK.length, end)) !== n) throw new Error('internal: {{literal}} markers out of order');
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const nl = text.indexOf('\n', end);
    const suffix = text.slice(end + 1, nl < 0 ? text.length : nl);
    if (suffix.includes(MARK)) throw new Error('internal: two {{literal}} values on one line');
    const before = text.slice(lineStart, at);
    const indent = before.length - before.trimStart().length;
    const value = values[n];
    // A scalar property value (`key: {{literal v}},`) may move below its key, as in an object.
    const property = suffix === ',' && (typeof value !== 'object' || value === null) ? PROPERTY.exec(before) : null;
    // A string assigned to a variable (`const name = {{literal s}};`) may move below the `=`.
    if (suffix === ';' && typeof value === 'string' && DECLARATOR.test(before)) {
      const printed = printString(value);
      // The space after `=` becomes a line break when the string moves.
      const below = movesBelowOperator(printed, before.length, suffix);
      out += text.slice(from, at - 1) + (below ? `\n${' '.repeat(indent + 2)}` : ' ') + printed;
    } else if (property) {
      const printed = printLiteral(value, 0, 0, '');
      const below = movesBelowKey(property[2]!, value, printed, indent, suffix);
      out += text.slice(from, lineStart) + property[1] + property[2] + (below ? `:\n${property[1]}  ` : ': ') + printed;
    } else out += text.slice(from, at) + printLiteral(value, indent, at - lineStart, suffix);
    from = end + 1;
  }
  return out + text.slice(from);
}
