import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import { inputProperties } from '../input-properties.js';
import type { LintRule } from '../rule.js';

/** Shorter than this says too little to choose a tool or fill an argument ("Gets it"). */
export const MIN_DESCRIPTION = 10;
/** Longer than this is cut or refused by some clients (OpenAI-style function descriptions stop at 1024). */
export const MAX_DESCRIPTION = 1024;

interface Described {
  /** Path of the entry or property; the diagnostic points at its key. */
  path: JsonPath;
  /** "tool `get`", "property `city` of tool `get`". */
  what: string;
  /** The description that applies (for properties: after following `$ref`). */
  description: unknown;
  /** Where the entry's own description would be, when it has one. */
  ownPath?: JsonPath;
  own: unknown;
}

/** Everything that should describe itself: tools, prompts, prompt arguments, resources, templates, tool input properties. */
function described(m: LoadedManifest): Described[] {
  // Both description rules ask; the manifest is walked once.
  let out = seen.get(m);
  if (!out) seen.set(m, (out = collect(m)));
  return out;
}

const seen = new WeakMap<LoadedManifest, Described[]>();

function collect(m: LoadedManifest): Described[] {
  const out: Described[] = [];
  if (!isRecord(m.data)) return out;
  const entry = (path: JsonPath, what: string, v: unknown): void => {
    if (!isRecord(v)) return; // not a mapping: the schema reports it
    const d = v.description;
    out.push({ path, what, description: d, own: d, ownPath: [...path, 'description'] });
  };
  for (const [name, t] of recordEntries(m.data.tools)) entry(['tools', name], `tool \`${name}\``, t);
  for (const [name, p] of recordEntries(m.data.prompts)) {
    entry(['prompts', name], `prompt \`${name}\``, p);
    if (!isRecord(p)) continue;
    for (const [arg, a] of recordEntries(p.arguments))
      entry(['prompts', name, 'arguments', arg], `argument \`${arg}\` of prompt \`${name}\``, a);
  }
  for (const [name, r] of recordEntries(m.data.resources)) entry(['resources', name], `resource \`${name}\``, r);
  for (const [name, t] of recordEntries(m.data.resourceTemplates))
    entry(['resourceTemplates', name], `resource template \`${name}\``, t);
  for (const p of inputProperties(m)) {
    out.push({
      path: p.path,
      what: `input property \`${p.name}\` of tool \`${p.tool}\``,
      description: p.effective.description,
      own: p.own.description,
      ownPath: [...p.path, 'description'],
    });
  }
  return out;
}

/** Length in code points (as `[...s].length`, without an array per description). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const blank = (d: unknown): boolean => typeof d !== 'string' || d.trim() === '';

export const missingDescription: LintRule = {
  id: 'missing-description',
  code: Codes.LINT_MISSING_DESCRIPTION,
  default: 'warn',
  description: 'tools, prompts, prompt arguments, resources, templates and tool input properties have a description',
  check(m: LoadedManifest): Diagnostic[] {
    return described(m)
      .filter((d) => blank(d.description) && (d.description === undefined || typeof d.description === 'string'))
      .map((d) => {
        const empty = typeof d.own === 'string';
        const isProperty = d.what.startsWith('input property');
        return diagAt(
          m,
          empty ? d.ownPath! : d.path,
          Codes.LINT_MISSING_DESCRIPTION,
          `${d.what} ${empty ? 'has an empty description' : 'has no description'}`,
          {
            key: !empty,
            severity: 'warning',
            hint: isProperty
              ? 'add `description:` saying what the value means and looks like: models fill arguments from it'
              : d.what.startsWith('tool') || d.what.startsWith('prompt')
                ? 'add `description:` saying what it does and when to use it: models choose by it'
                : 'add `description:`: clients and models see it in listings',
          },
        );
      });
  },
};

export const descriptionLength: LintRule = {
  id: 'description-length',
  code: Codes.LINT_DESCRIPTION_LENGTH,
  default: 'warn',
  description: `descriptions are between ${MIN_DESCRIPTION} and ${MAX_DESCRIPTION} characters long`,
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const d of described(m)) {
      if (typeof d.own !== 'string' || d.own.trim() === '' || !d.ownPath) continue;
      const n = codePoints(d.own.trim());
      if (n >= MIN_DESCRIPTION && n <= MAX_DESCRIPTION) continue;
      const short = n < MIN_DESCRIPTION;
      out.push(
        diagAt(
          m,
          d.ownPath,
          Codes.LINT_DESCRIPTION_LENGTH,
          short
            ? `description of ${d.what} is too short (${n} characters; at least ${MIN_DESCRIPTION})`
            : `description of ${d.what} is too long (${n} characters; at most ${MAX_DESCRIPTION})`,
          {
            severity: 'warning',
            hint: short
              ? 'say what it is for, what it expects or returns, in a full sentence'
              : 'keep the essentials: some clients truncate or reject long descriptions; move details to a resource',
          },
        ),
      );
    }
    return out;
  },
};
