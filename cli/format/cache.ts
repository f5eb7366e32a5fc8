/**
 * A content-addressed cache of formatted text: prettier is by far the slowest stage, and what a
 * generate formats (skeletons of the generated files, stub shapes) repeats across runs, clones and
 * projects. Keyed by a hash of the input, prettier's version and the options, so a stale entry is
 * impossible; a hit means prettier is not even loaded.
 *
 * Per user, like other tools' caches: $MCPGEN_CACHE_DIR, else $XDG_CACHE_HOME/mcpgen, else
 * ~/.cache/mcpgen (macOS: ~/Library/Caches/mcpgen, Windows: %LOCALAPPDATA%\mcpgen\Cache).
 * Best effort: an unwritable cache only means formatting is not cached.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, timingsEnabled } from '../timings.js';
import { openSeed, type Seed } from './seed.js';
import { CODE_DIR } from '../paths.js';

/** Where the cache lives (the `format/` folder below it holds the entries). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPGEN_CACHE_DIR) return path.resolve(env.MCPGEN_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'mcpgen');
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library/Caches/mcpgen');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData/Local'), 'mcpgen/Cache');
  return path.join(home, '.cache/mcpgen');
}

/**
 * The entries mcpgen ships with (scripts/format-seed.mjs, built with dist): prettier's output for
 * the name-free skeletons and shapes of the examples, the golden cases and names of every usual
 * width, so even a first run on a new machine rarely loads prettier. Same keys as the disk cache;
 * MCPGEN_FORMAT_SEED=0 turns it off.
 */
let seed: Seed | null | undefined;
function seedEntries(salt: string): Seed | null {
  if (seed === undefined) seed = process.env.MCPGEN_FORMAT_SEED === '0' ? null : openSeed(path.join(CODE_DIR, 'format/format-seed.bin'), salt);
  return seed;
}

/** Entries not written for this long are pruned (now and then, when something new is written). */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

export class FormatCache {
  private readonly dir: string;
  private pruned = false;
  constructor(
    private readonly salt: string,
    /** false: read only (dry runs, checks and diffs write nothing, not even to the cache). */
    private readonly writable = true,
    root = cacheRoot(),
  ) {
    this.dir = path.join(root, 'format');
  }

  private key(file: string, content: string): string {
    return createHash('sha256').update(this.salt).update('\0').update(file).update('\0').update(content).digest('hex').slice(0, 40);
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), key.slice(2));
  }

  get(file: string, content: string): string | undefined {
    const key = this.key(file, content);
    const seeded = seedEntries(this.salt)?.get(key);
    if (seeded !== undefined) {
      count('format seed hits');
      return seeded;
    }
    try {
      const hit = readFileSync(this.file(key), 'utf8');
      count('format cache hits');
      return hit;
    } catch {
      count('format misses');
      if (timingsEnabled && process.env.MCPGEN_TIMINGS === 'misses') process.stderr.write(`format miss: ${file}\n${content}\n---\n`);
      return undefined;
    }
  }

  set(file: string, content: string, formatted: string): void {
    if (!this.writable) return;
    const target = this.file(this.key(file, content));
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.tmp`;
      writeFileSync(tmp, formatted);
      renameSync(tmp, target);
    } catch {
      /* read-only or full disk: formatting just is not cached */
    }
    // A miss already paid for prettier; one run in 20 also sweeps one bucket of old entries.
    if (!this.pruned && Math.random() < 0.05) {
      this.pruned = true;
      this.prune(path.dirname(target));
    }
  }

  private prune(bucket: string): void {
    const cutoff = Date.now() - MAX_AGE_MS;
    try {
      for (const name of readdirSync(bucket)) {
        const p = path.join(bucket, name);
        if (statSync(p).mtimeMs < cutoff) rmSync(p, { force: true });
      }
    } catch {
      /* best effort */
    }
  }
}
