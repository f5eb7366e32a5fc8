/**
 * types.ts: every shared schema and every entry schema becomes one `$defs` member of a single
 * document (so a shared schema is one named type and `$ref`s are names), then each member is
 * printed as an exported declaration by mcpgen's own printer (cli/render/ts-types/), in its fixed
 * layout. Why not json-schema-to-typescript: docs/types.md.
 */
import type { IR, JsonSchema } from '../normalize/ir.js';
import { advertisedSchema } from '../manifest/object-root.js';
import { rebaseForTypes } from './ts-types/rebase.js';
import { namedRecord } from '../manifest/named-record.js';
import { printDeclaration } from './ts-types/print.js';
import { schemaDoc, schemaType } from './ts-types/schema-type.js';

/**
 * Every exported type in output order: each shared schema and entry schema as one `$defs` member of
 * a combined document (its local definitions hoisted right after it), handed to `emit` one by one
 * so a caller can print each and let it go (the schemas of 1000 tools are not all kept rebased).
 * Exported for bench/types-compare.mjs, which hands the same document to json-schema-to-typescript.
 */
export function forEachType(ir: IR, emit: (name: string, schema: unknown) => void): void {
  // Every named type is reserved first, so a hoisted local definition never takes one's name.
  const taken = new Set<string>(
    [
      ...ir.sharedSchemas.map((s) => s.typeName),
      ...ir.tools.flatMap((t) => [t.inputType, t.outputType]),
      ...ir.templates.map((t) => t.paramsType),
      ...ir.prompts.map((p) => p.argsType),
    ].filter((n): n is string => n !== null),
  );
  const add = (typeName: string, schema: JsonSchema, description?: string | null) => {
    const { root, hoisted } = rebaseForTypes(schema, typeName, taken);
    emit(typeName, description && root.description === undefined ? { ...root, description } : root);
    for (const [name, def] of Object.entries(hoisted)) emit(name, def);
  };
  for (const s of ir.sharedSchemas) add(s.typeName, s.schema);
  for (const t of ir.tools) {
    // Typed as served: a root without `type` is an object on the wire (cli/manifest/object-root.ts).
    if (t.inputType && t.inputSchema)
      add(t.inputType, advertisedSchema(t.inputRaw ?? t.inputSchema, 'input'), `Input of tool \`${t.name}\`.`);
    if (t.outputType && t.outputSchema)
      add(t.outputType, advertisedSchema(t.outputRaw ?? t.outputSchema, 'output'), `Output of tool \`${t.name}\`.`);
  }
  for (const t of ir.templates) {
    const properties = namedRecord<unknown>();
    for (const v of t.vars) properties[v.name] = v.rawSchema;
    add(
      t.paramsType,
      { type: 'object', properties, required: t.paramsSchema.required, additionalProperties: false },
      `Variables of resource template \`${t.name}\` (${t.uriTemplate}).`,
    );
  }
  for (const p of ir.prompts) {
    if (!p.argsType) continue;
    const properties = namedRecord<unknown>();
    for (const a of p.args)
      properties[a.name] = a.description ? { type: 'string', description: a.description } : { type: 'string' };
    add(
      p.argsType,
      {
        type: 'object',
        properties,
        required: p.args.filter((a) => a.required).map((a) => a.name),
        additionalProperties: false,
      },
      `Arguments of prompt \`${p.name}\`.`,
    );
  }
}

/**
 * The body of src/generated/types.ts (after the header), in its final layout. Each type is
 * printed as soon as it is rebased: its schema and type tree die young instead of all 2000 being
 * kept (and copied by the garbage collector) until the last is built.
 */
export function renderTypes(ir: IR): string {
  const texts = new Map<string, string>();
  forEachType(ir, (name, schema) => {
    // Names are unique by construction; were one repeated, the later schema would win in its
    // first place, as in an object.
    texts.set(name, printDeclaration({ name, doc: schemaDoc(schema), type: schemaType(schema) }));
  });
  return texts.size === 0 ? 'export {};\n' : `${[...texts.values()].join('\n\n')}\n`;
}
