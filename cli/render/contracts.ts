/**
 * src/generated/contracts.json: a small record of each handler's contract (the schemas and shape
 * its signature is generated from). The next `generate` compares it with the new one and names the
 * handlers whose contract changed, so the user knows which TypeScript errors to expect, and where.
 */
import { printJson } from './literal.js';
import { sha256hex } from '../hash.js';
import type { IR } from '../normalize/ir.js';
import { mapSchema } from '../normalize/schema-walk.js';

/**
 * How the parts are hashed. A record made another way is not compared (its hashes would all
 * differ): the run that meets it rewrites it and names no handler.
 */
export const CONTRACTS_VERSION = 2;

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

/**
 * Keywords that only document a schema: the handler's types and the validation before it are the
 * same with or without them. `default` is not one of them: it changes what the handler receives.
 */
const ANNOTATIONS = ['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'];

/** A schema without its annotations, so that rewording a description changes no contract. */
function shapeOf(schema: unknown): unknown {
  return mapSchema(schema, (node, recurse) => {
    if (!ANNOTATIONS.some((k) => Object.hasOwn(node, k))) return undefined;
    return recurse(Object.fromEntries(Object.entries(node).filter(([k]) => !ANNOTATIONS.includes(k))));
  });
}

const schemaHash = (schema: unknown) => hash(shapeOf(schema));

/** Keyed `<kind> <name>` (e.g. `tool get_forecast`). Only entries with a handler file are recorded. */
export function contractsOf(ir: IR): Contracts {
  const c: Contracts = {};
  for (const t of ir.tools) {
    if (!t.handlerPath) continue;
    c[`tool ${t.name}`] = {
      handler: `src/handlers/${t.handlerPath}.ts`,
      test: `test/handlers/${t.handlerPath}.test.ts`,
      parts: { input: schemaHash(t.inputSchema), output: schemaHash(t.outputSchema) },
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
        params: schemaHash(t.paramsSchema),
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
        arguments: schemaHash(p.argsSchema),
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
  return printJson({ '//': headerText, version: CONTRACTS_VERSION, contracts: contractsOf(ir) });
}

export interface ContractChange {
  entry: string;
  handler: string;
  test?: string;
  parts: string[];
}

/** The entries a contracts.json records (none when it cannot be read). */
export function contractEntries(json: string): Set<string> {
  try {
    return new Set(Object.keys((JSON.parse(json) as { contracts?: Contracts }).contracts ?? {}));
  } catch {
    return new Set();
  }
}

/**
 * Entries present before and after whose parts differ. New and removed entries are not changes,
 * and nothing is compared with a record of another version.
 */
export function contractChanges(previousJson: string | undefined, next: string): ContractChange[] {
  let before: Contracts;
  try {
    const record = JSON.parse(previousJson ?? '{}') as { version?: unknown; contracts?: Contracts };
    if (record.version !== CONTRACTS_VERSION) return [];
    before = record.contracts ?? {};
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
