/**
 * The format seed: the format cache entries mcpgen ships with (scripts/format-seed.mjs builds it
 * with dist). A first generate on a new machine reads most of its formatting from here instead of
 * loading prettier. The file is looked up in place — read once, never parsed whole:
 *
 *   "MCPGSEED1\n" · salt length (u32) · salt · count (u32) ·
 *   count × (key: 20 bytes, sorted · offset: u32 · length: u32) · texts (UTF-8)
 *
 * Keys are the disk cache's (cli/format/cache.ts): a hash of the salt (prettier's version and
 * options), the file kind and the input text, so an entry is only ever served for its own input.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const MAGIC = Buffer.from('MCPGSEED1\n');
const KEY = 20;
const RECORD = KEY + 8;

export function encodeSeed(salt: string, entries: Record<string, string>): Buffer {
  const keys = Object.keys(entries).sort();
  const saltBytes = Buffer.from(salt);
  const texts: Buffer[] = [];
  const offsets = new Map<string, [number, number]>();
  let size = 0;
  const table = Buffer.alloc(keys.length * RECORD);
  keys.forEach((key, i) => {
    const text = entries[key]!;
    let at = offsets.get(text);
    if (!at) {
      const bytes = Buffer.from(text);
      at = [size, bytes.length];
      offsets.set(text, at);
      texts.push(bytes);
      size += bytes.length;
    }
    Buffer.from(key, 'hex').copy(table, i * RECORD);
    table.writeUInt32LE(at[0], i * RECORD + KEY);
    table.writeUInt32LE(at[1], i * RECORD + KEY + 4);
  });
  const head = Buffer.alloc(4);
  head.writeUInt32LE(saltBytes.length);
  const count = Buffer.alloc(4);
  count.writeUInt32LE(keys.length);
  return Buffer.concat([MAGIC, head, saltBytes, count, table, ...texts]);
}

export interface Seed {
  get(key: string): string | undefined;
}

/**
 * The seed in `file` when it was built for `salt`; null when absent, foreign or damaged. Only the
 * head and the key table are read (≈ 150 KB); each text is read when asked for. Reading the whole
 * 2.5 MB file cost ≈ 12 ms of every generate that formats anything, for the few dozen texts a run
 * looks up.
 */
export function openSeed(file: string, salt: string): Seed | null {
  const saltBytes = Buffer.byteLength(salt);
  const head = readAt(file, 0, MAGIC.length + 4 + saltBytes + 4);
  if (!head || !head.subarray(0, MAGIC.length).equals(MAGIC) || head.readUInt32LE(MAGIC.length) !== saltBytes) return null;
  if (head.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + saltBytes) !== salt) return null;
  const count = head.readUInt32LE(head.length - 4);
  const table = readAt(file, head.length, count * RECORD);
  if (!table) return null;
  const texts = head.length + count * RECORD;
  return {
    get(key) {
      if (key.length !== KEY * 2) return undefined;
      const want = Buffer.from(key, 'hex');
      let lo = 0;
      let hi = count - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const rec = mid * RECORD;
        const c = table.compare(want, 0, KEY, rec, rec + KEY);
        // A text cut short (a damaged file) is no entry.
        if (c === 0) return readAt(file, texts + table.readUInt32LE(rec + KEY), table.readUInt32LE(rec + KEY + 4))?.toString('utf8');
        // c: the table record against the wanted key (negative: the record sorts first).
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}

/** `length` bytes of `file` from offset `at`, or null when the file is missing or shorter. */
function readAt(file: string, at: number, length: number): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const b = Buffer.allocUnsafe(length);
    return readSync(fd, b, 0, length, at) === length ? b : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
