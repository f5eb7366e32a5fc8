/** Snapshots of a folder tree, to prove a failed generate left it exactly as it was. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** rel path → 'dir' | 'link:<target>' | sha1 of the content; a missing root is an empty map. */
export function snapshot(root) {
  /** @type {Map<string, string>} */
  const out = new Map();
  const walk = (dir, rel) => {
    let names;
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const abs = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, `link:${fs.readlinkSync(abs)}`);
      else if (st.isDirectory()) {
        out.set(r, 'dir');
        walk(abs, r);
      } else out.set(r, crypto.createHash('sha1').update(fs.readFileSync(abs)).digest('hex'));
    }
  };
  if (fs.existsSync(root)) walk(root, '');
  return out;
}

/** What changed between two snapshots: `+ created`, `- removed`, `~ modified`. */
export function changes(before, after) {
  const out = [];
  for (const [p, h] of after)
    if (!before.has(p)) out.push(`+ ${p}`);
    else if (before.get(p) !== h) out.push(`~ ${p}`);
  for (const p of before.keys()) if (!after.has(p)) out.push(`- ${p}`);
  return out.sort();
}
