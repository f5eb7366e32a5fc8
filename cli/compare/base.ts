/**
 * The manifest `compare --base` names: a file, or the head manifest's path at a git revision
 * (`git show <rev>:<path>`, git run without a shell). Every way it cannot be had is a UsageError
 * naming what is missing.
 */
import { execFile } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';

export interface BaseManifest {
  /** The manifest's text read at the revision; undefined for a file (loaded as validate loads it). */
  source?: string;
  /** Absolute path its `file:` references resolve from (the head's path for a revision). */
  absPath: string;
  /** How diagnostics name it: the file as given, or `<rev>:<path>`. */
  display: string;
  /** The revision it was read at, or null for a file. */
  rev: string | null;
  /** The manifest is not at that revision: the change adds it, so there is nothing it can break. */
  absent?: boolean;
}

/** A manifest is far below this; git's output past it is no manifest. */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * `base` as a file when one is there (relative to cwd), else as a revision of the repository
 * holding `head` (absolute).
 */
export async function readBase(base: string, head: string, cwd: string): Promise<BaseManifest> {
  if (base === '')
    throw new UsageError('--base is empty: give a manifest file or a git revision (origin/main, HEAD~1)');
  const asFile = path.resolve(cwd, base);
  const kind = statKind(asFile);
  if (kind === 'file') return { absPath: asFile, display: shown(cwd, asFile), rev: null };
  if (kind === 'dir') throw new UsageError(`--base ${base} is a folder: give a manifest file or a git revision`);
  if (base.startsWith('-'))
    throw new UsageError(`--base ${base}: no such file, and a git revision does not start with '-'`);
  const dir = path.dirname(head);
  const top = await git(['rev-parse', '--show-toplevel'], dir).catch((err: GitError) => {
    throw new UsageError(
      err.missing
        ? `--base ${base}: no such file, and git is not installed to read it as a revision`
        : /not a git repository/i.test(err.stderr)
          ? `--base ${base}: no such file, and ${shown(cwd, dir)} is not in a git repository to read it as a revision`
          : `--base ${base}: no such file, and git cannot read the repository of ${shown(cwd, dir)}: ${firstLine(err.stderr)}`,
    );
  });
  const root = top.trim();
  const rel = path.relative(realpathSync(root), realpathSync(head)).split(path.sep).join('/');
  // `base` does not start with '-' (refused above): git reads it as a revision, never as an option.
  await git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], root).catch(() => {
    throw new UsageError(
      `--base ${base}: no such file, nor a revision of the repository at ${shown(cwd, root)} (fetch it first in CI: git fetch origin <branch>, or actions/checkout with fetch-depth: 0)`,
    );
  });
  const display = `${base}:${rel}`;
  // The revision exists (checked above): a path not in it is a manifest the change adds.
  const source = await git(['show', display], root).catch(() => undefined);
  if (source === undefined) return { absPath: head, display, rev: base, absent: true };
  return { source: source.replace(/^\uFEFF/, ''), absPath: head, display, rev: base };
}

interface GitError extends Error {
  missing: boolean;
  stderr: string;
}

function firstLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')[0]
      ?.replace(/^fatal: /, '') || 'git failed'
  );
}

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, encoding: 'utf8', maxBuffer: MAX_BYTES, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const e = err as GitError & NodeJS.ErrnoException;
        e.missing = e.code === 'ENOENT';
        e.stderr = String(stderr ?? '');
        reject(e);
      },
    );
  });
}

function statKind(p: string): 'file' | 'dir' | 'missing' {
  try {
    const s = statSync(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

function shown(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' ? '.' : path.isAbsolute(rel) ? abs : rel).split(path.sep).join('/');
}
