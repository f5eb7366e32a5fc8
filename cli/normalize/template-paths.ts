/**
 * Which template variables can carry a path, and whether the template supplies its root: the
 * generated reads refuse traversal in those (src/generated/paths.ts) unless the manifest allows it.
 * @see https://www.rfc-editor.org/rfc/rfc6570#section-3.2
 */
import type { TemplateVariable } from '../manifest/uri-template.js';

/** Operators whose expansion keeps `/` or adds it: reserved, fragment, path segments. */
const PATH_OPERATORS = new Set(['+', '#', '/']);

/** `carriesPath` and `rooted` of one variable, from every place it appears in the template. */
export function pathShape(
  template: string,
  uses: readonly TemplateVariable[],
): { carriesPath: boolean; rooted: boolean } {
  return {
    carriesPath: uses.some((v) => PATH_OPERATORS.has(v.operator) || v.explode),
    rooted: uses.some((v) => v.operator === '/' || suppliedRoot(template, v)),
  };
}

/**
 * The variable opens its expression and a literal `/` precedes it (`file:///{+path}`), other than
 * the `//` that opens an authority (`file://{+path}` takes its root from the value).
 */
function suppliedRoot(template: string, v: TemplateVariable): boolean {
  const open = template.lastIndexOf('{', v.start);
  if (open < 1 || open + 1 + v.operator.length !== v.start) return false;
  const before = template.slice(0, open);
  return before.endsWith('/') && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\/$/.test(before);
}
