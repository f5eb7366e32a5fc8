// Matching a URI against an RFC 6570 template: which resource template a resources/read names, and
// its variables' values. The SDK's own matcher leaves the operator's character in `{;p}` and
// `{#p}` values, finds no list in `{/p*}` or `{?tags*}` (`/a/b`, `?tags=a&tags=b`), and wants every
// query variable, in the template's order; a template's query is matched here as a query is read:
// any order, each variable optional, other parameters ignored.
import { UriTemplate, type Variables } from '@modelcontextprotocol/server';

interface Variable {
  name: string;
  explode: boolean;
}

interface Expression {
  operator: string;
  variables: Variable[];
}

/** Longest URI matched, as the SDK bounds it. */
const MAX_URI = 1_000_000;

/**
 * Values that may hold `/` (`{+a}`, `{#a}`, `{/a*}`) can each end at any separator, so a URI that
 * does not match costs about its length to the power of their number in backtracking: with more
 * than one, the longest URI matched keeps that under 10⁸ steps (about 10,000 characters for two,
 * 460 for three), so a client cannot stall the server with one read.
 */
function longestUri(parts: ReadonlyArray<string | Expression>): number {
  let spanning = 0;
  for (const p of parts)
    if (typeof p !== 'string')
      for (const v of p.variables)
        if (p.operator === '+' || p.operator === '#' || (p.operator === '/' && v.explode)) spanning++;
  return spanning > 1 ? Math.floor(1e8 ** (1 / spanning)) : MAX_URI;
}

function parse(template: string): Array<string | Expression> | undefined {
  const parts: Array<string | Expression> = [];
  let at = 0;
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    if (m.index > at) parts.push(template.slice(at, m.index));
    at = m.index + m[0].length;
    const body = m[1]!;
    const operator = /^[+#./;?&]/.test(body) ? body[0]! : '';
    const variables = body
      .slice(operator.length)
      .split(',')
      .map((spec) => ({ name: spec.replace(/\*$|:\d+$/, ''), explode: spec.endsWith('*') }));
    if (variables.some((v) => !v.name)) return undefined;
    parts.push({ operator, variables });
  }
  if (at < template.length) parts.push(template.slice(at));
  // The URL parser writes a scheme in lowercase (`Notes://1` is read as `notes://1`).
  if (typeof parts[0] === 'string') parts[0] = parts[0].replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, (s) => s.toLowerCase());
  return parts;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pattern of a template's literal text. The URI matched is the URL parser's (`new URL(…)`),
 * which percent-encodes characters beyond ASCII: `docs://café/{id}` is matched as
 * `docs://caf%C3%A9/{id}`, its hex digits in either case, as a client may send them.
 */
function literalPattern(text: string): string {
  return text.replace(/[^\0-\x7f]+|[\0-\x7f]+/gu, (run) => {
    if (run.charCodeAt(0) <= 0x7f) return literal(run);
    let encoded: string;
    try {
      encoded = encodeURIComponent(run);
    } catch {
      return literal(run); // a lone surrogate has no UTF-8 form: no URI holds it
    }
    return encoded.replace(/[A-F]/g, (hex) => `[${hex}${hex.toLowerCase()}]`);
  });
}

/** What separates the variables of an expression, as a pattern: `,` unless named here. */
const SEPARATOR: Record<string, string> = { '.': '\\.', '/': '/' };

