export { lintManifest } from './lint.js';
export { lintRules, ruleByCode, ruleById } from './registry.js';
export { parseRuleFlags, manifestRuleSettings, effectiveSettings, type RuleSettings } from './config.js';
export type { LintRule, RuleSetting } from './rule.js';
