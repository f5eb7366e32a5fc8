import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import { inputProperties, type InputProperty } from '../input-properties.js';
import type { LintRule } from '../rule.js';

/** Shorter than this says too little to choose a tool or fill an argument ("Gets it"). */
export const MIN_DESCRIPTION = 10;
/** Longer than this is cut or refused by some clients (OpenAI-style function descriptions stop at 1024). */
export const MAX_DESCRIPTION = 1024;

interface Described {
  /** Path of the entry or property; the diagnostic points at its key. */
  path: JsonPath;
  /** "tool `get`", "input property `city` of tool `get`" (made only for what is reported: there are thousands). */
  what(): string;
  /** An input property (hints differ). */
  property: boolean;
  /** The description that applies (for properties: after following `$ref`). */
  description: unknown;
  /** Where the entry's own description is or would be: `path` + `description`. */
  ownPath(): JsonPath;
  own: unknown;
}

/** An entry's Described, with its words made on demand. */
class Entry implements Described {
  constructor(
    readonly path: JsonPath,
    private readonly words: string,
    readonly description: unknown,
    readonly own: unknown,
    readonly property = false,
  ) {}
  what(): string {
    return this.words;
  }
  ownPath(): JsonPath {
    return [...this.path, 'description'];
  }
}

class Property extends Entry {
  constructor(private readonly p: InputProperty) {
    super(p.path, '', p.effective.description, p.own.description, true);
  }
  override what(): string {
    return `input property \`${this.p.name}\` of tool \`${this.p.tool}\``;
  }
}

/** Everything that should describe itself: tools, prompts, prompt arguments, resources, templates, tool input properties. */
function described(m: LoadedManifest): Described[] {
  // Both description rules ask (maybe twice: see lint.ts); the data is walked once.
  if (!isRecord(m.data)) return [];
  let out = seen.get(m.data);
  if (!out) seen.set(m.data, (out = collect(m)));
  return out;
}

const seen = new WeakMap<object, Described[]>();

function collect(m: LoadedManifest): Described[] {
  const out: Described[] = [];
  if (!isRecord(m.data)) return out;
  const entry = (path: JsonPath, what: string, v: unknown): void => {
    if (!isRecord(v)) return; // not a mapping: the schema reports it
    const d = v.description;
    out.push(new Entry(path, what, d, d));
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
  for (const p of inputProperties(m)) out.push(new Property(p));
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
        const what = d.what();
        return diagAt(
          m,
          empty ? d.ownPath() : d.path,
          Codes.LINT_MISSING_DESCRIPTION,
          `${what} ${empty ? 'has an empty description' : 'has no description'}`,
          {
            key: !empty,
            severity: 'warning',
            hint: d.property
              ? 'add `description:` saying what the value means and looks like: models fill arguments from it'
              : what.startsWith('tool') || what.startsWith('prompt')
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
      if (typeof d.own !== 'string' || d.own.trim() === '') continue;
      const n = codePoints(d.own.trim());
      if (n >= MIN_DESCRIPTION && n <= MAX_DESCRIPTION) continue;
      const short = n < MIN_DESCRIPTION;
      out.push(
        diagAt(
          m,
          d.ownPath(),
          Codes.LINT_DESCRIPTION_LENGTH,
          short
            ? `description of ${d.what()} is too short (${n} character${n === 1 ? '' : 's'}; at least ${MIN_DESCRIPTION})`
            : `description of ${d.what()} is too long (${n} characters; at most ${MAX_DESCRIPTION})`,
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
