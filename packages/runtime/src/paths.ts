import { resolve, sep } from 'node:path';

import { ResourceNotFoundError, type Variables } from '@modelcontextprotocol/server';

/*
 * Path safety for resource templates: the 2026-07-28 resources chapter (Security Considerations)
 * asks servers to sanitize paths taken from URIs. The URL parser already resolves literal `..`
 * segments of the URI (clamped at its root), so what can still reach a variable is encoded:
 * `%2F`, `%5C`, backslashes, `%2e%2e` inside an encoded segment, a leading `/`, a drive, a NUL.
 */

/** How a variable can carry a path: its operator keeps `/` (`path`), the template supplies its root (`rooted`). */
export interface PathVariable {
  path: boolean;
  rooted: boolean;
}

/** The checked variables of each template; templates with `allowPathTraversal: true` are absent. */
export type PathGuards = Record<string, Record<string, PathVariable>>;

/** What guards a template's variables: see {@link pathGuards}. */
export type GuardPaths = (template: string, uri: URL, variables: Variables) => Variables;

/**
 * For each read of a template: the URI's variables, once no path-like value escapes; else the
 * not-found error a missing resource gets (the handler never runs).
 */
export function pathGuards(guards: PathGuards): GuardPaths {
  return (template, uri, variables) =>
    Object.hasOwn(guards, template) ? checkPaths(guards[template]!, uri, variables) : variables;
}

function checkPaths(checked: Record<string, PathVariable>, uri: URL, variables: Variables): Variables {
  for (const [name, value] of Object.entries(variables)) {
    const shape = Object.hasOwn(checked, name) ? checked[name] : undefined;
    if (!shape) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string') continue;
      const problem = pathProblem(decoded(item), shape);
      if (problem)
        throw new ResourceNotFoundError(
          uri.href,
          `Resource not found: ${uri.href} (variable ${JSON.stringify(name)} ${problem}; path traversal is refused)`,
        );
    }
  }
  return variables;
}

/** Malformed percent-encoding is left to the read, which refuses it as an invalid URI. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A `..` segment, also when still encoded once more (`%2e%2e`); backslashes separate too. */
const DOT_DOT = /^(?:\.|%2e){2}$/i;

function pathProblem(value: string, shape: PathVariable): string | null {
  // Without a separator a value is one segment: harmless unless it is `..` itself (a query or host
  // variable, or part of a segment, reaches the handler undecoded by the URL parser).
  if (!shape.path && !/[\\/]/.test(value) && !DOT_DOT.test(value)) return null;
  if (value.includes('\0')) return 'holds a NUL byte';
  if (value.split(/[\\/]/).some((segment) => DOT_DOT.test(segment))) return 'has a ".." segment';
  if (/^[A-Za-z]:/.test(value)) return 'names a drive';
  if (shape.rooted && /^[\\/]/.test(value)) return 'starts with a separator where the template supplies the root';
  return null;
}

/**
 * `root` joined with a relative path (or its segments) for a template's handler; throws the
 * not-found error when the result leaves `root` or the path holds a NUL byte. Give the request's
 * `uri` so the error names it. The check is lexical (path.resolve, then a prefix test ending in
 * the separator): it follows no symlinks, so a link under `root` pointing elsewhere is not caught;
 * use fs.realpath on the result where that matters. Backslashes count as separators.
 */
export function safeJoin(root: string, path: string | readonly string[], uri?: URL | string): string {
  const parts = typeof path === 'string' ? [path] : [...path];
  const named = uri === undefined ? parts.join('/') : typeof uri === 'string' ? uri : uri.href;
  const refuse = (problem: string) => new ResourceNotFoundError(named, `Resource not found: ${named} (${problem})`);
  if (parts.some((part) => part.includes('\0'))) throw refuse('the path holds a NUL byte');
  const base = resolve(root);
  const target = resolve(base, ...parts.map((part) => part.replaceAll('\\', '/')));
  const prefix = base.endsWith(sep) ? base : base + sep;
  if (target !== base && !target.startsWith(prefix)) throw refuse('the path leaves its root');
  return target;
}
