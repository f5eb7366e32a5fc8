/**
 * A static view of how TypeScript modules import each other, from their text alone: no compiler,
 * so it stays fast over every golden project. Only relative specifiers are followed ('./x.js' is
 * x.ts); packages are outside the graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every .ts module under dir (declarations, node_modules and dist left out). */
export function tsModules(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : tsModules(file);
      return file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
    });
}

const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/**
 * The source with comments blanked (`code`), and also with the text of strings, templates and
 * regexes blanked (`bare`, quotes kept). Same length as the source, so positions carry over:
 * patterns match on `bare` (no keyword inside a string or comment counts) and read specifiers from `code`.
 */
export function blank(source: string): { code: string; bare: string } {
  const code = source.split('');
  const bare = source.split('');
  const wipe = (from: number, to: number, both: boolean) => {
    for (let k = from; k < to; k++) {
      if (source[k] === '\n') continue;
      bare[k] = ' ';
      if (both) code[k] = ' ';
    }
  };
  // Brace depth of each `${` being read, innermost last: its `}` resumes the template.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const previous = () => {
    let k = i - 1;
    while (k >= 0 && /\s/.test(bare[k]!)) k--;
    if (k < 0) return '';
    if (!/[\w$]/.test(bare[k]!)) return bare[k]!;
    let start = k;
    while (start > 0 && /[\w$]/.test(bare[start - 1]!)) start--;
    return bare.slice(start, k + 1).join('');
  };
  const template = () => {
    // i is just past a backtick or a `}` closing `${`.
    const start = i;
    while (i < source.length) {
      if (source[i] === '\\') i += 2;
      else if (source[i] === '`') {
        wipe(start, i, false);
        i++;
        return;
      } else if (source[i] === '$' && source[i + 1] === '{') {
        wipe(start, i, false);
        i += 2;
        templates.push(depth);
        return;
      } else i++;
    }
    wipe(start, i, false);
  };
  while (i < source.length) {
    const c = source[i]!;
    const d = source[i + 1];
    if (c === '/' && d === '/') {
      const end = source.indexOf('\n', i);
      const to = end === -1 ? source.length : end;
      wipe(i, to, true);
      i = to;
    } else if (c === '/' && d === '*') {
      const end = source.indexOf('*/', i + 2);
      const to = end === -1 ? source.length : end + 2;
      wipe(i, to, true);
      i = to;
    } else if (c === "'" || c === '"') {
      let k = i + 1;
      while (k < source.length && source[k] !== c && source[k] !== '\n') k += source[k] === '\\' ? 2 : 1;
      wipe(i + 1, k, false);
      i = k + 1;
    } else if (c === '`') {
      i++;
      template();
    } else if (c === '/') {
      const before = previous();
      const regex = before === '' || /^[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || REGEX_AFTER_WORD.has(before);
      if (!regex) {
        i++;
        continue;
      }
      let k = i + 1;
      let inClass = false;
      while (k < source.length && source[k] !== '\n') {
        if (source[k] === '\\') k++;
        else if (source[k] === '[') inClass = true;
        else if (source[k] === ']') inClass = false;
        else if (source[k] === '/' && !inClass) break;
        k++;
      }
      wipe(i + 1, k, false);
      i = k + 1;
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      if (templates.length && templates[templates.length - 1] === depth) {
        templates.pop();
        i++;
        template();
      } else {
        depth--;
        i++;
      }
    } else i++;
  }
  return { code: code.join(''), bare: bare.join('') };
}

/** One name of an import or export clause: `imported as local` (for exports: `local as exported`). */
export interface Binding {
  /** The name in the other module (`*` for a namespace). */
  readonly imported: string;
  /** The name in this module. */
  readonly local: string;
}

export interface ImportSyntax {
  readonly specifier: string;
  /** Named, default (`default`) and namespace (`*`) bindings; empty for `import './x.js'`. */
  readonly bindings: Binding[];
  readonly dynamic: boolean;
  /** A dynamic import whose names could not be read statically: it may use every export. */
  readonly opaque: boolean;
}

