/**
 * Which of a project's files exist, for the build to skip rendering user-owned files that are kept
 * (a regenerate of 1000 tools skips 2000 stubs). Each folder is listed once, on first use (2000
 * stubs live in two or three); the plan checks each file again before anything is written.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** A lookup of POSIX paths relative to `projectDir`. */
export function existingFiles(projectDir: string): (file: string) => boolean {
  const listings = new Map<string, Set<string> | null>();
  return (file) => {
    const slash = file.lastIndexOf('/');
    const dir = slash < 0 ? '' : file.slice(0, slash);
    let names = listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(path.join(projectDir, dir)));
      } catch {
        names = null;
      }
      listings.set(dir, names);
    }
    return names?.has(file.slice(slash + 1)) === true;
  };
}
