/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3.10): deflated entries, no ZIP64, no encryption. MCP
 * Bundles are plain zip files, and node:zlib's native raw deflate is all a zip entry needs. fflate
 * (JavaScript deflate) makes `mcpgen pack` 29 % slower and the bundle 2 % larger, yazl (streamed)
 * takes twice as long to zip: figures in docs/developing.md.
 * @see https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT
 */
import { deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** POSIX path inside the archive. */
  name: string;
  data: Buffer;
  /** Unix mode bits (kept so an executable entry stays executable when unpacked). */
  mode: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A fixed timestamp (1980-01-01 00:00, the DOS epoch) makes the same input give the same bytes.
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
const LIMIT = 0xffffffff;

/** The archive's bytes. Entries over 4 GiB or more than 65535 entries would need ZIP64: refused. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > 0xffff) throw new Error(`too many files for a zip without ZIP64 (${entries.length})`);
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const deflated = deflateRawSync(e.data, { level: 9 });
    // Stored when deflate does not help (small or already-compressed files).
    const stored = deflated.length >= e.data.length;
    const body = stored ? e.data : deflated;
    if (e.data.length >= LIMIT || offset >= LIMIT) throw new Error(`${e.name}: too large for a zip without ZIP64`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, name, body);

    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode bits below are read)
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(stored ? 0 : 8, 10);
    dir.writeUInt16LE(DOS_TIME, 12);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(e.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt16LE(0, 30); // extra
    dir.writeUInt16LE(0, 32); // comment
    dir.writeUInt16LE(0, 34); // disk
    dir.writeUInt16LE(0, 36); // internal attributes
    dir.writeUInt32LE(((0o100000 | (e.mode & 0o777)) << 16) >>> 0, 38); // regular file + mode
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += local.length + name.length + body.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, dirBytes, end]);
}
