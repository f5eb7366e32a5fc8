/**
 * types.ts: one json-schema-to-typescript run over a single document whose `$defs` hold every
 * shared schema and every entry schema, so a shared schema becomes exactly one named type.
 */
import { compile } from 'json-schema-to-typescript';
import type { IR, JsonSchema } from '../normalize/ir.js';
import { rebaseForTypes } from '../normalize/refs.js';

const ROOT = 'McpgenTypesRoot';

/** The combined document handed to json-schema-to-typescript. */
export function typesDocument(ir: IR): JsonSchema {
  const defs: Record<string, unknown> = {};
  // Every named type is reserved first, so a hoisted local definition never takes one's name.
  const taken = new Set<string>([
    ...ir.sharedSchemas.map((s) => s.typeName),
    ...ir.tools.flatMap((t) => [t.inputType, t.outputType]),
    ...ir.templates.map((t) => t.paramsType),
    ...ir.prompts.map((p) => p.argsType),
  ].filter((n): n is string => n !== null));
  const add = (typeName: string, schema: JsonSchema, description?: string | null) => {
    const { root, hoisted } = rebaseForTypes(schema, typeName, taken);
    // The definition key names the type; a `title` would override it, so the root title is dropped.
    const { title: _t, ...rest } = root;
    // A root that is only a reference would be folded into the referenced type and never named:
    // say what it is instead (`export type CreateNoteOutput = Note`).
    const ref = typeof rest.$ref === 'string' && Object.keys(rest).length === 1 ? /^#\/\$defs\/(.+)$/.exec(rest.$ref) : null;
    const body = ref ? { tsType: ref[1] } : rest;
    defs[typeName] = description && rest.description === undefined ? { ...body, description } : body;
    Object.assign(defs, hoisted);
  };
  for (const s of ir.sharedSchemas) add(s.typeName, s.schema);
  for (const t of ir.tools) {
    if (t.inputType && t.inputSchema) add(t.inputType, t.inputRaw ?? t.inputSchema, `Input of tool \`${t.name}\`.`);
    if (t.outputType && t.outputSchema) add(t.outputType, t.outputRaw ?? t.outputSchema, `Output of tool \`${t.name}\`.`);
  }
  for (const t of ir.templates) {
    const properties: Record<string, unknown> = {};
    for (const v of t.vars) properties[v.name] = v.rawSchema;
    add(t.paramsType, { type: 'object', properties, required: t.vars.map((v) => v.name), additionalProperties: false }, `Variables of resource template \`${t.name}\` (${t.uriTemplate}).`);
  }
  for (const p of ir.prompts) {
    if (!p.argsType) continue;
    const properties: Record<string, unknown> = {};
    for (const a of p.args) properties[a.name] = a.description ? { type: 'string', description: a.description } : { type: 'string' };
    add(p.argsType, { type: 'object', properties, required: p.args.filter((a) => a.required).map((a) => a.name), additionalProperties: false }, `Arguments of prompt \`${p.name}\`.`);
  }
  return { $defs: defs };
}

export async function renderTypes(ir: IR): Promise<string> {
  const doc = typesDocument(ir);
  if (Object.keys(doc.$defs as object).length === 0) return 'export {};\n';
  const ts = await compile({ ...doc, additionalProperties: false } as never, ROOT, {
    bannerComment: '',
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: false,
    format: false,
    declareExternallyReferenced: true,
    enableConstEnums: false,
    unknownAny: true,
  });
  return tidy(ts);
}

/** Drop the synthetic root type and json-schema-to-typescript's "referenced by" boilerplate. */
function tidy(ts: string): string {
  const referenced = /\n? \* ?\n \* This interface was referenced by `McpgenTypesRoot`'s JSON-Schema\n \* via the `definition` "[^"]*"\.\n/g;
  const onlyReferenced = /\/\*\*\n \* This interface was referenced by `McpgenTypesRoot`'s JSON-Schema\n \* via the `definition` "[^"]*"\.\n \*\/\n/g;
  const patternRef = /\n *\/\*\*\n *\* This interface was referenced by `[^`]*`'s JSON-Schema definition\n *\* via the `patternProperty` "[^\n]*"\.\n *\*\/(?=\n)/g;
  return (
    ts
      .replace(new RegExp(`export interface ${ROOT} \\{[^}]*\\}\\n?`), '')
      .replace(onlyReferenced, '')
      .replace(referenced, '\n')
      .replace(patternRef, '')
      .trim() + '\n'
  );
}
