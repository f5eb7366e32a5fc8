import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/types.js';

/** How a lint rule is configured: in the manifest (`lint.rules`) and with `--rule id=…`. */
export type RuleSetting = 'off' | 'warn' | 'error';
export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'warn', 'error'];

/**
 * A lint rule (MCPG3xx): advice about manifests that are valid but serve models or clients badly.
 * `check` reads the manifest in any shape (the schema may have rejected parts of it) and returns
 * diagnostics built with diagAt; their severity is replaced by the configured one.
 */
export interface LintRule {
  /** Stable id used in `lint.rules` and `--rule` (kebab-case). */
  id: string;
  /** Stable diagnostic code, MCPG3xx. */
  code: string;
  /** Setting when neither the manifest nor the command line says otherwise. */
  default: RuleSetting;
  /** One line: what the rule reports (SARIF shortDescription, README table). */
  description: string;
  check(m: LoadedManifest): Diagnostic[];
}
