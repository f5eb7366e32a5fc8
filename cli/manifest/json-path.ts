/** A path into the manifest's data: keys of mappings and indices of lists. */
export type JsonPath = readonly (string | number)[];

/** RFC 6901 JSON Pointer of a path (`/tools/get~1forecast/input`), as Diagnostic.path carries it. */
export function toPointer(path: JsonPath): string {
  // Every diagnostic has a pointer: join() makes one flat string, where `+=` would keep a chain of
  // pieces alive for as long as the diagnostic. Most segments need no escaping.
  const parts: (string | number)[] = [''];
  for (const p of path) {
    const s = String(p);
    parts.push(s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s);
  }
  return parts.length === 1 ? '' : parts.join('/');
}

/**
 * Path segments of a `$ref` fragment (`#/$defs/a~1b` → ['$defs', 'a/b']), or undefined when the
 * fragment is not a JSON Pointer. Fragments are URI-encoded first (RFC 6901 §6), then ~-escaped.
 */
export function fragmentSegments(fragment: string): string[] | undefined {
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  try {
    return fragment
      .slice(1)
      .split('/')
      .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

/** Value at a path, or undefined when some step is missing. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isRecord(cur) && Object.hasOwn(cur, String(seg))) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

/** Whether an object has a key at all, without listing them. */
export function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
