/**
 * What generate says of an orphan: a handler (or its test) whose entry is gone, or whose entry is
 * still in the manifest but no longer needs a handler (static content, an `http:` call, static
 * messages). The two ask for different things: the first may be a rename, the second is not.
 */
import type { IR } from '../normalize/ir.js';

const FILE =
  /^(?:src\/handlers\/(tools|resources|templates|prompts)\/([^/]+)\.ts|test\/handlers\/(tools|resources|templates|prompts)\/([^/]+)\.test\.ts)$/;

const KIND_OF = { tools: 'tool', resources: 'resource', templates: 'template', prompts: 'prompt' } as const;

/** The entry an orphan still belongs to, with why it has no handler; null when the entry is gone. */
export interface StaticEntry {
  kind: 'tool' | 'resource' | 'template' | 'prompt';
  name: string;
  /** What serves it instead, and how to have the handler serve it again. */
  now: string;
  undo: string;
}

export function staticEntryOf(file: string, ir: IR | undefined): StaticEntry | null {
  const m = FILE.exec(file);
  if (!m || !ir) return null;
  const dir = (m[1] ?? m[3]) as keyof typeof KIND_OF;
  const base = m[2] ?? m[4];
  const kind = KIND_OF[dir];
  if (kind === 'tool') {
    const t = ir.tools.find((x) => x.fileBase === base);
    if (t && !t.handlerPath)
      return {
        kind,
        name: t.name,
        now: 'calls its API through http: now',
        undo: 'add handler: true to its http: to have it wrap the call again',
      };
  } else if (kind === 'resource') {
    const r = ir.resources.find((x) => x.fileBase === base);
    if (r && !r.handlerPath) {
      const key = r.content.kind === 'built' ? 'build:' : r.sourceFile !== null ? 'file:' : 'text:';
      const what = r.content.kind === 'built' ? 'is a view built from a folder now' : 'has static content now';
      return { kind, name: r.name, now: `${what} (${key})`, undo: `remove ${key} to serve it again` };
    }
  } else if (kind === 'prompt') {
    const p = ir.prompts.find((x) => x.fileBase === base);
    if (p && !p.handlerPath)
      return {
        kind,
        name: p.name,
        now: 'has static messages now (messages:)',
        undo: 'remove messages: to serve it again',
      };
  }
  return null;
}

/** The line generate prints for an orphan (`shown` is its path as the user sees it). */
export function orphanMessage(file: string, shown: string, ir: IR | undefined): string {
  const entry = staticEntryOf(file, ir);
  if (!entry)
    return `! ${shown} is no longer used by the manifest; it was kept. Delete it if the entry is gone for good, or move its code to the new entry's handler file.`;
  const what = file.startsWith('test/') ? "this handler's test is" : 'this handler is';
  return `! ${shown}: ${entry.kind} ${entry.name} ${entry.now}, so ${what} not used; delete it, or ${entry.undo}`;
}
