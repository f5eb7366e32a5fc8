/**
 * owned: which project paths a replayed journal may touch, whoever wrote it. mcpgen's own files
 * (src/generated/, test/generated/) may be created, replaced and removed; the user's files that
 * mcpgen creates once (PROJECT_FILES, handlers and their tests) may only be created where nothing is; nothing else, the manifest included, is
 * ever named. The same split as the plan's (cli/plan/plan.ts).
 */
import path from 'node:path';
import { GENERATED_DIRS } from '../plan/plan.js';
import { isTempName } from './temps.js';

/** The project files mcpgen creates when missing; once they exist they are the user's. */
export const PROJECT_FILES = [
  'package.json',
  'tsconfig.json',
  'src/main.ts',
  'src/hooks.ts',
  '.gitignore',
  '.gitattributes',
  '.prettierignore',
  'README.md',
  '.github/workflows/mcp.yml',
  'Dockerfile',
  '.dockerignore',
] as const;
const USER_FILES = new Set<string>(PROJECT_FILES);
const USER_DIRS = ['src/handlers', 'test/handlers'];

const under = (dirs: readonly string[], p: string) => dirs.some((d) => p.startsWith(`${d}/`));

/** A file in a folder mcpgen owns. */
export function inGenerated(p: string): boolean {
  return under(GENERATED_DIRS, p);
}

/** A file that is the user's once it exists. */
export function userOwned(p: string): boolean {
  return USER_FILES.has(p) || under(USER_DIRS, p);
}

/** What a journal may create (a user's file only where there is none). */
export function mayCreate(p: string): boolean {
  return inGenerated(p) || userOwned(p);
}

/** What a journal may remove: mcpgen's files, and temp files of killed writes among the handlers. */
export function mayRemove(p: string): boolean {
  return inGenerated(p) || (under(USER_DIRS, p) && isTempName(path.posix.basename(p)));
}
