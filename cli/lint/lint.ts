import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';
import { effectiveSettings, manifestRuleSettings, type RuleSettings } from './config.js';
import { lintRules } from './registry.js';

/**
 * Lint a loaded manifest (MCPG3xx): every rule that is not `off` (defaults < manifest `lint.rules` <
 * `cli`), its findings at the configured severity. Copies of one YAML node through aliases are
 * reported once. Never throws for odd shapes: rules skip what the schema already rejected.
 */
export function lintManifest(m: LoadedManifest, cli: RuleSettings = {}, opts: LintOptions = {}): Diagnostic[] {
  const settings = effectiveSettings(manifestRuleSettings(m.data), cli);
  if (opts.locateUpTo !== undefined && m.aliasFree) {
    // Without aliases a node has one JSON path: findings are told apart by path instead of position.
    const found = run(settings, { ...m, locate: () => NOWHERE }, false);
    // None found: nothing to locate (the located run finds the same, only told apart by position).
    if (found.length === 0) return found;
    if (found.length > opts.locateUpTo && !found.some((d) => d.severity === 'error')) return found;
  }
  return run(settings, m, true);
}

export interface LintOptions {
  /**
   * For a caller that shows warnings only when there are at most this many (generate): past that,
   * and with no errors, they come back counted but not located (every position is 1:1), which on a
   * manifest with ten thousand warnings is most of the time lint would take.
   */
  locateUpTo?: number;
}

const NOWHERE = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/** `located`: positions are real, and copies are found by them; else by path (see above). */
function run(settings: ReturnType<typeof effectiveSettings>, m: LoadedManifest, located: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Diagnostics by where they start; a copy has the same code, file and range. (A key string per
  // diagnostic cost more than the rest of this loop on a manifest with ten thousand warnings.)
  const seen = new Map<number, Diagnostic[]>();
  const paths = new Set<string>();
  for (const rule of lintRules) {
    const setting = settings[rule.id];
    if (setting === 'off' || setting === undefined) continue;
    for (const d of rule.check(m)) {
      if (!located) {
        const key = `${d.code}${d.path ?? ''}`;
        if (paths.has(key)) continue;
        paths.add(key);
        d.severity = setting === 'error' ? 'error' : 'warning';
        out.push(d);
        continue;
      }
      // A small integer (a key V8 hashes without allocating); spots that share one are told apart below.
      const at = (d.line * 1024 + d.column) | 0;
      const there = seen.get(at);
      if (there === undefined) seen.set(at, [d]);
      else if (there.some((o) => sameSpot(o, d))) continue;
      else there.push(d);
      // Rules build fresh diagnostics: set the severity in place rather than copy thousands of them.
      d.severity = setting === 'error' ? 'error' : 'warning';
      out.push(d);
    }
  }
  return out;
}

function sameSpot(a: Diagnostic, b: Diagnostic): boolean {
  return (
    a.code === b.code &&
    a.file === b.file &&
    a.line === b.line &&
    a.column === b.column &&
    a.endLine === b.endLine &&
    a.endColumn === b.endColumn
  );
}
