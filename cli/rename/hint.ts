/**
 * generate's hint after a rename done by hand in the manifest: one entry of a kind gone from the
 * manifest (its handler left as an orphan) and one of the same kind added is most likely a rename,
 * which `mcpgen rename` finishes by moving the handler onto the new name. The names come from
 * src/generated/contracts.json as it was and as it will be, and the manifest as it is.
 */
import type { IR } from '../normalize/ir.js';
import type { Plan } from '../plan/plan.js';

const CONTRACTS_PATH = 'src/generated/contracts.json';

/** The hint lines (empty when there is no single removed-and-added pair of a kind). */
export function renameHints(plan: Plan, opts: { file?: string; out?: string }, ir?: IR): string[] {
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
  const flags = [...(opts.file ? ['-f', opts.file] : []), ...(opts.out ? ['-o', opts.out] : [])];
  const hints: string[] = [];
  for (const [kind, { removed, added }] of byKind) {
    if (removed.length !== 1 || added.length !== 1) continue;
    const [from, to] = [removed[0]!, added[0]!];
    const command = ['mcpgen', 'rename', kind, from, to, ...flags, '--yes'].map(shellWord).join(' ');
    hints.push(
      `hint: ${kind} ${JSON.stringify(from)} was removed and ${JSON.stringify(to)} added; if it was renamed, run: ${command}`,
    );
  }
  return hints;
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

/** A word as a POSIX shell reads it: bare when safe, else in single quotes. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
