/**
 * src/generated/contracts.json: a small record of each handler's contract (the schemas and shape
 * its signature is generated from). The next `generate` compares it with the new one and names the
 * handlers whose contract changed, so the user knows which TypeScript errors to expect, and where.
 */
import { printJson } from './literal.js';
import { sha256hex } from '../hash.js';
import type { IR } from '../normalize/ir.js';

export interface ContractEntry {
  /** The user-owned file whose code implements the contract. */
  handler: string;
  /** Its user-owned test stub, when mcpgen made one (it is typed by the same contract). */
  test?: string;
  /** Part name → short hash of what the signature is generated from. */
  parts: Record<string, string>;
}

export type Contracts = Record<string, ContractEntry>;

const hash = (v: unknown) => sha256hex(JSON.stringify(v ?? null)).slice(0, 12);

/** Keyed `<kind> <name>` (e.g. `tool get_forecast`). Only entries with a handler file are recorded. */
export function contractsOf(ir: IR): Contracts {
  const c: Contracts = {};
  for (const t of ir.tools) {
    if (!t.handlerPath) continue;
    c[`tool ${t.name}`] = {
      handler: `src/handlers/${t.handlerPath}.ts`,
      test: `test/handlers/${t.handlerPath}.test.ts`,
      parts: { input: hash(t.inputSchema), output: hash(t.outputSchema) },
    };
  }
  for (const r of ir.resources) {
    if (r.handlerPath)
      c[`resource ${r.name}`] = { handler: `src/handlers/${r.handlerPath}.ts`, parts: { read: hash('uri') } };
  }
  for (const t of ir.templates) {
    c[`template ${t.name}`] = {
      handler: `src/handlers/${t.handlerPath}.ts`,
      parts: {
        params: hash(t.paramsSchema),
        list: hash(t.hasList),
        complete: hash(t.vars.filter((v) => v.completion?.kind === 'handler').map((v) => v.name)),
      },
    };
  }
  for (const p of ir.prompts) {
    if (!p.handlerPath) continue;
    c[`prompt ${p.name}`] = {
      handler: `src/handlers/${p.handlerPath}.ts`,
      parts: {
        arguments: hash(p.argsSchema),
        get: hash(p.messages === null),
        complete: hash(p.args.filter((a) => a.completion?.kind === 'handler').map((a) => a.name)),
      },
    };
  }
  return c;
}

export function renderContracts(ir: IR, header: string): string {
  // JSON has no comments: the provenance header goes in a "//" key, where the ownership check finds it.
  const headerText = header.split('\n')[0]!.replace(/^\/\/ /, '');
  return printJson({ '//': headerText, contracts: contractsOf(ir) });
}

export interface ContractChange {
  entry: string;
  handler: string;
  test?: string;
  parts: string[];
}

/** Entries present before and after whose parts differ. New and removed entries are not changes. */
export function contractChanges(previousJson: string | undefined, next: string): ContractChange[] {
  let before: Contracts;
  try {
    before = (JSON.parse(previousJson ?? '{}') as { contracts?: Contracts }).contracts ?? {};
  } catch {
    return []; // an unreadable record only means no comparison this time
  }
  const after = (JSON.parse(next) as { contracts: Contracts }).contracts;
  const changes: ContractChange[] = [];
  for (const [entry, now] of Object.entries(after)) {
    const was = before[entry];
    if (!was) continue;
    const parts = Object.keys(now.parts).filter((p) => was.parts[p] !== now.parts[p]);
    if (parts.length) changes.push({ entry, handler: now.handler, ...(now.test ? { test: now.test } : {}), parts });
  }
  return changes;
}
