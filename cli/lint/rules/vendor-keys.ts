import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../../validate/diagnostic.js';
import { recordEntries } from '../../validate/json-schema-walk.js';
import { suggest } from '../../validate/suggest.js';
import type { LintRule } from '../rule.js';

/** Keys MCP defines in each open object the manifest mirrors (2025-11-25 and 2026-07-28 schemas). */
const TOOL_ANNOTATIONS = new Set(['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
const ANNOTATIONS = new Set(['audience', 'priority', 'lastModified']);
const ICON = new Set(['src', 'mimeType', 'sizes', 'theme']);
/** A prompt argument's keys: MCP's, and the manifest's own (`default`, `complete`). */
const PROMPT_ARGUMENT = new Set(['name', 'title', 'description', 'required', 'default', 'complete']);

/**
 * MCP leaves annotations and icons open, and real servers put their own keys there (a category, a
 * grouping), so the manifest passes them through verbatim. They are still worth a word: clients
 * ignore them (the TypeScript SDK client strips them while parsing), and `_meta` is where MCP
 * wants vendor data.
 */
export const vendorKeys: LintRule = {
  id: 'vendor-keys',
  code: Codes.LINT_VENDOR_KEYS,
  default: 'warn',
  description: 'annotations and icons hold only the keys MCP defines (others belong in `meta`)',
  check(m: LoadedManifest): Diagnostic[] {
    const out: Diagnostic[] = [];
    if (!isRecord(m.data)) return out;
    const check = (path: JsonPath, what: string, known: Set<string>, v: unknown) => {
      for (const [key] of recordEntries(v)) {
        if (known.has(key)) continue;
        // A near miss of a key MCP defines is most likely a typo, which would silently do nothing.
        const meant = suggest(key, [...known]);
        const message = `\`${key}\` in ${what} is not a key MCP defines${meant ? `; did you mean \`${meant}\`?` : ': it is sent as written, and clients ignore it'}`;
        const hint = meant
          ? `as written it is sent verbatim and has no effect; rename it to \`${meant}\``
          : `if it is data of your own, move it to the entry's \`meta\` (sent as \`_meta\`)${key.includes('/') ? '' : `, under a prefix: \`com.example/${key}\``}`;
        out.push(diagAt(m, [...path, key], Codes.LINT_VENDOR_KEYS, message, { key: true, severity: 'warning', hint }));
      }
    };
    const icons = (path: JsonPath, owner: string, v: unknown) => {
      if (Array.isArray(v))
        v.forEach((icon, i) => check([...path, 'icons', i], `icon ${i + 1} of ${owner}`, ICON, icon));
    };
    if (isRecord(m.data.server)) icons(['server'], 'the server', m.data.server.icons);
    const kinds: [string, string, Set<string>][] = [
      ['tools', 'tool', TOOL_ANNOTATIONS],
      ['resources', 'resource', ANNOTATIONS],
      ['resourceTemplates', 'resource template', ANNOTATIONS],
      ['prompts', 'prompt', ANNOTATIONS],
    ];
    for (const [top, kind, known] of kinds)
      for (const [name, e] of recordEntries(m.data[top])) {
        if (!isRecord(e)) continue;
        const owner = `${kind} \`${name}\``;
        if (top !== 'prompts') check([top, name, 'annotations'], `the annotations of ${owner}`, known, e.annotations);
        else {
          for (const [arg, a] of recordEntries(e.arguments)) {
            if (isRecord(a))
              check([top, name, 'arguments', arg], `argument \`${arg}\` of ${owner}`, PROMPT_ARGUMENT, a);
          }
        }
        if (top === 'prompts' && Array.isArray(e.messages))
          e.messages.forEach((msg, i) => {
            if (isRecord(msg))
              check(
                [top, name, 'messages', i, 'annotations'],
                `the annotations of message ${i + 1} of ${owner}`,
                known,
                msg.annotations,
              );
          });
        icons([top, name], owner, e.icons);
      }
    return out;
  },
};
