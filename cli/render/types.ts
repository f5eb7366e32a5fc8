/**
 * types.ts: every shared schema and every entry schema becomes one `$defs` member of a single
 * document (so a shared schema is one named type and `$ref`s are names), then each member is
 * printed as an exported declaration by mcpgen's own printer (cli/render/ts-types/), already in
 * prettier's layout: the file skips the format stage.
 */
import type { IR, JsonSchema } from '../normalize/ir.js';
import { advertisedSchema } from '../manifest/object-root.js';
import { rebaseForTypes } from '../normalize/refs.js';
import { printDeclarations, type Declaration } from './ts-types/print.js';
import { schemaDoc, schemaType } from './ts-types/schema-type.js';

/** The combined document: `$defs` maps each exported type name to its schema, in output order. */
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
    defs[typeName] = description && root.description === undefined ? { ...root, description } : root;
    Object.assign(defs, hoisted);
  };
  for (const s of ir.sharedSchemas) add(s.typeName, s.schema);
  for (const t of ir.tools) {
    // Typed as served: a root without `type` is an object on the wire (cli/manifest/object-root.ts).
    if (t.inputType && t.inputSchema) add(t.inputType, advertisedSchema(t.inputRaw ?? t.inputSchema, 'input'), `Input of tool \`${t.name}\`.`);
    if (t.outputType && t.outputSchema) add(t.outputType, advertisedSchema(t.outputRaw ?? t.outputSchema, 'output'), `Output of tool \`${t.name}\`.`);
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

/** The body of src/generated/types.ts (after the header), prettier-clean as printed. */
export function renderTypes(ir: IR): string {
  const defs = typesDocument(ir).$defs as Record<string, unknown>;
  const decls: Declaration[] = Object.entries(defs).map(([name, schema]) => ({ name, doc: schemaDoc(schema), type: schemaType(schema) }));
  return decls.length === 0 ? 'export {};\n' : printDeclarations(decls);
}
