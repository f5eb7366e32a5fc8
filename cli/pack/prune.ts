/**
 * Which files of an installed package a bundle leaves out because nothing loads them at run time.
 * Conservative: only files Node never loads from node_modules, or that only tools and people read.
 */

/** Folders at a package's root that hold its tests or repository tooling. */
const ROOT_FOLDERS = new Set(['test', 'tests', '__tests__', '.github', 'coverage', '.nyc_output']);
/** Dotfiles of linters, CI and editors that some packages publish by mistake. */
const TOOLING_DOTFILE =
  /^\.(eslint|nycrc|editorconfig|travis|npmignore|gitattributes|gitignore|prettier|babelrc|jshint|airtap|taprc|c8rc|mocharc|zuul|istanbul|dir-locals)/;
/** Kept whatever their extension: a redistributed package keeps its licence. */
const LEGAL = /^(licen[cs]e|copying|notice|authors)/i;

/** Whether the file at `rel` (POSIX, relative to the package folder) is left out. */
export function isDroppable(rel: string): boolean {
  const slash = rel.indexOf('/');
  if (slash > 0 && ROOT_FOLDERS.has(rel.slice(0, slash))) return true;
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (slash < 0 && TOOLING_DOTFILE.test(name)) return true;
  if (LEGAL.test(name)) return false;
  // Source maps serve debuggers; a stack trace without them still names the compiled file and line.
  if (name.endsWith('.map')) return true;
  if (/\.(md|markdown)$/i.test(name)) return true;
  // Declarations serve the compiler of the package's users, except TypeScript's standard library
  // (lib.*.d.ts), which a compiler run by the server (typescript, ts-morph) reads.
  if (/\.d\.[mc]?ts$/.test(name)) return !name.startsWith('lib.');
  // Node refuses to load TypeScript from node_modules (type stripping stops there), so sources
  // published beside their compiled code are never run.
  if (/\.[mc]?tsx?$/.test(name)) return true;
  return false;
}
