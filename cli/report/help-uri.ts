import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { VERSION } from '../version.js';

/** The page that documents every diagnostic code, one anchor per code (`#mcpg110`). */
export const DIAGNOSTICS_DOC = 'docs/manifest-diagnostics.md';

let base: string | null | undefined;

/**
 * Where a code is documented, at the release that reports it:
 * `https://github.com/<owner>/<repo>/blob/v<version>/docs/manifest-diagnostics.md#mcpg110`, the
 * repository taken from mcpgen's package.json (`repository`, else `homepage`). Undefined when that
 * is not on GitHub, whose URL form this is.
 */
export function helpUri(code: string): string | undefined {
  if (base === undefined) base = readRepository();
  return base === null ? undefined : `${base}/blob/v${VERSION}/${DIAGNOSTICS_DOC}#${code.toLowerCase()}`;
}

/** Read once, and only for SARIF: other formats do not pay for the file. */
function readRepository(): string | null {
  try {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      repository?: string | { url?: string };
      homepage?: string;
    };
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    return (repo !== undefined ? githubUrl(repo) : undefined) ?? githubUrl(pkg.homepage ?? '') ?? null;
  } catch {
    return null;
  }
}

/**
 * `https://github.com/owner/repo` from the forms package.json allows: `git+https://…/repo.git`,
 * `git@github.com:owner/repo.git`, `ssh://git@github.com/…`, `github:owner/repo`, `owner/repo`, and
 * a homepage such as `https://github.com/owner/repo#readme`.
 */
export function githubUrl(spec: string): string | undefined {
  const s = spec.trim();
  const short = /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(s);
  const full =
    /^(?:git\+)?(?:https?|git|ssh|git\+ssh):\/\/(?:[^@/]+@)?github\.com[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?(?:[#?].*)?$/.exec(
      s,
    );
  const scp = /^(?:[^@/]+@)?github\.com:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(s);
  const m = full ?? scp ?? short;
  if (!m) return undefined;
  const repo = m[2]!.replace(/\.git$/, '');
  return `https://github.com/${m[1]}/${repo}`;
}
