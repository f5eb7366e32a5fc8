import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { recursiveSharedNames } from '../../normalize/refs.js';
import { collectRefs, sharedRefName } from '../../normalize/schema-walk.js';
import { diagAt } from '../diagnostic.js';
import { embeddedSchemas } from '../json-schema-walk.js';

/**
 * Nesting of an advertised schema once its `$ref`s to shared schemas are copied in. Every later
 * stage (inlining, types, printing, the SDK's validators, clients' parsers) walks it recursively;
 * 256 is far past any real schema (the loader caps a manifest at 64 levels, so only a chain of
 * shared schemas gets here) and far below where any of them runs out of stack.
 */
export const MAX_INLINED_DEPTH = 256;
/** JSON values in one advertised schema once inlined: shared schemas used twice per level double it. */
export const MAX_INLINED_NODES = 100_000;

interface Size {
  depth: number;
  nodes: number;
}

/**
 * MCPG209: inlining shared schemas (the default `options.refs: inline`) copies each one in place,
 * so a chain of them nests deeper than any stage can walk, and a schema that uses another twice per
 * level grows exponentially (`A: {x: B, y: B}`, `B: {x: C, y: C}`, …): a `$ref` bomb. Measured
 * without building the copy, shared schemas first, in dependency order.
 */
export function checkInlinedSize(m: LoadedManifest): Diagnostic[] {
  if (!isRecord(m.data) || !isRecord(m.data.schemas)) return [];
  if (isRecord(m.data.options) && m.data.options.refs === 'defs') return [];
  const shared = m.data.schemas;
  // Recursive schemas stay a `$ref` (under `$defs`), so they are not copied.
  const kept = recursiveSharedNames(shared);
  const inlined = (ref: unknown): string | null => {
    const name = typeof ref === 'string' ? sharedRefName(ref) : null;
    return name !== null && Object.hasOwn(shared, name) && !kept.has(name) ? name : null;
  };
  const sizes = new Map<string, Size>();

  // Without recursion (each shared schema's own nesting is bounded by the loader's limit); the
  // shared schemas it refers to are measured before it.
  const measure = (value: unknown, depthLimit = 128): Size => {
    if (typeof value !== 'object' || value === null || depthLimit === 0) return { depth: 0, nodes: 1 };
    if (!Array.isArray(value)) {
      const name = inlined((value as Record<string, unknown>).$ref);
      if (name !== null) {
        const target = sizes.get(name) ?? { depth: 1, nodes: 1 };
        let depth = target.depth;
        let nodes = target.nodes;
        for (const [k, v] of Object.entries(value))
          if (k !== '$ref') {
            const s = measure(v, depthLimit - 1);
            depth = Math.max(depth, s.depth + 1);
            nodes = Math.min(nodes + s.nodes, Number.MAX_SAFE_INTEGER);
          }
        return { depth, nodes };
      }
    }
    let depth = 0;
    let nodes = 1;
    for (const v of Array.isArray(value) ? value : Object.values(value)) {
      const s = measure(v, depthLimit - 1);
      depth = Math.max(depth, s.depth);
      nodes = Math.min(nodes + s.nodes, Number.MAX_SAFE_INTEGER);
    }
    return { depth: depth + 1, nodes };
  };

  // Dependency order by an explicit stack: a chain of thousands of shared schemas is the case.
  const deps = (name: string) =>
    [...new Set(collectRefs(shared[name]).map(inlined))].filter((n): n is string => n !== null && n !== name);
  const state = new Map<string, 'open' | 'done'>();
  for (const start of Object.keys(shared)) {
    if (state.has(start) || kept.has(start)) continue;
    const stack: { name: string; next: string[] }[] = [{ name: start, next: deps(start) }];
    state.set(start, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const dep = top.next.pop();
      if (dep === undefined) {
        sizes.set(top.name, measure(shared[top.name]));
        state.set(top.name, 'done');
        stack.pop();
      } else if (!state.has(dep)) {
        state.set(dep, 'open');
        stack.push({ name: dep, next: deps(dep) });
      }
    }
  }

  const out: Diagnostic[] = [];
  // Shared schemas themselves are not advertised (types.ts names them): what clients get is.
  for (const root of embeddedSchemas(m.data)) {
    if (root.path[0] === 'schemas') continue;
    const s = measure(root.schema);
    if (s.depth <= MAX_INLINED_DEPTH && s.nodes <= MAX_INLINED_NODES) continue;
    const what =
      s.depth > MAX_INLINED_DEPTH
        ? `nests ${s.depth} levels deep once the shared schemas it uses are copied in (at most ${MAX_INLINED_DEPTH})`
        : `grows to ${s.nodes >= Number.MAX_SAFE_INTEGER ? 'more than 2^53' : s.nodes.toLocaleString('en-US')} values once the shared schemas it uses are copied in (at most ${MAX_INLINED_NODES.toLocaleString('en-US')})`;
    out.push(
      diagAt(m, root.path, Codes.INLINED_TOO_LARGE, `the ${advertised(root.path)} ${what}`, {
        key: true,
        hint: 'set `options: { refs: defs }` to advertise each shared schema once under `$defs` instead of copying it into every place that uses it, or flatten the chain of `$ref`s',
      }),
    );
  }
  return out;
}

function advertised(path: readonly (string | number)[]): string {
  const [top, name, key, variable] = path;
  if (top === 'tools') return `${key === 'output' ? 'output' : 'input'} schema of tool \`${String(name)}\``;
  return `schema of variable \`${String(variable)}\` of resource template \`${String(name)}\``;
}
