import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

const TASK_SETTINGS = ['ttlMs', 'pollIntervalMs', 'inputBeforeTask'] as const;

/** Task settings (SEP-2663) on a tool that never runs as a task change nothing: most likely `taskSupport` was forgotten. */
export function checkToolExecution(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, tool] of recordEntries(m.data.tools)) {
    const execution = isRecord(tool) ? tool.execution : undefined;
    if (!isRecord(execution)) continue;
    if ((execution.taskSupport ?? 'forbidden') !== 'forbidden') continue;
    const why =
      execution.taskSupport === undefined ? '`taskSupport` is `forbidden` by default' : '`taskSupport: forbidden`';
    for (const key of TASK_SETTINGS) {
      if (execution[key] === undefined) continue;
      out.push(
        diagAt(
          m,
          ['tools', name, 'execution', key],
          Codes.TASK_OPTIONS_WITHOUT_TASK,
          `\`execution.${key}\` of tool \`${name}\` has no effect: the tool never runs as a task (${why})`,
          {
            key: true,
            severity: 'warning',
            hint: 'set `taskSupport: optional` (a task when the client supports it) or `required`, or remove the setting',
          },
        ),
      );
    }
  }
  return out;
}
