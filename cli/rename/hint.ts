/**
 * generate's hint after a rename done by hand in the manifest: one entry of a kind gone from the
 * manifest (its handler left as an orphan) and one of the same kind added is most likely a rename,
 * which `mcpgen rename` finishes by moving the handler onto the new name. The names come from
 * src/generated/contracts.json as it was and as it will be, and the manifest as it is.
 */
import type { IR } from '../normalize/ir.js';
import type { Plan } from '../plan/plan.js';
import { commandLine, fileFlags, type RenameStep } from '../report/outcome.js';
import { isRenameKind, type RenameKind } from './kinds.js';

export interface RenameGuess {
  kind: RenameKind;
  old: string;
  new: string;
}

const CONTRACTS_PATH = 'src/generated/contracts.json';

/** The removed-and-added pairs, one per kind that has exactly one of each. */
export function renameGuesses(plan: Plan, ir?: IR): RenameGuess[] {
  const record = plan.entries.find((e) => e.path === CONTRACTS_PATH && e.action === 'update');
  if (!record?.content) return [];
  const before = contractsIn(record.previous);
  const after = contractsIn(record.content);
  const orphans = new Set(plan.entries.filter((e) => e.action === 'orphan').map((e) => e.path));
  const byKind = new Map<string, { removed: string[]; added: string[] }>();
  const of = (kind: string) => byKind.get(kind) ?? byKind.set(kind, { removed: [], added: [] }).get(kind)!;
  for (const [key, entry] of Object.entries(before)) {
    if (Object.hasOwn(after, key) || !orphans.has(entry.handler)) continue;
    const [kind, name] = split(key);
    // Still in the manifest, without a handler now (static content): not removed, so no rename.
    if (ir && inManifest(ir, kind, name)) continue;
    of(kind).removed.push(name);
  }
  for (const key of Object.keys(after)) {
    if (Object.hasOwn(before, key)) continue;
    const [kind, name] = split(key);
    of(kind).added.push(name);
  }
  const guesses: RenameGuess[] = [];
  for (const [kind, { removed, added }] of byKind)
    if (isRenameKind(kind) && removed.length === 1 && added.length === 1)
      guesses.push({ kind, old: removed[0]!, new: added[0]! });
  return guesses;
}

/** The next steps that finish each rename with `mcpgen rename`, run with the same -f and -o. */
export function renameSteps(plan: Plan, opts: { file?: string; out?: string }, ir?: IR): RenameStep[] {
  return renameGuesses(plan, ir).map((g) => ({
    kind: 'rename',
    entryKind: g.kind,
    old: g.old,
    new: g.new,
    command: commandLine(['mcpgen', 'rename', g.kind, g.old, g.new, ...fileFlags(opts), '--yes']),
  }));
}

function contractsIn(json: string | undefined): Record<string, { handler: string }> {
  try {
    return (JSON.parse(json ?? '{}') as { contracts?: Record<string, { handler: string }> }).contracts ?? {};
  } catch {
    return {};
  }
}

function inManifest(ir: IR, kind: string, name: string): boolean {
  const list = { tool: ir.tools, resource: ir.resources, template: ir.templates, prompt: ir.prompts }[kind];
  return list?.some((e) => e.name === name) === true;
}

/** `tool get_forecast` → [tool, get_forecast] (a name may hold spaces). */
function split(key: string): [string, string] {
  const i = key.indexOf(' ');
  return [key.slice(0, i), key.slice(i + 1)];
}
