/**
 * A content-addressed cache of formatted text: prettier is by far the slowest stage, and most of
 * what a regenerate formats (the fixed runtime, unchanged stubs) was formatted before. Keyed by a
 * hash of the input, prettier's version and the options, so a stale entry is impossible.
 * Lives in the project's node_modules/.cache/mcpgen/format (never committed); best effort.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class FormatCache {
  private readonly dir: string;
  constructor(
    projectDir: string,
    private readonly salt: string,
    /** false: read only (dry runs, checks and diffs write nothing, not even to the cache). */
    private readonly writable = true,
  ) {
    this.dir = path.join(projectDir, 'node_modules/.cache/mcpgen/format');
  }

  private file(file: string, content: string): string {
    const key = createHash('sha256').update(this.salt).update('\0').update(file).update('\0').update(content).digest('hex');
    return path.join(this.dir, key.slice(0, 2), key.slice(2, 40));
  }

  get(file: string, content: string): string | undefined {
    try {
      return readFileSync(this.file(file, content), 'utf8');
    } catch {
      return undefined;
    }
  }

  set(file: string, content: string, formatted: string): void {
    if (!this.writable) return;
    const target = this.file(file, content);
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.tmp`;
      writeFileSync(tmp, formatted);
      renameSync(tmp, target);
    } catch {
      /* read-only or full disk: formatting just is not cached */
    }
  }
}
