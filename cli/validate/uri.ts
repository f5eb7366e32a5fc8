/** Syntax of absolute URIs (RFC 3986 §3) as MCP resource URIs need it; offsets let diagnostics point at the bad character. */

export interface UriProblem {
  message: string;
  start: number;
  end: number;
  hint?: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Characters allowed in a URI besides unreserved/reserved ASCII; non-ASCII is allowed (IRIs, RFC 3987). */
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

export function uriProblem(uri: string): UriProblem | undefined {
  if (uri.trim() === '') return { message: 'is empty', start: 0, end: 0 };
  const brace = uri.search(/[{}]/);
  if (brace >= 0) {
    return {
      message: 'contains `{…}`: a URI with variables is a resource template',
      start: brace,
      end: brace + 1,
      hint: 'move it to `resourceTemplates:` as `uriTemplate`',
    };
  }
  if (!SCHEME.test(uri)) {
    return {
      message: `${JSON.stringify(uri)} is not an absolute URI: it needs a scheme`,
      start: 0,
      end: uri.length,
      hint: `add a scheme, e.g. \`docs://${uri.trim().replace(/^\/+/, '').replace(/\s+/g, '-')}\``,
    };
  }
  for (let i = 0; i < uri.length; i++) {
    const ch = uri[i]!;
    if (ch.charCodeAt(0) > 0x7f) continue;
    if (!URI_CHAR.test(ch)) {
      const hex = ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
      return {
        message: `contains ${ch === ' ' ? 'a space' : `\`${ch}\``}, which is not allowed in a URI`,
        start: i,
        end: i + 1,
        hint: `percent-encode it as %${hex}`,
      };
    }
    if (ch === '%' && !/^[0-9A-Fa-f]{2}$/.test(uri.slice(i + 1, i + 3))) {
      return { message: 'contains a `%` that does not start a percent-escape like %20', start: i, end: i + 1 };
    }
  }
  return undefined;
}
