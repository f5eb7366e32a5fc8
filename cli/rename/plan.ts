/**
 * What `mcpgen rename` would change, decided before anything is written: the manifest's key, each
 * user file to move and each text edit in it. Every refusal (a missing or taken name, an invalid
 * name, a target that exists, a manifest with errors) is found here, so a refused rename writes nothing.
 */
import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../diagnostics.js';
import { generate } from '../generate.js';
import { lintManifest } from '../lint/lint.js';
import { findManifest } from '../load/find.js';
import { loadManifest } from '../load/load.js';
import type { LoadedManifest } from '../load/types.js';
import type { IR } from '../normalize/ir.js';
import { fileBase, typeName } from '../normalize/names.js';
import { PACKAGE_ROOT } from '../paths.js';
import { suggest } from '../validate/suggest.js';
import { validateManifest } from '../validate/validate.js';
import { KINDS, type KindInfo, type RenameKind } from './kinds.js';
import { type KeyEdit, renamedData, renameKey } from './manifest-edit.js';
import { type Mention, mentionsOf } from './mentions.js';
import { handlerEdits, referenceEdits, type TextEdit, type TypeRename, testEdits } from './text-edits.js';

/** A rename mcpgen will not make, with why (and, for a broken manifest, its diagnostics). */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** A user file moved to its new name (or kept in place when the name gives the same file), with its edits. */
export interface Move {
  /** Project-relative POSIX paths. */
  from: string;
  to: string;
  original: string;
  text: string;
  edits: TextEdit[];
  /** The untouched stub a generate made at `to` (after a rename done by hand in the manifest): replaced. */
  replacesStub?: string;
}

export interface RenamePlan {
  kind: RenameKind;
  from: string;
  to: string;
  manifest: { abs: string; display: string; original: string };
  outDir: string;
  /** Absent when the manifest already has the new name (renamed by hand, then generated). */
  keyEdit?: KeyEdit;
  moves: Move[];
  /** The manifest's text (instructions, descriptions, messages) that still names the old name: left for the user. */
  mentions: Mention[];
}

export interface RenameOptions {
  file?: string;
  out?: string;
}

export async function planRename(
  kind: RenameKind,
  from: string,
  to: string,
  opts: RenameOptions,
  cwd: string,
): Promise<RenamePlan> {
  const info = KINDS[kind];
  const abs = findManifest(cwd, opts.file);
  const outDir = path.resolve(cwd, opts.out ?? path.dirname(abs));
  const display = path.relative(cwd, abs) || path.basename(abs);
  if (from === to) throw new Refusal(`${kind} "${from}" already has that name`);

  // Every stub rendered (as if none existed): a stub a generate just made is recognised by its bytes.
  const result = await generate({ manifest: abs, outDir, displayPath: display, exists: () => false });
  const errors = sortDiagnostics(result.diagnostics.filter((d) => d.severity === 'error'));
  if (errors.length || !result.ir) {
    throw new Refusal(
      `${display} has ${errors.length === 1 ? 'an error' : 'errors'}; fix ${errors.length === 1 ? 'it' : 'them'} (mcpgen validate) before renaming; nothing was changed`,
      errors.map(formatDiagnostic),
    );
  }
  const loaded = loadManifest(abs, display).manifest!;
  const entries = ((loaded.data as Record<string, unknown>)[info.section] ?? {}) as Record<string, unknown>;
  const has = (name: string) => Object.hasOwn(entries, name);
  const rendered = new Map(result.files.map((f) => [f.path, f.content]));
  const original = loaded.source;
  const base = { kind, from, to, manifest: { abs, display, original }, outDir };

  if (has(from) && has(to)) throw new Refusal(`${kind} "${to}" already exists in ${display}; pick another name`);
  if (has(from)) {
    checkNewName(loaded, info, kind, from, to);
    const keyEdit = renameKey(loaded, info.section, from, to);
    if ('error' in keyEdit) throw new Refusal(keyEdit.error);
    const oldPath = handlerPathOf(result.ir, kind, from);
    const types = typeRename(loaded.data, kind, from, to);
    const moves = oldPath
      ? planMoves(outDir, info, { from, to }, oldPath, `${info.dir}/${fileBase(to)}`, null, types)
      : [];
    // Positions in the manifest as rename leaves it (the key's edit may shift a column on its line).
    return { ...base, keyEdit, moves, mentions: mentionsOf(keyEdit.text, from) };
  }
  // Renamed by hand in the manifest: the new entry is there, the old one's handler is an orphan.
  const oldPath = `${info.dir}/${fileBase(from)}`;
  const orphan =
    has(to) &&
    !rendered.has(`src/handlers/${oldPath}.ts`) &&
    isFile(path.join(outDir, 'src/handlers', `${oldPath}.ts`));
  if (!orphan) throw new Refusal(notFound(kind, from, Object.keys(entries), display));
  const newPath = handlerPathOf(result.ir, kind, to);
  if (!newPath)
    throw new Refusal(
      `${kind} "${to}" has no handler file (its content comes from the manifest), so src/handlers/${oldPath}.ts has nowhere to go; move its code by hand`,
    );
  const types = typeRename(loaded.data, kind, from, to);
  return {
    ...base,
    moves: planMoves(outDir, info, { from, to }, oldPath, newPath, rendered, types),
    mentions: mentionsOf(original, from),
  };
}

