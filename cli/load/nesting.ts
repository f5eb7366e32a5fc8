import type { Diagnostic } from '../diagnostics.js';
import { Codes } from '../manifest/codes.js';
import type { CST } from 'yaml';

/**
 * Deepest nesting of mappings and lists a manifest may have (the root mapping is level 1).
 * Real manifests stay under 20: a property's schema sits at about level 7 (tools → tool → input →
 * properties → property), and a JSON Schema nested ten objects deep is already unusual. Every
 * later stage (the YAML composer, validation, lint, normalize, `$ref` inlining, rendering and
 * formatting the generated code) walks the data recursively with several stack frames a level, some
 * of them large (Handlebars, Prettier); the yaml package aborts the whole process (out of memory
 * compiling a regex) at about 2000 levels of flow collections. 64 keeps all of them far from the
 * stack's end while leaving real manifests three times their depth.
 */
export const MAX_NESTING = 64;

/**
 * Offset of the first collection nested deeper than `limit` in a parsed (CST) document, or
 * undefined. Runs before the document is composed (recursively): it descends at most `limit + 1`
 * levels, however deep the tokens go. A pair inside a flow list (`[a: 1]`) is a mapping of its own.
 */
export function cstTooDeep(token: CST.Token | null | undefined, limit: number, depth = 0): number | undefined {
  if (!token) return undefined;
  if (token.type === 'document') return cstTooDeep(token.value, limit, depth);
  if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') return undefined;
  const level = depth + 1;
  if (level > limit) return token.offset;
  const flowList = token.type === 'flow-collection' && token.start.source === '[';
  for (const item of token.items) {
    let inner = level;
    if (flowList && item.sep?.some((t) => t.type === 'map-value-ind')) {
      inner++;
      if (inner > limit) return item.key?.offset ?? item.sep[0]!.offset;
    }
    const found = cstTooDeep(item.key, limit, inner) ?? cstTooDeep(item.value, limit, inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Path to the first value nested deeper than `limit` in built data (aliases can nest a mapping
 * in itself level by level without the text showing it), or undefined. Descends at most
 * `limit + 1` levels.
 */
export function dataTooDeep(value: unknown, limit: number): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  const walk = (v: unknown, level: number): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (level > limit) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        if (walk(v[i], level + 1)) return true;
        path.pop();
      }
      return false;
    }
    for (const k of Object.keys(v)) {
      path.push(k);
      if (walk((v as Record<string, unknown>)[k], level + 1)) return true;
      path.pop();
    }
    return false;
  };
  return walk(value, 1) ? path : undefined;
}

/** MCPG109 at a place in the manifest. */
export function nestingDiagnostic(
  file: string,
  at: { line: number; column: number; endLine?: number; endColumn?: number },
): Diagnostic {
  return {
    code: Codes.NESTING_TOO_DEEP,
    severity: 'error',
    message: `nesting deeper than ${MAX_NESTING} levels`,
    file,
    ...at,
    hint: 'real manifests nest about 10 levels: look for brackets never closed; split a deep schema into shared `schemas:` joined by `$ref`',
  };
}
