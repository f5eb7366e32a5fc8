/**
 * Data without prettier: a template marks each data value with a placeholder (`{{data x}}`); the
 * skeleton — the template's own code, small — goes through prettier (and its cache), then every
 * placeholder is replaced by the value printed with printLiteral, which prints exactly what
 * prettier would. A 1000-tool schemas.ts is then formatted in the time of its skeleton.
 *
 * Only the shapes printLiteral models are spliced, holding an object or array: a placeholder alone
 * as an object property value, `<indent><key>: <placeholder>,`, or as the initializer of a
 * declaration, `<indent>const <name>: <Type> = <placeholder>;` or `… = <placeholder> as <Type>;`
 * (objects and arrays hug the `=`).
 * Anything else makes the whole file go through prettier as before (correct first, fast where
 * proven).
 */
import { jsonLiteral } from '../render/escape.js';
import { Code, printLiteral } from './literal.js';

const PLACEHOLDER = /__mcpgenData(\d+)__/g;

export function placeholder(values: unknown[], value: unknown): string {
  values.push(value);
  return `__mcpgenData${values.length - 1}__`;
}

/**
 * The skeleton with every placeholder replaced by one-line JSON, for the prettier fallback:
 * prettier then lays each object and array out by width, as printLiteral does, so this prints
 * what splicing prints.
 */
export function withJson(skeleton: string, values: readonly unknown[]): string {
  return skeleton.replace(PLACEHOLDER, (_m, i: string) => jsonWithCode(values[Number(i)]));
}

/** One-line JSON (jsonLiteral's), with any Code (cli/format/literal.ts) written as its expression. */
function jsonWithCode(value: unknown): string {
  if (value === undefined) return jsonLiteral(value);
  const codes: string[] = [];
  const json = JSON.stringify(value, (_k, v: unknown) => (v instanceof Code ? `__mcpgenCode${codes.push(v.text) - 1}__` : v));
  return codes.length ? json.replace(/"__mcpgenCode(\d+)__"/g, (_m, i: string) => codes[Number(i)]!) : json;
}

/** Splices values into a prettier-formatted skeleton, or null when a placeholder is not in a supported spot. */
export function spliceData(formatted: string, values: readonly unknown[]): string | null {
  // Placeholder by placeholder, each checked on its own line: the text around them is copied once,
  // never split into lines (sections and stubs are spliced by the thousand).
  let out = '';
  let from = 0;
  let seen = 0;
  for (let at = formatted.indexOf('__mcpgenData'); at >= 0; at = formatted.indexOf('__mcpgenData', at + 1)) {
    const start = formatted.lastIndexOf('\n', at) + 1;
    if (start < from) return null; // two placeholders on one line
    const nl = formatted.indexOf('\n', at);
    const end = nl < 0 ? formatted.length : nl;
    const line = formatted.slice(start, end);
    const m = LINE_PROPERTY.exec(line) ?? LINE_DECLARATION.exec(line);
    if (!m) return null;
    const value = values[Number(m[3])];
    if (typeof value !== 'object' || value === null) return null;
    const indent = m[1]!.length;
    const head = m[2]!;
    out += `${formatted.slice(from, start)}${m[1]}${head}${printLiteral(value, indent, indent + head.length, m[4]!)}${m[4]}`;
    from = end;
    seen++;
  }
  if (seen !== values.length) return null;
  return seen === 0 ? formatted : out + formatted.slice(from);
}

/** `<indent><key>: <placeholder>,`: an object property. */
const LINE_PROPERTY = /^( *)((?:[A-Za-z_$][A-Za-z0-9_$]*|'(?:[^'\\]|\\.)*'): )__mcpgenData(\d+)__(,)$/;
/** `<indent>const <name>: <Type> = <placeholder>;` (or `… as <Type>;`): a declaration. */
const LINE_DECLARATION = /^( *)((?:export )?(?:const|let) [A-Za-z_$][A-Za-z0-9_$]*(?:: [^=]+)? = )__mcpgenData(\d+)__((?: as [A-Za-z_$][A-Za-z0-9_$]*)?;)$/;