/** The new name against the schema's pattern for the kind, then the whole manifest as it would be (derived-name collisions…). */
function checkNewName(loaded: LoadedManifest, info: KindInfo, kind: RenameKind, from: string, to: string): void {
  const names = namePattern(info.section);
  if (names && !new RegExp(names.pattern, 'u').test(to))
    throw new Refusal(`"${to}" is not a valid ${kind} name: ${names.description}`);
  const renamed: LoadedManifest = { ...loaded, data: renamedData(loaded.data, info.section, from, to) };
  const diags = [...validateManifest(renamed), ...lintManifest(renamed, {}, { locateUpTo: 0 })];
  if (hasErrors(diags)) {
    const messages = [...new Set(diags.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`))];
    throw new Refusal(`renaming ${kind} "${from}" to "${to}" would make the manifest invalid`, messages);
  }
}

/** The schema's `propertyNames` of a section: one source of truth for what a name may be. */
function namePattern(section: string): { pattern: string; description: string } | undefined {
  const schema = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schemas/manifest.v1.json'), 'utf8')) as {
    properties: Record<string, { propertyNames?: { pattern: string; description: string } }>;
  };
  return schema.properties[section]?.propertyNames;
}

function notFound(kind: RenameKind, from: string, names: string[], display: string): string {
  const close = suggest(from, names);
  names.sort();
  const hint = close
    ? `; did you mean "${close}"?`
    : names.length
      ? `; its ${kind}s: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}`
      : '';
  return `${kind} "${from}" is not in ${display}${hint}`;
}

/** The generated types named after the entry (render/ts-types: `<TypeBase><Suffix>`, nested ones longer). */
const TYPE_SUFFIXES: Record<RenameKind, string[]> = {
  tool: ['Input', 'Output'],
  resource: [],
  template: ['Params'],
  prompt: ['Args'],
};

function typeRename(data: unknown, kind: RenameKind, from: string, to: string): TypeRename {
  const m = data as Record<string, Record<string, unknown> | undefined>;
  const fromBase = typeName(from);
  // Type bases of the other entries that start like this one's (`greet_input` beside `greet`).
  const longer = new Set<string>();
  for (const k of Object.values(KINDS))
    for (const name of Object.keys(m[k.section] ?? {})) {
      const b = typeName(name);
      if (name !== from && name !== to && b.length > fromBase.length && b.startsWith(fromBase)) longer.add(b);
    }
  const schemas = new Set(Object.keys(m.schemas ?? {}).flatMap((n) => [n, typeName(n)]));
  return {
    from: fromBase,
    to: typeName(to),
    suffixes: TYPE_SUFFIXES[kind],
    taken: (id) => schemas.has(id) || [...longer].some((b) => id.startsWith(b)),
  };
}

function handlerPathOf(ir: IR, kind: RenameKind, name: string): string | null {
  const list = { tool: ir.tools, resource: ir.resources, template: ir.templates, prompt: ir.prompts }[kind];
  return (list as { name: string; handlerPath: string | null }[]).find((e) => e.name === name)?.handlerPath ?? null;
}

/** The handler and its test (a tool's test stub, or the user's own) moved from one handler path to the other, with their edits. */
function planMoves(
  outDir: string,
  info: KindInfo,
  names: { from: string; to: string },
  oldPath: string,
  newPath: string,
  rendered: Map<string, string> | null,
  types: TypeRename,
): Move[] {
  const moves: Move[] = [];
  const handler = movable(outDir, `src/handlers/${oldPath}.ts`, `src/handlers/${newPath}.ts`, rendered);
  if (handler) {
    const edited = handlerEdits(info, handler.original, names, { from: handler.from, to: handler.to }, types);
    moves.push({ ...handler, ...edited });
  }
  // A tool's test stub, or the user's own test of another kind's handler (same place, same name).
  const test = movable(outDir, `test/handlers/${oldPath}.test.ts`, `test/handlers/${newPath}.test.ts`, rendered);
  if (test) {
    const modules = { from: `../../../src/handlers/${oldPath}.js`, to: `../../../src/handlers/${newPath}.js` };
    moves.push({ ...test, ...testEdits(test.original, names, modules, types) });
  }
  // Then the user's other files that name the entry (not those moved above).
  return [...moves, ...referenceMoves(outDir, moves, types, { from: oldPath, to: newPath })];
}

/** The folders of the user's own code that may name the entry; generated folders and builds are not. */
const USER_CODE = ['src', 'test'];
const NOT_USER_CODE = new Set(['src/generated', 'test/generated', 'node_modules', 'dist']);

/**
 * The user's other TypeScript files that name the entry's generated types or import its handler
 * module, each edited in place. Symbolic links are not followed: nothing outside the project changes.
 */
function referenceMoves(
  outDir: string,
  moved: Move[],
  types: TypeRename,
  handlers: { from: string; to: string },
): Move[] {
  const skip = new Set(moved.flatMap((m) => [m.from, m.to]));
  const out: Move[] = [];
  const walk = (rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(outDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory() && !NOT_USER_CODE.has(child)) walk(child);
      else if (e.isFile() && /\.(ts|mts|cts|tsx)$/.test(e.name) && !skip.has(child)) {
        const original = readFileSync(path.join(outDir, child), 'utf8');
        const edited = referenceEdits(original, types, handlers);
        if (edited.edits.length) out.push({ from: child, to: child, original, ...edited });
      }
    }
  };
  for (const root of USER_CODE) walk(root);
  return out;
}

/**
 * A file to move, or null when there is none (generate then makes the new stub). Refuses a source
 * that is not a regular file, a folder leading out of the project, and a target that exists (unless
 * it is the untouched stub a generate made after a rename by hand).
 */
function movable(
  outDir: string,
  from: string,
  to: string,
  rendered: Map<string, string> | null,
): { from: string; to: string; original: string; replacesStub?: string } | null {
  const src = path.join(outDir, from);
  const st = lstatOrNull(src);
  if (!st) return null;
  if (!st.isFile()) throw new Refusal(`${from} is not a regular file (a symbolic link?); move it by hand`);
  const root = realpathSync(outDir);
  const folder = realpathSync(path.dirname(src));
  if (folder !== root && !folder.startsWith(root + path.sep))
    throw new Refusal(`${path.dirname(from)} leads out of the project folder; rename refuses to write there`);
  const original = readFileSync(src, 'utf8');
  if (from === to) return { from, to, original };
  const dst = lstatOrNull(path.join(outDir, to));
  // The same file under another case (a case-insensitive file system) is no obstacle.
  if (dst && !(dst.ino === st.ino && dst.dev === st.dev)) {
    const text = dst.isFile() ? readFileSync(path.join(outDir, to), 'utf8') : null;
    if (rendered && text !== null && rendered.get(to) === text) return { from, to, original, replacesStub: text };
    throw new Refusal(`${to} already exists; move or delete it first (rename never overwrites a file)`);
  }
  return { from, to, original };
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function isFile(p: string): boolean {
  return lstatOrNull(p)?.isFile() === true;
}
