import type { LintRule } from './rule.js';
import { descriptionLength, missingDescription } from './rules/descriptions.js';
import { optionalWithoutDefault, unconstrainedInput } from './rules/inputs.js';
import { nameFormat } from './rules/names.js';
import { requiredDefined } from './rules/required.js';
import { httpsResource, resourceMimeType, uriPathFormat, uriSchemeFormat } from './rules/resources.js';
import { unknownSchemaKeys } from './rules/schemas.js';
import { maxTools } from './rules/tools.js';
import { vendorKeys } from './rules/vendor-keys.js';

/** Every lint rule, in code order. Ids and codes are stable (README "Lint rules", docs/manifest-diagnostics.md). */
export const lintRules: readonly LintRule[] = [
  nameFormat,
  missingDescription,
  descriptionLength,
  optionalWithoutDefault,
  unconstrainedInput,
  uriSchemeFormat,
  resourceMimeType,
  maxTools,
  httpsResource,
  uriPathFormat,
  unknownSchemaKeys,
  requiredDefined,
  vendorKeys,
];

export function ruleById(id: string): LintRule | undefined {
  return lintRules.find((r) => r.id === id);
}

export function ruleByCode(code: string): LintRule | undefined {
  return lintRules.find((r) => r.code === code);
}
