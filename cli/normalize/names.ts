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

/**
 * A name in ASCII: accents dropped (`Café` → `Cafe`). `lossy` when letters remain that ASCII cannot
 * spell (`日志`, `Журнал`): their derived names then carry a hash of the whole name, so two such
 * names stay distinct. Resource names are free text; tool and prompt names are ASCII already.
 */
function ascii(name: string): { text: string; lossy: boolean } {
  if (/^[\x00-\x7f]*$/.test(name)) return { text: name, lossy: false };
  const text = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return { text, lossy: /[^\x00-\x7f]/.test(text) };
}

/** 6 hex digits of FNV-1a over the name's UTF-16 units: stable across runs and versions. */
function shortHash(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0').slice(0, 6);
}

/** Split a name into alphanumeric words: `get_forecast` → [get, forecast]; `HTTPServer-v2` → [HTTPServer, v2]. */
function words(name: string): string[] {
  const { text, lossy } = ascii(name);
  const ws = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return lossy ? [...ws, shortHash(name)] : ws;
}

/** `get_forecast` → `getForecast`; `2fa` → `_2fa`; `delete` → `delete_`; `日志` → `_1a2b3c`. */
export function identifier(name: string): string {
  const ws = words(name);
  let id = ws.map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1))).join('');
  if (id === '') id = '_';
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/**
 * `get_forecast` → `GetForecast`; `2fa` → `_2Fa`. A letter after a digit is upper-cased, as
 * json-schema-to-typescript names types, so names match what that tool would give users to import.
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

/** Longest file base name kept as is: with `.test.ts` and a folder it stays far below 255 bytes. */
const MAX_FILE_BASE = 80;

/**
 * A file-safe base name: keeps `[A-Za-z0-9_-]`, turns anything else into `_` (`Application logs` →
 * `Application_logs`); a name ASCII cannot spell, or a long one, gets a hash of the whole name.
 * Collisions (also case-insensitive ones, for macOS and Windows) are reported by validate.
 */
export function fileBase(name: string): string {
  const { text, lossy } = ascii(name);
  let base = text.replace(/[^A-Za-z0-9_-]/g, '_');
  if (lossy) base = base.replace(/_{2,}/g, '_').replace(/^_|_$/g, '');
  if (lossy || base.length > MAX_FILE_BASE)
    base = [base.slice(0, MAX_FILE_BASE - 7), shortHash(name)].filter(Boolean).join('_');
  return base === '' ? '_' : base;
}

/** True when `s` is usable as-is as a property name in an object literal or type. */
export function isPlainIdentifier(s: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s);
}