/** The pattern of one expression other than a query's, its groups in the order of `variables`. */
function expressionPattern({ operator, variables }: Expression, queryFollows: boolean): string {
  // A value followed by another of the same expression stops at their separator: `{+a,b}` and
  // `{#a,b}` read `x,y` as two values, `{.a,b}` reads `.x.y` so, as RFC 6570 expands them.
  const one = (v: Variable, last: boolean) => {
    switch (operator) {
      case '+':
        return `([^${last ? '' : ','}${queryFollows ? '?' : ''}#]+)`;
      case '#':
        return last ? '(.+)' : '([^,]+)';
      case '.':
        return v.explode ? '([^/?#]+)' : `([^/?#,${last ? '' : '.'}]+)`;
      case '/':
        return v.explode ? '([^?#]+)' : '([^/?#,]+)';
      case ';':
        // `;name` alone is the empty value: the group then holds the `=` too, or is undefined.
        return v.explode ? `((?:;${literal(v.name)}(?:=[^;/?#]*)?)+)` : `;${literal(v.name)}(=[^;/?#,]*)?`;
      default:
        return v.explode ? '([^/?#]+)' : '([^/?#,]+)';
    }
  };
  const first = { '#': '#', '.': '\\.', '/': '/' }[operator] ?? '';
  const separator = SEPARATOR[operator] ?? ',';
  // Variables after the first may be left out (RFC 6570 skips undefined ones).
  return (
    first +
    variables
      .map((v, i) => {
        const value = one(v, i === variables.length - 1);
        return i === 0 || operator === ';' ? value : `(?:${separator}${value})?`;
      })
      .join('')
  );
}

/** The items of an exploded value, by the separator its operator expands a list with. */
function items(operator: string, name: string, raw: string): string[] {
  switch (operator) {
    case '.':
      return raw.split('.');
    case '/':
      return raw.split('/');
    case ';':
      return raw
        .split(';')
        .slice(1)
        .map((pair) => (pair === name ? '' : pair.slice(name.length + 1)));
    default:
      return raw.split(',');
  }
}

const oneOrMany = (list: string[]): string | string[] => (list.length === 1 ? list[0]! : list);

/**
 * A URI template whose `match` follows RFC 6570 for every operator; the rest (`toString`,
 * `variableNames`, `expand`) is the SDK's. Values stay percent-encoded, as the SDK gives them.
 */
class MatchingUriTemplate extends UriTemplate {
  readonly #parts: Array<string | Expression> | undefined;
  readonly #longest: number;
  #regex: RegExp | undefined;

  constructor(template: string) {
    super(template);
    this.#parts = parse(template);
    this.#longest = this.#parts ? longestUri(this.#parts) : MAX_URI;
  }

  override match(uri: string): Variables | null {
    const parts = this.#parts;
    // A query expression followed by anything is the SDK's to match.
    const queryAt = parts?.findIndex((p) => typeof p !== 'string' && (p.operator === '?' || p.operator === '&')) ?? -1;
    const tail = queryAt >= 0 ? parts!.slice(queryAt) : [];
    if (!parts || tail.some((p) => typeof p === 'string' || (p.operator !== '?' && p.operator !== '&'))) {
      return super.match(uri);
    }
    if (uri.length > this.#longest) return null;
    const path = queryAt >= 0 ? parts.slice(0, queryAt) : parts;
    // The query ends where a fragment starts: a URI with one matches no template without `{#…}`.
    this.#regex ??= new RegExp(
      `^${path.map((p) => (typeof p === 'string' ? literalPattern(p) : expressionPattern(p, tail.length > 0))).join('')}${tail.length ? '([?&][^#]*)?' : ''}$`,
    );
    const m = this.#regex.exec(uri);
    if (!m) return null;
    const result: Variables = {};
    let group = 1;
    for (const p of path) {
      if (typeof p === 'string') continue;
      for (const v of p.variables) {
        const raw = m[group++];
        if (p.operator === ';' && !v.explode) result[v.name] = raw?.slice(1) ?? '';
        else if (raw !== undefined) result[v.name] = v.explode ? oneOrMany(items(p.operator, v.name, raw)) : raw;
      }
    }
    if (tail.length) {
      const pairs = (m[group] ?? '')
        .slice(1)
        .split('&')
        .filter(Boolean)
        .map((pair) => {
          const eq = pair.indexOf('=');
          return eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
        });
      for (const p of tail) {
        if (typeof p === 'string') continue;
        for (const v of p.variables) {
          const values = pairs.filter(([key]) => key === v.name).map(([, value]) => value!);
          if (values.length === 0) continue;
          result[v.name] = v.explode ? oneOrMany(values.flatMap((value) => value.split(','))) : values[0]!;
        }
      }
    }
    return result;
  }
}

/** The URI template of a resource template, matched as RFC 6570 reads it (see above). */
export function uriTemplate(template: string): UriTemplate {
  return new MatchingUriTemplate(template);
}
