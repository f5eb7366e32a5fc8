/**
 * Sections: the per-entity parts of a large generated file (one object member or one statement
 * per tool) formatted one by one, by shape. A template marks them with `{{#shaped "member"}}` or
 * `{{#shaped "statement"}}`; the file keeps a one-line placeholder in their place, so prettier
 * only sees a small skeleton, and each section is formatted inside a minimal wrapper (an object
 * or a function body at the same indentation) — once per shape (cli/format/mask.ts), since
 * prettier lays out a member or a statement without looking at its neighbours.
 */
import { unmask } from './mask.js';
import { spliceData, withJson } from './splice.js';

/**
 * An object literal member, an interface (or type literal) member, a statement, or text printed
 * exactly as prettier prints it already, kept as is: statements (cli/render/handlebars.ts
 * importList) or object members (`printed`: members printed directly, cli/render/views.ts).
 */
export type SectionKind = 'member' | 'field' | 'statement' | 'verbatim' | 'printed';

export interface Section {
  kind: SectionKind;
  /** The section as rendered, with its own data placeholders (numbered from 0 within it). */
  real: string;
  data: unknown[];
  /** The section rendered with its names masked, when they all could be. */
  shape: { content: string; tokens: [string, string][] } | null;
}

const SECTION = /^( *)__mcpgenShape(\d+)__(?:,|;|: never;)$/;
const END = { member: ',', field: ': never;', statement: ';', verbatim: ';', printed: ',' };

export function sectionPlaceholder(index: number, kind: SectionKind, real: string): string {
  let indent = 0;
  while (real.charCodeAt(indent) === 32) indent++;
  return `${real.slice(0, indent)}__mcpgenShape${index}__${END[kind]}\n`;
}

/** The wrapper that gives a section the context it has in its file, and how to take it out again. */
function wrap(kind: SectionKind, indent: number, text: string): { text: string; lines: (formatted: string) => string[] | null } | null {
  const inner = (open: string, close: string) => ({
    text: `${open}\n${text}${close}\n`,
    lines: (formatted: string) => {
      const lines = formatted.split('\n');
      if (lines[0] !== open || lines.at(-2) !== close || lines.at(-1) !== '') return null;
      return lines.slice(1, -2);
    },
  });
  if (indent === 2 && kind === 'member') return inner('const __mcpgenWrap = {', '};');
  if (indent === 2 && kind === 'field') return inner('interface McpgenWrap {', '}');
  if (indent === 2 && kind === 'statement') return inner('function __mcpgenWrap() {', '}');
  if (indent === 0 && kind === 'statement') return { text, lines: (f) => f.replace(/\n$/, '').split('\n') };
  return null;
}

export type Formatter = (content: string) => Promise<string>;

/**
 * Unwrapped formatted shapes, per shape formatter (the build makes one per file) and kind,
 * indentation and shape: pending while prettier (or its cache) runs, then the text itself, so the
 * thousands of sections of a shape already seen are done synchronously, without a promise each.
 */
const apartShapes = new WeakMap<Formatter, Map<string, Map<string, Promise<string | null> | { done: string | null }>>>();

/** One section, formatted and with its data spliced; null when it cannot be done apart from its file. */
function formatSection(section: Section, kind: SectionKind, indent: number, format: Formatter, formatShape: Formatter): string | null | Promise<string | null> {
  if (kind === 'verbatim' || kind === 'printed') return section.data.length === 0 ? section.real.replace(/\n$/, '') : null;
  if (section.shape) {
    // Sections of one shape are many (one per tool): the shape is wrapped, formatted and unwrapped once.
    let byPlace = apartShapes.get(formatShape);
    if (!byPlace) apartShapes.set(formatShape, (byPlace = new Map()));
    // Keyed by place, then by the shape's text as it is (no key string built per section).
    const place = `${kind} ${indent}`;
    let shapes = byPlace.get(place);
    if (!shapes) byPlace.set(place, (shapes = new Map()));
    const key = section.shape.content;
    const known = shapes.get(key);
    if (known && !(known instanceof Promise)) return known.done === null ? formatReal(section, kind, indent, format) : filled(known.done, section, kind, indent, format);
    let pending = known;
    if (!pending) {
      const started = apart(kind, indent, section.shape.content, formatShape).then((done) => (shapes.set(key, { done }), done));
      shapes.set(key, started);
      pending = started;
    }
    return pending.then((done) => (done === null ? formatReal(section, kind, indent, format) : filled(done, section, kind, indent, format)));
  }
  return formatReal(section, kind, indent, format);
}

/** A section formatted apart from its file: wrapped, formatted, unwrapped; null when that is not possible. */
async function apart(kind: SectionKind, indent: number, text: string, fmt: Formatter): Promise<string | null> {
  const w = wrap(kind, indent, text);
  if (!w) return null;
  const lines = w.lines(await fmt(w.text));
  return lines && lines.join('\n');
}

