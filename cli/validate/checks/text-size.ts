import { Buffer } from 'node:buffer';
import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import type { JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { formatSize, inlineContent, MAX_EMBEDDED_FILE_BYTES } from './files.js';

/**
 * Any other string of the manifest: descriptions, titles, instructions, schema keywords. A client
 * puts them in front of a model, so real ones are a few KiB; far past that is a mistake (a file
 * pasted into a description) that every stage and every client would carry.
 */
export const MAX_TEXT_BYTES = 256 * 1024;

/**
 * MCPG247: one inline string over its cap. Content embedded as written (`text:`, `data:`, `blob:`)
 * is capped as a `file:` is; other text far lower. Strings are measured, never copied.
 */
export function checkTextSize(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const content = new Set(inlineContent(m.data).map((c) => c.at.join('\u0000')));
  const report = (at: JsonPath, bytes: number, limit: number, what: string, hint: string) =>
    out.push(
      diagAt(m, at, Codes.TEXT_TOO_LARGE, `${what} is ${formatSize(bytes)}; at most ${formatSize(limit)} inline`, {
        hint,
      }),
    );
  // An explicit stack: the loader bounds nesting, but a walk need not rely on it.
  const stack: { value: unknown; at: JsonPath }[] = [{ value: m.data, at: [] }];
  while (stack.length) {
    const { value, at } = stack.pop()!;
    if (typeof value === 'string') {
      // UTF-8 takes at most 3 bytes per UTF-16 unit: most strings are settled without counting.
      if (value.length * 3 <= MAX_TEXT_BYTES) continue;
      const bytes = Buffer.byteLength(value);
      if (content.has(at.join('\u0000'))) {
        if (bytes > MAX_EMBEDDED_FILE_BYTES)
          report(
            at,
            bytes,
            MAX_EMBEDDED_FILE_BYTES,
            'this content',
            'serve it from a dynamic resource (no `text:`): its handler reads it when a client asks',
          );
      } else if (bytes > MAX_TEXT_BYTES) {
        report(
          at,
          bytes,
          MAX_TEXT_BYTES,
          'this text',
          'clients show it to models as it is: shorten it, and put long material in a resource',
        );
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, at: [...at, i] }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (k.length * 3 > MAX_TEXT_BYTES && Buffer.byteLength(k) > MAX_TEXT_BYTES)
          out.push(
            diagAt(
              m,
              [...at, k],
              Codes.TEXT_TOO_LARGE,
              `a key of ${formatSize(Buffer.byteLength(k))}; at most ${formatSize(MAX_TEXT_BYTES)}`,
              { key: true },
            ),
          );
        stack.push({ value: v, at: [...at, k] });
      }
    }
  }
  return out;
}
