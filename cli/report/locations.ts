import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Where CI formats (github, sarif) put paths: GitHub resolves an annotation's `file` and a SARIF
 * result's `uri` against the repository root, whatever folder the command ran in.
 */
export interface ArtifactBase {
  /** The repository root, absolute. */
  root: string;
  /** The folder diagnostics' display paths are relative to (the working folder), absolute. */
  cwd: string;
}

/**
 * The repository root: `GITHUB_WORKSPACE` when set (where Actions checked the repository out, which
 * is what it resolves paths against), else the nearest folder from the manifest's up that holds
 * `.git` (a folder, or a file in worktrees and submodules), else the working folder.
 */
export function findRepositoryRoot(
  from: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (workspace) return path.resolve(cwd, workspace);
  for (let dir = path.resolve(cwd, from); ; ) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(cwd);
    dir = parent;
  }
}

/**
 * A display path relative to the repository root, with forward slashes (`inside`), or absolute
 * when it is outside the root, where no relative path would name it. The working folder is a real
 * path while `GITHUB_WORKSPACE` or `-f` may go through a symbolic link (a runner's work folder, a
 * checkout linked into place): a file outside the root as written is compared again by real paths.
 */
export function artifactPath(file: string, base: ArtifactBase | undefined): { path: string; inside: boolean } {
  if (!base) return { path: file.split('\\').join('/'), inside: !path.isAbsolute(file) };
  const abs = path.resolve(base.cwd, file);
  const rel = below(base.root, abs) ?? below(real(base.root), real(abs));
  if (rel === undefined) return { path: abs.split(path.sep).join('/'), inside: false };
  return { path: rel.split(path.sep).join('/'), inside: true };
}

/** `abs` relative to `root` when it lies inside it, else undefined. */
function below(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
