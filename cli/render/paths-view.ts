/**
 * src/generated/paths.ts: which variables of which templates are checked as paths before reads.
 * Rendered only for servers with templates (the handlers' safeJoin lives there too).
 */
import type { IR, TemplateIR } from '../normalize/ir.js';
import { namedRecord } from '../manifest/named-record.js';

/** The template's reads pass through guardPaths: it has variables and does not allow traversal. */
export function guardsPaths(t: TemplateIR): boolean {
  return !t.allowPathTraversal && t.vars.length > 0;
}

export function pathsView(ir: IR) {
  const guards = namedRecord<Record<string, { path: boolean; rooted: boolean }>>();
  for (const t of ir.templates.filter(guardsPaths)) {
    const vars = namedRecord<{ path: boolean; rooted: boolean }>();
    for (const v of t.vars) vars[v.name] = { path: v.carriesPath, rooted: v.rooted };
    guards[t.name] = vars;
  }
  return { guards };
}
