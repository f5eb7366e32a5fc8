import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';
import { effectiveSettings, manifestRuleSettings, type RuleSettings } from './config.js';
import { lintRules } from './registry.js';

/**
 * Lint a loaded manifest (MCPG3xx): every rule that is not `off` (defaults < manifest `lint.rules` <
 * `cli`), its findings at the configured severity. Copies of one YAML node through aliases are
 * reported once. Never throws for odd shapes: rules skip what the schema already rejected.
 */
export function lintManifest(m: LoadedManifest, cli: RuleSettings = {}): Diagnostic[] {
  const settings = effectiveSettings(manifestRuleSettings(m.data), cli);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const rule of lintRules) {
    const setting = settings[rule.id];
    if (setting === 'off' || setting === undefined) continue;
    for (const d of rule.check(m)) {
      const at = `${d.code}|${d.file}|${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;
      if (seen.has(at)) continue;
      seen.add(at);
      // Rules build fresh diagnostics: set the severity in place rather than copy thousands of them.
      d.severity = setting === 'error' ? 'error' : 'warning';
      out.push(d);
    }
  }
  return out;
}
