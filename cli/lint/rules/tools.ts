import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import type { LintRule } from '../rule.js';

/** Several clients drop or cap tools beyond this many (and every tool costs context). */
export const MAX_TOOLS = 40;

export const maxTools: LintRule = {
  id: 'max-tools',
  code: Codes.LINT_TOO_MANY_TOOLS,
  default: 'warn',
  description: `at most ${MAX_TOOLS} tools`,
  check(m: LoadedManifest): Diagnostic[] {
    if (!isRecord(m.data) || !isRecord(m.data.tools)) return [];
    const names = Object.keys(m.data.tools);
    if (names.length <= MAX_TOOLS) return [];
    return [
      diagAt(
        m,
        ['tools', names[MAX_TOOLS]!],
        Codes.LINT_TOO_MANY_TOOLS,
        `${names.length} tools: several clients drop or cap tools beyond ${MAX_TOOLS}; this is tool ${MAX_TOOLS + 1}`,
        {
          key: true,
          severity: 'warning',
          hint: names.some(
            (n) =>
              isRecord((m.data as { tools: Record<string, unknown> }).tools[n]) &&
              'imported' in ((m.data as { tools: Record<string, Record<string, unknown>> }).tools[n] ?? {}),
          )
            ? 'import only the operations this server needs: mcpgen import openapi <file> --tag <tag> or --path <prefix> (or --operation <id>), into a fresh manifest; or delete the entries you do not need'
            : 'merge related tools (one tool with an `action` enum), or split the server by audience',
        },
      ),
    ];
  },
};
