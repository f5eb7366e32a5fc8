/**
 * Names from the manifest → TypeScript identifiers, type names and file names.
 * Wire names are never changed; these derived names only have to be valid, stable and distinct.
 * (Identifier grammar and reserved words as in protobuf-es `safe-identifier.ts`.)
 */

// ES reserved words, strict-mode reserved words, and names that shadow globals the generated code uses.
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await arguments eval undefined NaN ' +
    'Infinity Object Array String Number Boolean Symbol Promise Error Date Map Set JSON Math URL server ctx'
  ).split(' '),
);

/** Split a name into alphanumeric words: `get_forecast` → [get, forecast]; `HTTPServer-v2` → [HTTPServer, v2]. */
function words(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

/** `get_forecast` → `getForecast`; `2fa` → `_2fa`; `delete` → `delete_`. */
export function identifier(name: string): string {
  const ws = words(name);
  let id = ws.map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1))).join('');
  if (id === '') id = '_';
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/**
 * `get_forecast` → `GetForecast`; `2fa` → `_2Fa`. A letter after a digit is upper-cased (as the
 * json-schema-to-typescript that used to print types.ts did), so names stay what users import.
 */
export function typeName(name: string): string {
  let id = words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    .replace(/[0-9][a-z]/g, (m) => m.toUpperCase());
  if (id === '') id = '_';
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/**
 * A file-safe base name: keeps `[A-Za-z0-9_-]`, turns anything else into `_`.
 * Collisions (also case-insensitive ones, for macOS and Windows) are reported by normalize.
 */
export function fileBase(name: string): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return base === '' ? '_' : base;
}

/** True when `s` is usable as-is as a property name in an object literal or type. */
export function isPlainIdentifier(s: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s);
}
