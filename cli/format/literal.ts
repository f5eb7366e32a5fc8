/**
 * Prints JSON data as a TypeScript literal exactly as prettier (mcpgen's options) would print it,
 * so generated data — schemas, contents, expected lists — needs no prettier pass. prettier is by far
 * the slowest stage of generation; a test formats thousands of printed values and requires prettier
 * to change nothing.
 *
 * The rules followed (prettier 3, typescript parser, printWidth 100, singleQuote, trailingComma all):
 * - a non-empty object is printed expanded (prettier keeps an object expanded when its first key
 *   starts a new line in the source), one `key: value,` per line;
 * - keys are bare when they are identifiers, else single-quoted (quoteProps: as-needed);
 * - an array goes on one line when it fits and holds no object; otherwise one element per line,
 *   except all-number arrays, which fill lines;
 * - strings take single quotes unless they hold more single than double quotes; a string value that
 *   overflows goes on the next line when its key is 5 characters or wider.
 * Only property values are supported (the data always sits inside an object in generated code).
 */
const WIDTH = 100;

function isIdentifier(key: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
}

/** A string literal as prettier prints it: JSON escapes, quotes chosen by prettier's rule. */
export function printString(s: string): string {
  const json = JSON.stringify(s);
  const singles = (s.match(/'/g) ?? []).length;
  const doubles = (s.match(/"/g) ?? []).length;
  if (singles > doubles) return json;
  // Switch to single quotes: `\"` needs no escape any more, `'` now does.
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function printKey(key: string): string {
  return isIdentifier(key) ? key : printString(key);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One-line form of a value, or null when it cannot be on one line (it holds an object). */
/** Numbers as prettier prints them: JSON's form without the `+` of an exponent. */
export function printNumber(n: number): string {
  return JSON.stringify(n).replace('e+', 'e');
}

function flat(v: unknown): string | null {
  if (v === null || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') return printNumber(v);
  if (typeof v === 'string') return printString(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const parts: string[] = [];
    for (const e of v) {
      const p = flat(e);
      if (p === null) return null;
      parts.push(p);
    }
    return `[${parts.join(', ')}]`;
  }
  if (isPlainObject(v)) return Object.keys(v).length === 0 ? '{}' : null;
  return 'null';
}

/**
 * Prints `value` whose first character goes at column `column` of a line indented by `indent`
 * spaces; `suffix` is what follows it on its last line (`,` or `;`), which counts for the width.
 */
export function printLiteral(value: unknown, indent: number, column: number, suffix: string): string {
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    const lines = keys.map((k) => {
      const key = printKey(k);
      const v = value[k];
      // A string that overflows moves below a key that is not short (prettier's
      // "break-after-operator" layout; keys narrower than tabWidth + 3 never break).
      if (typeof v === 'string' && key.length >= 5) {
        const str = printString(v);
        if (indent + 2 + key.length + 2 + str.length + 1 > WIDTH) return `${pad}${key}:\n${pad}  ${str},`;
      }
      const head = `${key}: `;
      return `${pad}${head}${printLiteral(v, indent + 2, indent + 2 + head.length, ',')},`;
    });
    return `{\n${lines.join('\n')}\n${close}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const one = flat(value);
    if (one !== null && column + one.length + suffix.length <= WIDTH) return one;
    if (value.every((e) => typeof e === 'number')) return fillNumbers(value as number[], indent);
    const lines = value.map((e) => `${pad}${printLiteral(e, indent + 2, indent + 2, ',')},`);
    return `[\n${lines.join('\n')}\n${close}]`;
  }
  return flat(value) ?? 'null';
}

/** prettier's "fill" for number arrays: as many per line as fit, after a line break. */
function fillNumbers(values: number[], indent: number): string {
  const pad = ' '.repeat(indent + 2);
  const lines: string[] = [];
  let line = '';
  for (const [i, n] of values.entries()) {
    const item = `${printNumber(n)},`;
    if (line && pad.length + line.length + 1 + item.length > WIDTH) {
      lines.push(line);
      line = item;
    } else line = line ? `${line} ${item}` : item;
  }
  lines.push(line);
  return `[\n${lines.map((l) => pad + l).join('\n')}\n${' '.repeat(indent)}]`;
}