export interface ExportSyntax {
  /** The name other modules import. */
  readonly exported: string;
  /** The name inside this module, or in `from` for a re-export (`*` for `export * from`). */
  readonly local: string;
  /** Set for `export … from '<from>'`. */
  readonly from?: string;
}

export interface ModuleSyntax {
  readonly imports: ImportSyntax[];
  readonly exports: ExportSyntax[];
  /** How often each identifier occurs outside import statements and export lists (property names after `.` left out). */
  readonly references: Map<string, number>;
  /** Of those, the occurrences not followed by a property read. */
  readonly whole: Map<string, number>;
  /** For each identifier, the property names read from it (`ns.X`, `ns?.X`). */
  readonly properties: Map<string, Set<string>>;
}

function clause(text: string): Binding[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(part);
      if (!m) throw new Error(`unreadable import/export clause: ${part}`);
      return { imported: m[2]!, local: m[3] ?? m[2]! };
    });
}

const IMPORT = /(?<![\w$.])import\s+(?:type\s+)?([\w$\s{},*]+?)\s*from\s*(['"])/g;
const SIDE_EFFECT_IMPORT = /(?<![\w$.])import\s*(['"])/g;
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\(\s*(['"])/g;
const EXPORT_FROM = /(?<![\w$.])export\s+(?:type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[\w$\s,]*\})\s*from\s*(['"])/g;
const EXPORT_LIST = /(?<![\w$.])export\s+(?:type\s+)?\{([\w$\s,]*)\}(?!\s*from\b)/g;
const EXPORT_DECLARATION =
  /(?<![\w$.])export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|const\s+enum|enum|const|let|var|type|interface|namespace)\s+([\w$]+)/g;
const EXPORT_DEFAULT = /(?<![\w$.])export\s+default\b/g;

/** The imports, exports and identifier uses of one module's source (one name per `export const`, as generated code writes them). */
export function parseModule(source: string): ModuleSyntax {
  const { code, bare } = blank(source);
  const imports: ImportSyntax[] = [];
  const exports: ExportSyntax[] = [];
  // Statements whose identifiers are not uses: imports, export lists and re-exports.
  const skipped: [number, number][] = [];
  /** The specifier of the string whose opening quote is at `quote`, and the index past it. */
  const stringAt = (quote: number): [string, number] => {
    const end = bare.indexOf(bare[quote]!, quote + 1);
    return [code.slice(quote + 1, end), end + 1];
  };

  for (const m of bare.matchAll(IMPORT)) {
    const [specifier, end] = stringAt(m.index + m[0].length - 1);
    skipped.push([m.index, end]);
    const bindings: Binding[] = [];
    const text = m[1]!.trim();
    const named = /\{([^}]*)\}/.exec(text);
    if (named) bindings.push(...clause(named[1]!));
    const rest = text
      .replace(/\{[^}]*\}/, '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const part of rest) {
      const ns = /^\*\s*as\s+([\w$]+)$/.exec(part);
      if (ns) bindings.push({ imported: '*', local: ns[1]! });
      else if (/^[\w$]+$/.test(part)) bindings.push({ imported: 'default', local: part });
      else throw new Error(`unreadable import clause: ${text}`);
    }
    imports.push({ specifier, bindings, dynamic: false, opaque: false });
  }
  for (const m of bare.matchAll(SIDE_EFFECT_IMPORT)) {
    const [specifier, end] = stringAt(m.index + m[0].length - 1);
    skipped.push([m.index, end]);
    imports.push({ specifier, bindings: [], dynamic: false, opaque: false });
  }
  for (const m of bare.matchAll(DYNAMIC_IMPORT)) {
    const [specifier, end] = stringAt(m.index + m[0].length - 1);
    const before = bare.slice(Math.max(0, m.index - 300), m.index);
    const after = bare.slice(end, end + 100);
    // `const { a, b: c } = await import(…)` names what it uses; a module handed on
    // (`lazy(() => import(…))`) may reach every export.
    const destructured = /(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*await\s*$/.exec(before);
    // `(await import(…)).a`, or `import(…).A` in a type; `.then(…)` reads nothing by name.
    const read = (/\(\s*await\s*$/.test(before) ? /^\s*\)\s*\)\s*\??\.\s*([\w$]+)/ : /^\s*\)\s*\.\s*([\w$]+)/).exec(
      after,
    )?.[1];
    const member = read === 'then' ? undefined : read;
    const bindings: Binding[] = [];
    if (destructured) {
      for (const part of destructured[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const b = /^([\w$]+)\s*(?::\s*([\w$]+))?(?:\s*=.*)?$/.exec(part);
        if (b) bindings.push({ imported: b[1]!, local: b[2] ?? b[1]! });
      }
    } else if (member) bindings.push({ imported: member, local: member });
    imports.push({ specifier, bindings, dynamic: true, opaque: !destructured && !member });
  }

  for (const m of bare.matchAll(EXPORT_FROM)) {
    const [from, end] = stringAt(m.index + m[0].length - 1);
    skipped.push([m.index, end]);
    const what = m[1]!;
    const star = /^\*(?:\s+as\s+([\w$]+))?$/.exec(what);
    if (star) exports.push({ exported: star[1] ?? '*', local: '*', from });
    else for (const b of clause(what.slice(1, -1))) exports.push({ exported: b.local, local: b.imported, from });
    imports.push({ specifier: from, bindings: [], dynamic: false, opaque: false });
  }
  for (const m of bare.matchAll(EXPORT_LIST)) {
    skipped.push([m.index, m.index + m[0].length]);
    for (const b of clause(m[1]!)) exports.push({ exported: b.local, local: b.imported });
  }
  for (const m of bare.matchAll(EXPORT_DECLARATION)) exports.push({ exported: m[1]!, local: m[1]! });
  for (const _ of bare.matchAll(EXPORT_DEFAULT)) exports.push({ exported: 'default', local: 'default' });

  const references = new Map<string, number>();
  const whole = new Map<string, number>();
  const properties = new Map<string, Set<string>>();
  const chars = bare.split('');
  for (const [from, to] of skipped) for (let k = from; k < to; k++) if (chars[k] !== '\n') chars[k] = ' ';
  const text = chars.join('');
  for (const m of text.matchAll(/(?<![\w$])[A-Za-z_$][\w$]*/g)) {
    let k = m.index - 1;
    while (k >= 0 && /\s/.test(text[k]!)) k--;
    if (text[k] === '.' && text[k - 1] !== '.') continue;
    const name = m[0];
    references.set(name, (references.get(name) ?? 0) + 1);
    const prop = /^\s*\??\.\s*([A-Za-z_$][\w$]*)/.exec(text.slice(m.index + name.length, m.index + name.length + 200));
    if (prop) {
      const set = properties.get(name) ?? new Set<string>();
      set.add(prop[1]!);
      properties.set(name, set);
    } else whole.set(name, (whole.get(name) ?? 0) + 1);
  }
  return { imports, exports, references, whole, properties };
}

/** The module a relative specifier names among `known`, or undefined (packages, JSON, missing files). */
export function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [
    target.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts'),
    `${target}.ts`,
    path.join(target, 'index.ts'),
  ];
  return candidates.find((c) => known.has(c));
}

// Each golden module is read by several checks; a changed file is parsed again.
const syntaxCache = new Map<string, { mtimeMs: number; syntax: ModuleSyntax }>();
function syntaxOf(file: string): ModuleSyntax {
  const { mtimeMs } = statSync(file);
  const cached = syntaxCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.syntax;
  const syntax = parseModule(readFileSync(file, 'utf8'));
  syntaxCache.set(file, { mtimeMs, syntax });
  return syntax;
}

/** The modules each of `files` imports (static, type-only, re-export and dynamic), keyed by path relative to root. */
export function importGraph(files: readonly string[], root: string): Map<string, string[]> {
  const known = new Set(files.map((f) => path.resolve(f)));
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const graph = new Map<string, string[]>();
  for (const file of known) {
    const deps = new Set<string>();
    for (const imp of syntaxOf(file).imports) {
      const target = resolveSpecifier(file, imp.specifier, known);
      if (target) deps.add(rel(target));
    }
    graph.set(rel(file), [...deps]);
  }
  return graph;
}

/** The graph's strongly connected components of more than one module (Tarjan), each sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * For every module (relative to root) and each name it exports, the modules that use that export.
 * An import counts where its binding occurs in the importer beyond the import itself; one that only
 * feeds an `export { x }` is a re-export, and uses of the re-export count for the original.
 * A namespace import uses the properties read from it (`ns.X`), or everything when it is passed on whole.
 */
export function exportUses(files: readonly string[], root: string): Map<string, Map<string, Set<string>>> {
  return analyse(files, root).uses;
}

/** Imports of relative modules whose binding the importer never refers to (nor re-exports): they use nothing. */
export function idleImports(
  files: readonly string[],
  root: string,
): { importer: string; module: string; name: string }[] {
  return analyse(files, root).idle;
}

function analyse(files: readonly string[], root: string) {
  const known = new Set(files.map((f) => path.resolve(f)));
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const uses = new Map<string, Map<string, Set<string>>>();
  // (module, exported name) → where it comes from, for re-exports of relative modules.
  const origin = new Map<string, { module: string; name: string }>();
  // module → modules it re-exports whole (`export * from`).
  const stars = new Map<string, string[]>();
  const key = (module: string, name: string) => `${module}\0${name}`;

  for (const file of known) {
    const module = rel(file);
    const names = new Map<string, Set<string>>();
    uses.set(module, names);
    const syntax = syntaxOf(file);
    const importedFrom = new Map<string, { module: string; name: string }>();
    for (const imp of syntax.imports) {
      const target = resolveSpecifier(file, imp.specifier, known);
      if (target) for (const b of imp.bindings) importedFrom.set(b.local, { module: rel(target), name: b.imported });
    }
    for (const exp of syntax.exports) {
      if (exp.from !== undefined) {
        const target = resolveSpecifier(file, exp.from, known);
        if (!target) names.set(exp.exported, new Set());
        else if (exp.local === '*' && exp.exported === '*')
          stars.set(module, [...(stars.get(module) ?? []), rel(target)]);
        else {
          names.set(exp.exported, new Set());
          origin.set(key(module, exp.exported), { module: rel(target), name: exp.local });
        }
        continue;
      }
      names.set(exp.exported, new Set());
      const source = importedFrom.get(exp.local);
      if (source) origin.set(key(module, exp.exported), source);
    }
  }

  const direct: { module: string; name: string; user: string }[] = [];
  const idle: { importer: string; module: string; name: string }[] = [];
  for (const file of known) {
    const user = rel(file);
    const syntax = syntaxOf(file);
    for (const imp of syntax.imports) {
      const target = resolveSpecifier(file, imp.specifier, known);
      if (!target) continue;
      const module = rel(target);
      if (imp.opaque) direct.push({ module, name: '*', user });
      for (const b of imp.bindings) {
        if (imp.dynamic) {
          direct.push({ module, name: b.imported, user });
          continue;
        }
        if (!syntax.references.get(b.local)) {
          if (!syntax.exports.some((e) => e.from === undefined && e.local === b.local))
            idle.push({ importer: user, module, name: b.imported });
          continue;
        }
        if (b.imported !== '*') {
          direct.push({ module, name: b.imported, user });
          continue;
        }
        if (syntax.whole.get(b.local)) direct.push({ module, name: '*', user });
        else for (const name of syntax.properties.get(b.local) ?? []) direct.push({ module, name, user });
      }
    }
  }

  const mark = (module: string, name: string, user: string, seen = new Set<string>()) => {
    const names = uses.get(module);
    if (!names || seen.has(key(module, name))) return;
    seen.add(key(module, name));
    if (name === '*') {
      for (const n of [...names.keys()]) mark(module, n, user, seen);
      for (const s of stars.get(module) ?? []) mark(s, '*', user, seen);
      return;
    }
    const set = names.get(name);
    if (set) {
      set.add(user);
      const from = origin.get(key(module, name));
      if (from) mark(from.module, from.name, user, seen);
    } else for (const s of stars.get(module) ?? []) mark(s, name, user, seen);
  };
  for (const { module, name, user } of direct) mark(module, name, user);
  return { uses, idle };
}
