// The schemas of generated servers: validated as written, compiled when first used.

import { fromJsonSchema, type JsonSchemaType, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';

/**
 * A schema for the SDK whose validator is compiled on first use, then kept for the process: under
 * HTTP `createServer` runs for every request, and compiling costs far more than registering; with
 * hundreds of large schemas, compiling them all at start-up would delay the first answer by seconds.
 * The SDK's validator follows each schema's `$schema` (draft-07 rules for draft-07, 2020-12
 * otherwise) and ignores unknown formats; the cast admits draft-07 syntax (`items: [...]` tuples)
 * that the SDK's schema type lacks.
 */
export function compiledOnFirstUse<T>(schema: object): StandardSchemaWithJSON<T, T> {
  const json = schema as JsonSchemaType;
  let compiled: StandardSchemaWithJSON<T, T> | undefined;
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp',
      jsonSchema: { input: () => json, output: () => json },
      validate: (value) => (compiled ??= fromJsonSchema<T>(json))['~standard'].validate(value),
    },
  };
}
