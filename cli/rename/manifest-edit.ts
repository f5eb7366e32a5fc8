/**
 * The manifest side of a rename: the entry's key replaced at its source range, and nothing else,
 * so the user's formatting, comments and key order stay as written. The edit is checked by parsing
 * the new text: it must give the same data with only that key renamed.
 */
import { isDeepStrictEqual } from 'node:util';
import type { LoadedManifest } from '../load/types.js';
import { parseManifestYaml } from '../load/yaml.js';
import { yamlLib } from '../load/yaml-lib.js';

export interface KeyEdit {
  /** The manifest's new text. */
  text: string;
  line: number;
  column: number;
  /** The key as written before and after (with quotes when it has them). */
  before: string;
  after: string;
}

/** The manifest's data with `section.oldName` renamed to `newName`, in the same place among its siblings. */
export function renamedData(data: unknown, section: string, oldName: string, newName: string): unknown {
  const top = data as Record<string, unknown>;
  const entries = top[section] as Record<string, unknown>;
  const renamed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entries))
    Object.defineProperty(renamed, k === oldName ? newName : k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { ...top, [section]: renamed };
}

/** The text edit renaming the key, or why it cannot be made in place. */
export function renameKey(
  manifest: LoadedManifest,
  section: string,
  oldName: string,
  newName: string,
): KeyEdit | { error: string } {
  const source = manifest.source;
  const r = manifest.locate([section, oldName], { key: true });
  const start = offsetOf(source, r.line, r.column);
  const end = offsetOf(source, r.endLine, r.endColumn);
  const before = source.slice(start, end);
  if (start < 0 || end <= start || String(scalarValue(before)) !== oldName)
    return { error: `cannot find the key "${oldName}" in ${manifest.file} to edit it in place` };
  const expected = renamedData(manifest.data, section, oldName, newName);
  for (const after of spellings(before, newName)) {
    // A plain `123` or `true` key would be read as a string here, but not by every YAML tool.
    if (scalarValue(after) !== newName) continue;
    const text = source.slice(0, start) + after + source.slice(end);
    const parsed = parseManifestYaml(text, manifest.file);
    const clean = !parsed.diagnostics.some((d) => d.severity === 'error');
    if (parsed.data !== undefined && clean && isDeepStrictEqual(parsed.data, expected))
      return { text, line: r.line, column: r.column, before, after };
  }
  return {
    error: `renaming the key "${oldName}" in place would change more than the key (anchors or merge keys?); rename it by hand`,
  };
}

/** How to write the new key: in the old key's style first (plain, single or double quotes), then as JSON. */
function spellings(before: string, name: string): string[] {
  const single = `'${name.replace(/'/g, "''")}'`;
  const json = JSON.stringify(name);
  if (before.startsWith("'")) return [single, json];
  if (before.startsWith('"')) return [json];
  return [name, single, json];
}

/** The value of a key written as a YAML scalar (plain or quoted), or undefined. */
function scalarValue(text: string): unknown {
  try {
    return yamlLib().parse(text);
  } catch {
    return undefined;
  }
}

/** The offset of a 1-based line and column (UTF-16 units, as Range counts them); -1 past the end. */
function offsetOf(source: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', offset);
    if (nl < 0) return -1;
    offset = nl + 1;
  }
  return offset + column - 1;
}