/** The formatted shape with the section's names put back and its data spliced in. */
function filled(shaped: string, section: Section, kind: SectionKind, indent: number, format: Formatter): string | null | Promise<string | null> {
  const text = unmask(shaped, section.shape!.tokens);
  if (section.data.length === 0) return text;
  return spliceData(text, section.data) ?? apart(kind, indent, withJson(section.real, section.data), format);
}

/** A section whose shape could not be used: its real text, formatted apart. */
async function formatReal(section: Section, kind: SectionKind, indent: number, format: Formatter): Promise<string | null> {
  const text = await apart(kind, indent, section.real, format);
  if (text === null || section.data.length === 0) return text;
  return spliceData(text, section.data) ?? (await apart(kind, indent, withJson(section.real, section.data), format));
}

const RUN = /^( *)__mcpgenShapes(\d+)_(\d+)__(?:,|;|: never;)$/;

/**
 * The skeleton prettier sees: a run of adjacent placeholders (one `{{#each}}` of sections) becomes
 * one line, so the skeleton of a 1000-tool file stays a few lines long.
 */
export function collapseSections(skeleton: string): string {
  const lines = skeleton.split('\n');
  const out: string[] = [];
  for (let n = 0; n < lines.length; n++) {
    const m = SECTION.exec(lines[n]!);
    if (!m) {
      out.push(lines[n]!);
      continue;
    }
    const first = Number(m[2]);
    const end = lines[n]!.slice(lines[n]!.lastIndexOf('__') + 2);
    let last = first;
    while (n + 1 < lines.length) {
      const next = SECTION.exec(lines[n + 1]!);
      if (!next || next[1] !== m[1] || Number(next[2]) !== last + 1 || !lines[n + 1]!.endsWith(end)) break;
      last++;
      n++;
    }
    out.push(first === last ? lines[n]! : `${m[1]}__mcpgenShapes${first}_${last}__${end}`);
  }
  return out.join('\n');
}

/**
 * The collapsed skeleton with its section placeholders numbered by occurrence instead of by section
 * (`__mcpgenShapes1_17__` → `__mcpgenRun0__`), and the way back: what prettier (and its cache)
 * sees is then the same for any number of entries. A placeholder is alone on its line, so its width
 * changes nothing around it.
 */
export function ordinalRuns(collapsed: string): { text: string; restore: (formatted: string) => string | null } {
  const originals: string[] = [];
  const text = collapsed.replace(/__mcpgenShapes?\d+(?:_\d+)?__/g, (m) => `__mcpgenRun${originals.push(m) - 1}__`);
  return {
    text,
    restore: (formatted) => {
      let seen = 0;
      const out = formatted.replace(/__mcpgenRun(\d+)__/g, (_m, i: string) => (seen++, originals[Number(i)] ?? _m));
      return seen === originals.length ? out : null;
    },
  };
}

/**
 * Puts the formatted sections into the formatted (collapsed) skeleton; null when a placeholder did
 * not stay alone on its line or a section cannot be formatted apart (the caller formats the whole
 * file).
 */
export async function fillSections(skeleton: string, sections: readonly Section[], format: Formatter, formatShape: Formatter): Promise<string | null> {
  const lines = skeleton.split('\n');
  const jobs: (string | null | Promise<string | null>)[][] = [];
  const at: number[] = [];
  let count = 0;
  for (let n = 0; n < lines.length; n++) {
    if (!lines[n]!.includes('__mcpgenShape')) continue;
    const one = SECTION.exec(lines[n]!);
    const run = one ? null : RUN.exec(lines[n]!);
    if (!one && !run) return null;
    const indent = (one ?? run)![1]!.length;
    const first = Number(one ? one[2] : run![2]);
    const last = one ? first : Number(run![3]);
    const group: (string | null | Promise<string | null>)[] = [];
    for (let i = first; i <= last; i++) {
      const section = sections[i];
      if (!section) return null;
      group.push(formatSection(section, section.kind, indent, format, formatShape));
    }
    count += group.length;
    jobs.push(group);
    at.push(n);
  }
  if (count !== sections.length) return null;
  for (const [i, n] of at.entries()) {
    const group = jobs[i]!;
    const texts = group.some((t) => t instanceof Promise) ? await Promise.all(group) : (group as (string | null)[]);
    if (texts.includes(null)) return null;
    lines[n] = texts.join('\n');
  }
  return lines.join('\n');
}

/** The whole file as plain text (every section and data value in place), for prettier. */
export function withSections(skeleton: string, sections: readonly Section[]): string {
  return skeleton.replace(/^ *__mcpgenShape(\d+)__(?:,|;|: never;)\n/gm, (_m, i: string) => withJson(sections[Number(i)]!.real, sections[Number(i)]!.data));
}
