import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { inputProperties, schemaTypes } from '../input-properties.js';
import type { LintRule } from '../rule.js';

const has = (s: Record<string, unknown>, ...keys: string[]): boolean => keys.some((k) => s[k] !== undefined);

/**
 * Verbs of a tool that changes only what it is given: its optional inputs mean "leave as it is"
 * when left out, so there is no value a `default` could name.
 */
const UPDATE_VERBS = new Set(['update', 'patch', 'edit', 'modify', 'set']);

/** `update_note`, `notes.patch`, `editTask`, `Notes-Update` → lowercase words. */
function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/**
 * A tool that updates in place, by its name (its first or last word, or the first word after a
 * namespace: `update_note`, `note_update`, `notes.patch`, `editTask`, `notes.set_title`) or by its
 * title (`title`, or `annotations.title`, starting with one of the verbs: "Update a note"). The
 * hints are not enough: `idempotentHint: true` with `readOnlyHint: false` fits a delete or a full
 * replace as well, whose optional inputs do have a value when left out.
 */
export function isUpdateTool(name: string, tool: unknown): boolean {
  const w = words(name);
  const lastSegment = words(name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf('/')) + 1));
  const candidates = [w[0], w[w.length - 1], lastSegment[0]];
  if (isRecord(tool)) {
    const annotations = isRecord(tool.annotations) ? tool.annotations : {};
    for (const title of [tool.title, annotations.title])
      if (typeof title === 'string') candidates.push(words(title)[0]);
  }
  return candidates.some((c) => c !== undefined && UPDATE_VERBS.has(c));
}

/** A tool the runtime runs as an HTTP call with no handler: what is left out is not sent, the API decides. */
function isHttpBacked(tool: unknown): boolean {
  return isRecord(tool) && isRecord(tool.http) && tool.http.handler !== true;
}

/** A description that says the property may be left out, and what that means. */
const SAYS_OPTIONAL =
  /\b(?:optional(?:ly)?|if omitted|when omitted|if not (?:given|set|provided|specified)|leaves? (?:it |them )?unchanged|(?:left|kept|stays|remains) unchanged|unchanged (?:if|when|unless))\b/i;

export const optionalWithoutDefault: LintRule = {
  id: 'optional-without-default',
  code: Codes.LINT_OPTIONAL_WITHOUT_DEFAULT,
  default: 'warn',
  description:
    'optional tool input properties declare the `default` the handler applies; not for update tools (named or titled update/patch/edit/modify/set), HTTP-backed tools (a property left out is not sent: the API applies its own default) nor properties whose description says they are optional or left unchanged when omitted',
  check(m: LoadedManifest): Diagnostic[] {
    const tools = isRecord(m.data) && isRecord(m.data.tools) ? m.data.tools : {};
    const updates = new Map<string, boolean>();
    const isUpdate = (name: string): boolean => {
      let u = updates.get(name);
      if (u === undefined) {
        const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
        updates.set(name, (u = isUpdateTool(name, tool) || isHttpBacked(tool)));
      }
      return u;
    };
    const out: Diagnostic[] = [];
    for (const p of inputProperties(m)) {
      if (p.required || has(p.effective, 'default', 'const')) continue;
      if (typeof p.effective.description === 'string' && SAYS_OPTIONAL.test(p.effective.description)) continue;
      // A shared schema's property is reported for a tool that is no update, if any reaches it.
      const tool = p.tools.find((t) => !isUpdate(t));
      if (tool === undefined) continue;
      out.push(
        diagAt(
          m,
          p.path,
          Codes.LINT_OPTIONAL_WITHOUT_DEFAULT,
          `optional input property \`${p.name}\` of tool \`${tool}\` has no \`default\``,
          {
            key: true,
            severity: 'warning',
            hint: 'add `default:` (the value your handler uses when it is left out), list it in `required`, or say in its `description` what leaving it out does ("unchanged if omitted")',
          },
        ),
      );
    }
    return out;
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
