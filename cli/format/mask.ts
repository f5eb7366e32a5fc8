/**
 * Formatting by shape. The stubs of a 1000-tool manifest are 2000 small files that differ only in
 * names, and prettier's layout depends on how wide a name is, not on its letters. So each stub is
 * also rendered with every name replaced by a token of the same width — its shape — the shape is
 * formatted (once per distinct shape, through the format cache), and the names are put back.
 * A 1000-tool project then costs a handful of prettier calls instead of 2000.
 *
 * Only what is provably width-only is masked: string literals and identifiers of printable ASCII,
 * and whole JSDoc blocks (prettier keeps a comment's text; its position does not depend on it).
 * Anything else in the view makes maskView return null and the file is formatted the plain way.
 * test/format-by-shape.test.ts compares both ways on real stubs and on names of every width and kind.
 */

/** A view with every name replaced by its same-width token, and the way back. */
export interface Masked {
  view: Record<string, unknown>;
  /** [token, real text] pairs, applied to the formatted shape. */
  tokens: [string, string][];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Printable ASCII without quotes or backslashes: prettier prints such a literal as `'…'`, unchanged. */
const PLAIN = /^[\x20-\x7e]*$/;
/**
 * Token letters: the letters of Latin-1 (ª µ º À–Ö Ø–ö ø–ÿ), one column wide, legal in identifiers,
 * never in templates. Latin-1, so a shape — and the text unmasked from it — stays a one-byte
 * string: with letters above U+00FF every generated file would be a two-byte string, twice the memory
 * to copy, join, hash and encode.
 */
const SLOT_LETTERS = '\u00aa\u00b5\u00ba' + range(0xc0, 0xd6) + range(0xd8, 0xf6) + range(0xf8, 0xff);
const SLOT_CHARS = SLOT_LETTERS.length;

function range(from: number, to: number): string {
  let s = '';
  for (let c = from; c <= to; c++) s += String.fromCharCode(c);
  return s;
}

/** The token letter of slot `k`. */
const slotChar = (k: number) => SLOT_LETTERS[k]!;

export function maskView(view: Record<string, unknown>): Masked | null {
  const tokens: [string, string][] = [];
  let slots = 0;
  const mask = (value: string): string | null => {
    if (value === '') return value;
    if (slots >= SLOT_CHARS) return null;
    const c = slotChar(slots++);
    // A whole JSDoc block on its own lines: prettier reprints it as is, at its indentation.
    const doc = value.endsWith('*/\n') ? /^( *)\/\*\*[\s\S]*\*\/\n$/.exec(value) : null;
    if (doc) {
      const indent = doc[1]!;
      const token = `/** ${c} */`;
      tokens.push([token, value.slice(indent.length, -1)]);
      return `${indent}${token}\n`;
    }
    if (IDENTIFIER.test(value)) {
      const token = c.repeat(value.length);
      tokens.push([token, value]);
      return token;
    }
    // A JSON string literal (escape.ts stringLiteral); prettier prints it single-quoted.
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      let text: string;
      try {
        text = JSON.parse(value) as string;
      } catch {
        return null;
      }
      if (typeof text !== 'string' || !PLAIN.test(text) || /['"\\]/.test(text)) return null;
      if (text === '') return "''";
      let inner: string;
      if (IDENTIFIER.test(text)) inner = c.repeat(text.length);
      // Text that needs quotes as a property key must stay so in the shape; a number is left to
      // prettier (it may unquote it).
      else if (text.length >= 2 && !/^[0-9.]+$/.test(text) && String(Number(text)) !== text) inner = `${c}-${c.repeat(text.length - 2)}`;
      else return null;
      tokens.push([`'${inner}'`, `'${text}'`]);
      return `'${inner}'`;
    }
    return null;
  };
  const maskValue = (value: unknown): { ok: boolean; value: unknown } => {
    if (typeof value === 'string') {
      const m = mask(value);
      return m === null ? { ok: false, value } : { ok: true, value: m };
    }
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      const out: string[] = [];
      for (const v of value) {
        const m = mask(v);
        if (m === null) return { ok: false, value };
        out.push(m);
      }
      return { ok: true, value: out };
    }
    // Booleans and numbers are part of the shape; objects are data for {{data}} (cli/format/splice.ts).
    return { ok: true, value };
  };
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) {
    const m = maskValue(value);
    if (!m.ok) return null;
    masked[key] = m.value;
  }
  return { view: masked, tokens };
}

/** SLOT_LETTERS as the body of a regex character class. */
const LETTERS = '\\u00aa\\u00b5\\u00ba\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff';
/**
 * Every token in a shape: a JSDoc token, a quoted string token, or a run of slot letters (an
 * identifier token). Slot letters never occur in templates, so each match should be one token.
 */
const TOKEN = new RegExp(`/\\*\\* [${LETTERS}] \\*/|'[${LETTERS}][-${LETTERS}]*'|[${LETTERS}]+`, 'g');

/** The formatted shape with the real names put back. */
export function unmask(formatted: string, tokens: readonly [string, string][]): string {
  if (tokens.length === 0) return formatted;
  // One pass with one regex; a real text (a description may hold any letter) is never rescanned.
  const real = new Map(tokens);
  let whole = true;
  const out = formatted.replace(TOKEN, (t) => {
    const r = real.get(t);
    if (r !== undefined) return r;
    whole = false;
    return t;
  });
  return whole ? out : unmaskEach(formatted, real);
}

/** Tokens side by side (`{{a}}{{b}}`), or a name quoted by the template: longest token first. */
function unmaskEach(formatted: string, real: Map<string, string>): string {
  const escaped = [...real.keys()].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return formatted.replace(new RegExp(escaped.join('|'), 'g'), (t) => real.get(t)!);
}
