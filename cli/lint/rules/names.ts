import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import type { LintRule } from '../rule.js';

/** What clients accept: Claude Desktop, Codex and Copilot reject longer or dotted tool names. */
export const PORTABLE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** What the manifest schema accepts (MCPG116 reports the rest): lint only names that passed it. */
const SCHEMA_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export const nameFormat: LintRule = {
  id: 'name-format',
  code: Codes.LINT_NAME_FORMAT,
  default: 'warn',
  description: 'tool, prompt and prompt argument names match ^[a-zA-Z0-9_-]{1,64}$',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    if (!isRecord(m.data)) return out;
    const check = (path: string[], what: string, name: string): void => {
      if (PORTABLE_NAME.test(name) || !SCHEMA_NAME.test(name)) return;
      const why = name.length > 64 ? `a name of ${name.length} characters` : 'a name with `.`';
      const message = `${what} has ${why}: some clients reject names outside ^[a-zA-Z0-9_-]{1,64}$`;
      out.push(
        diagAt(m, path, Codes.LINT_NAME_FORMAT, message, {
          key: true,
          severity: 'warning',
          hint:
            name.length > 64
              ? 'shorten it to at most 64 letters, digits, `_` or `-`'
              : `use \`_\` or \`-\` instead of \`.\`, e.g. \`${name.replace(/\./g, '_')}\``,
        }),
      );
    };
    for (const [name] of recordEntries(m.data.tools)) check(['tools', name], `tool \`${name}\``, name);
    for (const [name, p] of recordEntries(m.data.prompts)) {
      check(['prompts', name], `prompt \`${name}\``, name);
      if (!isRecord(p)) continue;
      for (const [arg] of recordEntries(p.arguments))
        check(['prompts', name, 'arguments', arg], `argument \`${arg}\` of prompt \`${name}\``, arg);
    }
    return out;
  },
};
