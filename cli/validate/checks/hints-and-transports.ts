import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

/** MCP: destructiveHint is "meaningful only when readOnlyHint == false"; both true contradict each other. */
export function checkToolHints(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, tool] of recordEntries(m.data.tools)) {
    const a = isRecord(tool) ? tool.annotations : undefined;
    if (isRecord(a) && a.readOnlyHint === true && a.destructiveHint === true) {
      out.push(
        diagAt(
          m,
          ['tools', name, 'annotations', 'destructiveHint'],
          Codes.CONTRADICTORY_HINTS,
          `tool \`${name}\` is marked both \`readOnlyHint: true\` and \`destructiveHint: true\`: a read-only tool cannot be destructive`,
          {
            key: true,
            hint: 'remove one of the two hints',
          },
        ),
      );
    }
  }
  return out;
}

/** A server with every transport disabled could not be reached at all. */
export function checkTransports(m: LoadedManifest): Diagnostic[] {
  const t = isRecord(m.data) ? m.data.transports : undefined;
  if (!isRecord(t) || t.stdio !== false || t.http !== false) return [];
  return [
    diagAt(m, ['transports'], Codes.NO_TRANSPORT, 'every transport is disabled: clients could not reach the server', {
      key: true,
      hint: 'enable stdio or http (remove `false`)',
    }),
  ];
}
