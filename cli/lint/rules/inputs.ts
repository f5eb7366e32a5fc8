import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { diagAt } from '../../validate/diagnostic.js';
import { inputProperties, schemaTypes } from '../input-properties.js';
import type { LintRule } from '../rule.js';

const has = (s: Record<string, unknown>, ...keys: string[]): boolean => keys.some((k) => s[k] !== undefined);

export const optionalWithoutDefault: LintRule = {
  id: 'optional-without-default',
  code: Codes.LINT_OPTIONAL_WITHOUT_DEFAULT,
  default: 'warn',
  description: 'optional tool input properties declare the `default` the handler applies',
  check(m: LoadedManifest): Diagnostic[] {
    return inputProperties(m)
      .filter((p) => !p.required && !has(p.effective, 'default', 'const'))
      .map((p) =>
        diagAt(
          m,
          p.path,
          Codes.LINT_OPTIONAL_WITHOUT_DEFAULT,
          `optional input property \`${p.name}\` of tool \`${p.tool}\` has no \`default\``,
          {
            key: true,
            severity: 'warning',
            hint: 'add `default:` (the value your handler uses when it is left out), or list it in `required`',
          },
        ),
      );
  },
};

/** A string without any of these, or a number without any bound, accepts anything a model makes up. */
const STRING_CONSTRAINTS = ['enum', 'const', 'maxLength', 'format', 'pattern'];
const NUMBER_CONSTRAINTS = ['enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];

export const unconstrainedInput: LintRule = {
  id: 'unconstrained-input',
  code: Codes.LINT_UNCONSTRAINED_INPUT,
  default: 'off',
  description: 'string inputs have enum/maxLength/format/pattern, number inputs have a bound (opt-in)',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const p of inputProperties(m)) {
      const types = schemaTypes(p.effective);
      const isString = types.includes('string');
      const isNumber = types.includes('number') || types.includes('integer');
      if (isString && !has(p.effective, ...STRING_CONSTRAINTS)) {
        out.push(
          diagAt(
            m,
            p.path,
            Codes.LINT_UNCONSTRAINED_INPUT,
            `string input \`${p.name}\` of tool \`${p.tool}\` accepts any text`,
            {
              key: true,
              severity: 'warning',
              hint: 'add `enum`, `maxLength`, `format` or `pattern`',
            },
          ),
        );
      } else if (isNumber && !isString && !has(p.effective, ...NUMBER_CONSTRAINTS)) {
        out.push(
          diagAt(
            m,
            p.path,
            Codes.LINT_UNCONSTRAINED_INPUT,
            `number input \`${p.name}\` of tool \`${p.tool}\` has no bounds`,
            {
              key: true,
              severity: 'warning',
              hint: 'add `minimum` and/or `maximum` (or `enum`)',
            },
          ),
        );
      }
    }
    return out;
  },
};
