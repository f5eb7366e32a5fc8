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
import { readFileSync } from 'node:fs';

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

/** The seed in `file` when it was built for `salt`; null when absent, foreign or damaged. */
export function openSeed(file: string | URL, salt: string): Seed | null {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return null;
  }
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  let at = MAGIC.length;
  const saltLength = buf.readUInt32LE(at);
  at += 4;
  if (buf.toString('utf8', at, at + saltLength) !== salt) return null;
  at += saltLength;
  const count = buf.readUInt32LE(at);
  at += 4;
  const table = at;
  const texts = table + count * RECORD;
  if (texts > buf.length) return null;
  return {
    get(key) {
      if (key.length !== KEY * 2) return undefined;
      const want = Buffer.from(key, 'hex');
      let lo = 0;
      let hi = count - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const rec = table + mid * RECORD;
        const c = buf.compare(want, 0, KEY, rec, rec + KEY);
        if (c === 0) {
          const offset = texts + buf.readUInt32LE(rec + KEY);
          const end = offset + buf.readUInt32LE(rec + KEY + 4);
          return end <= buf.length ? buf.toString('utf8', offset, end) : undefined;
        }
        // c: the table record against the wanted key (negative: the record sorts first).
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}
