/**
 * A unified diff of two texts, as `diff -u` prints it: the hunks come from jsdiff (`diff`), the
 * headers name the paths the command shows.
 */
import { structuredPatch } from 'diff';

/** `--- a/path` / `+++ b/path` with hunks of `context` lines; '' when the texts are equal. */
export function unifiedDiff(pathA: string, pathB: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const { hunks } = structuredPatch(pathA, pathB, before, after, undefined, undefined, { context });
  const out = [`--- ${pathA}`, `+++ ${pathB}`];
  for (const h of hunks) out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines);
  return `${out.join('\n')}\n`;
}
