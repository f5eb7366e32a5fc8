/**
 * The project folder `mcpgen mcp` serves: every path an agent passes is resolved inside it, and
 * refused when it leaves it (`..`, an absolute path elsewhere, or a symbolic link pointing out), so
 * no tool reads or writes outside the folder the server was started on.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_NAMES } from '../load/find.js';

/** A request the tools refuse: answered as an `isError` result with this message. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
  constructor(
    message: string,
    /** Structured detail for the agent (diagnostics, the names that exist…). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Project {
  /** Absolute, with symbolic links resolved. */
  root: string;
}

export function openProject(dir: string): Project {
  const abs = path.resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`${dir} is not a folder`);
  return { root: realpathSync(abs) };
}

/** The absolute path of `p` (relative to the project, or absolute) when it stays inside the project; else a refusal. */
export function insideProject(project: Project, p: string): string {
  if (p.includes('\0')) throw new ToolRefusal(`path ${JSON.stringify(p)} contains a NUL character`);
  const abs = path.resolve(project.root, p);
  if (!within(project.root, abs)) throw new ToolRefusal(`path ${p} is outside the project folder ${project.root}`);
  // A symbolic link inside the project may still lead out: the nearest existing ancestor, resolved, decides.
  let existing = abs;
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const real = realpathSync(existing);
  if (!within(project.root, real))
    throw new ToolRefusal(`path ${p} leads outside the project folder ${project.root} (through a symbolic link)`);
  return abs;
}

function within(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The manifest: the one given (inside the project), else mcpgen.yaml / mcpgen.yml at the project's
 * root. Unlike the command line, no parent folder is searched: the manifest's folder is where
 * generate writes, and that must be inside the project.
 */
export function manifestOf(project: Project, given?: string): { abs: string; display: string } {
  if (given !== undefined && given !== '') {
    const abs = insideProject(project, given);
    if (!existsSync(abs)) throw new ToolRefusal(`manifest ${given} does not exist in ${project.root}`);
    if (!statSync(abs).isFile()) throw new ToolRefusal(`manifest ${given} is not a file`);
    return { abs, display: displayOf(project, abs) };
  }
  for (const name of MANIFEST_NAMES) {
    const abs = path.join(project.root, name);
    if (existsSync(abs) && statSync(abs).isFile()) return { abs, display: name };
  }
  throw new ToolRefusal(
    `no mcpgen.yaml (or mcpgen.yml) in ${project.root}, and no tool of this server creates a project: ask the user to run \`npx mcpgen init\` in that folder (or to start \`mcpgen mcp\` in the project's folder), or pass the manifest's path (inside this folder) as \`manifest\``,
  );
}

/** A path as the tools report it: relative to the project, with forward slashes. */
export function displayOf(project: Project, abs: string): string {
  return path.relative(project.root, abs).split(path.sep).join('/') || '.';
}
