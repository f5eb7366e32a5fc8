import { UsageError } from '../diagnostics.js';
import { isRecord } from '../manifest/json-path.js';
import { suggest } from '../validate/suggest.js';
import { lintRules, ruleById } from './registry.js';
import { RULE_SETTINGS, type RuleSetting } from './rule.js';

export type RuleSettings = Record<string, RuleSetting>;

/**
 * `--rule id=off|warn|error` values (repeatable; the last one for an id wins). Unknown ids and
 * settings are usage errors: a typo must not silently lint with the default.
 */
export function parseRuleFlags(flags: readonly string[]): RuleSettings {
  const out: RuleSettings = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const id = (eq < 0 ? flag : flag.slice(0, eq)).trim();
    const setting = eq < 0 ? '' : flag.slice(eq + 1).trim();
    if (!ruleById(id)) {
      const ids = lintRules.map((r) => r.id);
      const s = suggest(id, ids);
      throw new UsageError(
        `--rule ${flag}: unknown rule \`${id}\`${s ? ` (did you mean \`${s}\`?)` : ''}; the rules are ${ids.join(', ')}`,
      );
    }
    if (!(RULE_SETTINGS as readonly string[]).includes(setting))
      throw new UsageError(`--rule ${flag}: expected ${id}=off, ${id}=warn or ${id}=error`);
    out[id] = setting as RuleSetting;
  }
  return out;
}

/** Settings from the manifest's `lint.rules`; values the schema rejects (reported there) are ignored. */
export function manifestRuleSettings(data: unknown): RuleSettings {
  const out: RuleSettings = {};
  const rules = isRecord(data) && isRecord(data.lint) && isRecord(data.lint.rules) ? data.lint.rules : {};
  for (const [id, v] of Object.entries(rules)) {
    if (ruleById(id) && typeof v === 'string' && (RULE_SETTINGS as readonly string[]).includes(v))
      out[id] = v as RuleSetting;
  }
  return out;
}

/** The setting of every rule: defaults, then the manifest, then the command line. */
export function effectiveSettings(manifest: RuleSettings, cli: RuleSettings): RuleSettings {
  const out: RuleSettings = {};
  for (const r of lintRules) out[r.id] = cli[r.id] ?? manifest[r.id] ?? r.default;
  return out;
}
