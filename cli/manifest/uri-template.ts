/**
 * RFC 6570 URI Template parser (syntax only; expansion is the SDK's job).
 * Reports every error with its offset so diagnostics can point at the exact character.
 * @see https://www.rfc-editor.org/rfc/rfc6570#section-2
 */

export interface TemplateVariable {
  name: string;
  /** Expression operator: '' (simple), '+', '#', '.', '/', ';', '?' or '&'. */
  operator: string;
  /** `{list*}`: the value may be a list (the SDK then passes string[]). */
  explode: boolean;
  /** `{var:3}`: prefix length. */
  prefix?: number;
  /** Offsets of the variable name in the template. */
  start: number;
  end: number;
}

export interface TemplateError {
  message: string;
  start: number;
  end: number;
}

export interface ParsedTemplate {
  variables: TemplateVariable[];
  errors: TemplateError[];
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
/** Characters RFC 6570 §2.1 excludes from literals (besides controls and `%` not starting an escape). */
const NOT_LITERAL = new Set([' ', '"', "'", '<', '>', '\\', '^', '`', '|']);
const VARCHAR = /[A-Za-z0-9_]/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

export function parseUriTemplate(template: string): ParsedTemplate {
  const variables: TemplateVariable[] = [];
  const errors: TemplateError[] = [];
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === '{') {
      const close = findClose(template, i + 1);
      if (close < 0) {
        errors.push({ message: '`{` is never closed', start: i, end: i + 1 });
        break;
      }
      parseExpression(template, i + 1, close, variables, errors);
      i = close + 1;
      continue;
    }
    if (ch === '}') {
      errors.push({ message: '`}` without a matching `{`', start: i, end: i + 1 });
    } else if (ch === '%') {
      if (!HEX2.test(template.slice(i + 1, i + 3))) {
        errors.push({ message: '`%` must start a percent-escape like %20', start: i, end: i + 1 });
      }
    } else if (NOT_LITERAL.has(ch) || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) {
      errors.push({
        message: `${describeChar(ch)} is not allowed in a URI template${escapeHint(ch)}`,
        start: i,
        end: i + 1,
      });
    }
    i++;
  }
  return { variables, errors };
}

/** Index of the `}` closing an expression opened before `from`, or -1 (a nested `{` also ends the search). */
function findClose(t: string, from: number): number {
  for (let j = from; j < t.length; j++) {
    if (t[j] === '}') return j;
    if (t[j] === '{') return -1;
  }
  return -1;
}

function parseExpression(
  t: string,
  start: number,
  end: number,
  vars: TemplateVariable[],
  errors: TemplateError[],
): void {
  let i = start;
  let operator = '';
  const first = t[i];
  if (first !== undefined && i < end && (OPERATORS.has(first) || RESERVED_OPERATORS.has(first))) {
    if (RESERVED_OPERATORS.has(first)) {
      errors.push({
        message: `operator \`${first}\` is reserved by RFC 6570 and cannot be used`,
        start: i,
        end: i + 1,
      });
    }
    operator = first;
    i++;
  }
  if (i >= end) {
    errors.push({ message: 'empty expression `{}`: name a variable, e.g. `{id}`', start: start - 1, end: end + 1 });
    return;
  }
  for (const spec of t.slice(i, end).split(',')) {
    parseVarspec(spec, i, operator, vars, errors);
    i += spec.length + 1;
  }
}

function parseVarspec(
  spec: string,
  at: number,
  operator: string,
  vars: TemplateVariable[],
  errors: TemplateError[],
): void {
  let nameEnd = spec.length;
  let explode = false;
  let prefix: number | undefined;
  if (spec.endsWith('*')) {
    explode = true;
    nameEnd = spec.length - 1;
  } else {
    const colon = spec.indexOf(':');
    if (colon >= 0) {
      nameEnd = colon;
      const digits = spec.slice(colon + 1);
      if (!/^[1-9][0-9]{0,3}$/.test(digits)) {
        errors.push({
          message: `prefix \`:${digits}\` must be a number from 1 to 9999`,
          start: at + colon,
          end: at + spec.length,
        });
      } else prefix = Number(digits);
    }
  }
  const name = spec.slice(0, nameEnd);
  const bad = badVarnameOffset(name);
  if (name === '') {
    errors.push({ message: 'missing variable name', start: at, end: at + Math.max(spec.length, 1) });
  } else if (bad >= 0) {
    const ch = name[bad]!;
    errors.push({
      message: `${describeChar(ch)} is not allowed in variable name \`${name}\` (use letters, digits, _ and single dots)`,
      start: at + bad,
      end: at + bad + 1,
    });
  } else {
    vars.push({
      name,
      operator,
      explode,
      ...(prefix !== undefined ? { prefix } : {}),
      start: at,
      end: at + name.length,
    });
  }
}

/** varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded. -1 when valid. */
function badVarnameOffset(name: string): number {
  for (let j = 0; j < name.length; j++) {
    const ch = name[j]!;
    if (VARCHAR.test(ch)) continue;
    if (ch === '%' && HEX2.test(name.slice(j + 1, j + 3))) {
      j += 2;
      continue;
    }
    if (ch === '.' && j > 0 && j < name.length - 1 && name[j - 1] !== '.') continue;
    return j;
  }
  return -1;
}

function describeChar(ch: string): string {
  if (ch === ' ') return 'a space';
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  return `\`${ch}\``;
}

function escapeHint(ch: string): string {
  const code = ch.codePointAt(0)!;
  return ` (percent-encode it as %${code.toString(16).padStart(2, '0').toUpperCase()})`;
}
