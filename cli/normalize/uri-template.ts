/**
 * RFC 6570 URI templates: just enough to list the variables and to tell a malformed template.
 * @see https://www.rfc-editor.org/rfc/rfc6570#section-2
 */
export interface ParsedUriTemplate {
  variables: string[];
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Variables in order of first appearance, or null (with a reason) when the template is malformed. */
export function parseUriTemplate(template: string): ParsedUriTemplate | null {
  return tryParseUriTemplate(template).template;
}

export function tryParseUriTemplate(template: string): { template: ParsedUriTemplate | null; error?: string } {
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close !== -1 && (open === -1 || close < open)) return { template: null, error: `unmatched "}" at offset ${close}` };
    if (open === -1) break;
    const end = template.indexOf('}', open);
    if (end === -1) return { template: null, error: `unclosed "{" at offset ${open}` };
    let expr = template.slice(open + 1, end);
    if (expr.includes('{')) return { template: null, error: `nested "{" at offset ${open}` };
    if (expr.length > 0 && OPERATORS.has(expr[0]!)) expr = expr.slice(1);
    if (expr === '') return { template: null, error: `empty expression at offset ${open}` };
    for (const spec of expr.split(',')) {
      const name = spec.replace(/\*$/, '').replace(/:[1-9][0-9]{0,3}$/, '');
      if (!VARNAME.test(name)) return { template: null, error: `invalid variable "${spec}"` };
      if (!variables.includes(name)) variables.push(name);
    }
    i = end + 1;
  }
  return { template: { variables } };
}
